import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findSecrets } from '../edge-api/src/testing/log-secrets.ts';

/**
 * No secret in the logs of the whole test suite (issue 28 item 5, decision 238): reads every file under
 * TEST_LOG_DIR (default .data/test-logs), where the apps the tests start write their log lines
 * (edge-api/src/testing/test-logs.ts), and fails naming each line that holds a password, a token, a secret
 * link or a key. Vitest's global teardown runs it on its own run; CI runs it once after every suite.
 *
 *   node scripts/check-test-logs.ts [dir]
 */

export function checkTestLogs(dir: string): { files: number; lines: number; findings: string[] } {
  const findings: string[] = [];
  let files = 0;
  let lines = 0;
  for (const file of listFiles(dir)) {
    files++;
    const text = readFileSync(file, 'utf8');
    for (const [i, line] of text.split('\n').entries()) {
      lines++;
      for (const found of findSecrets(line)) findings.push(`${relative(dir, file)}:${i + 1}: ${found.rule}: ${found.line}`);
    }
  }
  return { files, lines, findings };
}

function listFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

if (import.meta.main) {
  const dir = process.argv[2] ?? process.env.TEST_LOG_DIR ?? join(process.cwd(), '.data/test-logs');
  const { files, lines, findings } = checkTestLogs(dir);
  if (files === 0) {
    console.error(`No test logs under ${dir}: run the tests first (their global setup writes there).`);
    process.exit(1);
  }
  if (findings.length > 0) {
    console.error(`${findings.length} log line(s) of the tests hold a secret (${dir}):`);
    for (const finding of findings.slice(0, 50)) console.error(`  ${finding}`);
    process.exit(1);
  }
  console.log(`No secret in ${lines} lines of ${files} test log files (${dir}).`);
}
