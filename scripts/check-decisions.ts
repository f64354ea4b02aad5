/**
 * Checks the decision records (decision 140): each in the template's shape, at most 60 lines, listed in
 * the index (docs/decisions/README.md), and, once accepted, frozen: its text (all but the Status line)
 * must hash as `docs/decisions/frozen.json` says. A later decision gets a record of its own; the older one
 * changes only its Status line.
 *
 *   node scripts/check-decisions.ts           check (npm run lint runs it)
 *   node scripts/check-decisions.ts --freeze  add the accepted records not yet in frozen.json
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = new URL('../docs/decisions/', import.meta.url).pathname;
const INDEX = join(DIR, 'README.md');
const FROZEN = join(DIR, 'frozen.json');
const MAX_LINES = 60;
const STATUSES = ['proposed', 'accepted', 'rejected', 'deprecated', 'superseded'];

interface DecisionRecord {
  file: string;
  number: string;
  text: string;
}

function readRecords(): DecisionRecord[] {
  return readdirSync(DIR)
    .filter((file) => /^\d{3}-.+\.md$/.test(file) && !file.startsWith('000-'))
    .sort()
    .map((file) => ({ file, number: file.slice(0, 3), text: readFileSync(join(DIR, file), 'utf8') }));
}

/** The record without its Status paragraph: what may never change once accepted. */
function frozenText(text: string): string {
  return text.replace(/^Status:[^\n]*(\n(?!\n)[^\n]*)*/m, '');
}

function hashOf(text: string): string {
  return createHash('sha256').update(frozenText(text)).digest('hex');
}

function statusOf(text: string): string {
  return /^Status: ([a-z]+)/m.exec(text)?.[1] ?? '';
}

function shapeProblems(record: DecisionRecord, numbers: Set<string>): string[] {
  const problems: string[] = [];
  const { file, number, text } = record;
  const lines = text.trimEnd().split('\n');
  if (!new RegExp(`^# ${number}: \\S`).test(lines[0] ?? '')) problems.push(`${file}: the first line must be "# ${number}: Title"`);
  if (!/^Date: \d{4}-\d{2}-\d{2}$/m.test(text)) problems.push(`${file}: no "Date: YYYY-MM-DD" line`);
  if (!STATUSES.includes(statusOf(text))) problems.push(`${file}: no "Status:" line starting with one of ${STATUSES.join(', ')}`);
  if (lines.length > MAX_LINES)
    problems.push(`${file}: ${lines.length} lines, over ${MAX_LINES}: move figures to docs/decisions/figures/ or amend in a new record`);
  for (const [, other = ''] of text.matchAll(/superseded by (\d{3})/g)) {
    if (!numbers.has(other)) problems.push(`${file}: superseded by ${other}, which does not exist`);
  }
  return problems;
}

function main(): void {
  const records = readRecords();
  const numbers = new Set(records.map((record) => record.number));
  const frozen = JSON.parse(readFileSync(FROZEN, 'utf8')) as Record<string, string>;
  const index = readFileSync(INDEX, 'utf8');
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const record of records) {
    const earlier = seen.get(record.number);
    if (earlier) problems.push(`${record.file}: number ${record.number} is also ${earlier}`);
    seen.set(record.number, record.file);
    problems.push(...shapeProblems(record, numbers));
    if (!index.includes(`(${record.file})`)) problems.push(`${record.file}: not listed in docs/decisions/README.md`);
    const kept = frozen[record.file];
    if (kept && kept !== hashOf(record.text)) {
      problems.push(`${record.file}: an accepted record changed beyond its Status line; write a new record that amends it`);
    }
  }
  if (process.argv.includes('--freeze')) {
    for (const record of records) {
      if (!frozen[record.file] && statusOf(record.text) === 'accepted') frozen[record.file] = hashOf(record.text);
    }
    writeFileSync(FROZEN, `${JSON.stringify(frozen, null, 2)}\n`);
  }
  if (problems.length > 0) {
    console.error(`Decision records (decision 140):\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`${records.length} decision records: shaped, at most ${MAX_LINES} lines, indexed, accepted ones unchanged.`);
}

main();
