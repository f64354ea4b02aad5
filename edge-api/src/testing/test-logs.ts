import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../lib/logger.ts';
import { currentRequestId } from '../lib/request-context.ts';

/**
 * Where the test suite's log lines go (issue 28 item 5, decision 238): every app the tests start, in their
 * process or in one of its own, writes what it logs to a file under TEST_LOG_DIR, and
 * scripts/check-test-logs.ts looks for secrets in all of them. Vitest's global setup sets TEST_LOG_DIR
 * (global-setup.ts); without it (a file run by hand outside vitest) nothing is written.
 */

/** The directories made by this process: each once, not at every line. */
const made = new Set<string>();

/** The file for this process's lines of one source: `<source>-<pid>.log`. */
function logFile(source: string): string | undefined {
  const dir = process.env.TEST_LOG_DIR;
  if (!dir) return undefined;
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  return join(dir, `${source.replace(/[^A-Za-z0-9_-]/g, '_')}-${process.pid}.log`);
}

/**
 * Appends text as it came to this run's log of `source` (synchronously: a test worker may end at any time).
 * A process's output is copied chunk by chunk, unchanged, so no line (and no secret) is cut in two.
 */
export function appendTestLog(source: string, text: string | Uint8Array): void {
  const file = logFile(source);
  if (file) appendFileSync(file, text);
}

/** The logger for an app the tests run in their process: the JSON lines consoleLogger prints, to the run's log. */
export function testLogger(source = 'app'): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) => {
    const requestId = currentRequestId();
    appendTestLog(source, `${JSON.stringify({ level, message, ...(requestId && { requestId }), ...fields })}\n`);
  };
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

/** Copies what a process the tests started writes on stdout and on stderr (a file each) to the run's log. */
export function teeToTestLog(child: ChildProcess, source: string): void {
  child.stdout?.on('data', (chunk: Buffer) => appendTestLog(`${source}-${child.pid}-out`, chunk));
  child.stderr?.on('data', (chunk: Buffer) => appendTestLog(`${source}-${child.pid}-err`, chunk));
}
