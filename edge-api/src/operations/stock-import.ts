import Papa from 'papaparse';
import type { Transaction } from 'kysely';
import { wisePassword } from '../contract/fields.ts';
import { importLineStatuses, STOCK_IMPORT_COLUMNS, STOCK_IMPORT_MAX_LINES, type ImportLine, type ImportPreview } from '../contract/stock-batches.ts';
import { newStockBody } from '../contract/wise-stock-requests.ts';
import * as z from 'zod';
import { credentialsKeys, findKnownCredentials, type CredentialsKeys } from '../db/credentials.ts';
import type { Database } from '../db/schema.ts';
import type { Kysely } from 'kysely';
import { badRequest } from '../errors.ts';

/** A line of the text, its fields as given. */
interface RawLine {
  line: number;
  email: string;
  password: string;
  name: string;
  notes: string;
}

/** A classified line with what importing it needs. */
export interface PlannedLine extends ImportLine {
  password: string;
  notes: string;
  keys?: CredentialsKeys;
}

const lineRules = z.object({
  email: newStockBody.shape.wiseEmail,
  password: wisePassword,
  name: newStockBody.shape.wiseName,
  notes: z.string().max(2000, 'must be at most 2000 characters'),
});

/**
 * The rows of CSV text, each with its line of the text, blank lines skipped: commas, semicolons or tabs,
 * quotes as in any CSV, a byte order mark ignored. A first row holding every one of `headerNames` (case
 * and spaces aside) is a header: its cells in lower case come back as `header`, its row is left out.
 */
export function readCsv(text: string, headerNames: readonly string[]): { header: string[] | null; rows: { cells: string[]; line: number }[] } {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false, delimitersToGuess: [',', '\t', ';'] });
  // Numbered before blank lines are dropped, so a line number is the line of the text (a quoted field
  // spanning lines, rare in credentials, shifts the numbers after it).
  const rows = parsed.data.map((cells, i) => ({ cells, line: i + 1 })).filter((row) => row.cells.some((cell) => cell.trim() !== ''));
  const first = rows[0]?.cells.map((cell) => cell.trim().toLowerCase()) ?? [];
  const hasHeader = headerNames.every((name) => first.includes(name));
  return hasHeader ? { header: first, rows: rows.slice(1) } : { header: null, rows };
}

/** The lines of a CSV file or of pasted lines (docs/stock-import.md); blank lines are skipped. */
export function parseStockLines(text: string): RawLine[] {
  const { header, rows: body } = readCsv(text, ['email', 'password']);
  const column = (name: (typeof STOCK_IMPORT_COLUMNS)[number]) => (header ? header.indexOf(name) : STOCK_IMPORT_COLUMNS.indexOf(name));
  const at = { email: column('email'), password: column('password'), name: column('name'), notes: column('notes') };
  if (body.length > STOCK_IMPORT_MAX_LINES) {
    throw badRequest(`An import holds at most ${STOCK_IMPORT_MAX_LINES} lines`, [
      { path: 'text', message: `must hold at most ${STOCK_IMPORT_MAX_LINES} lines` },
    ]);
  }
  const cell = (cells: string[], index: number) => (index >= 0 ? (cells[index] ?? '') : '');
  return body.map(({ cells, line }) => ({
    line,
    email: cell(cells, at.email).trim(),
    password: cell(cells, at.password),
    name: cell(cells, at.name).trim(),
    notes: cell(cells, at.notes).trim(),
  }));
}

const places = (inStock: boolean, delivered: boolean) => (delivered ? 'delivered' : inStock ? 'in_stock' : null);

/**
 * Classifies every line: invalid (with the reason), a duplicate of an earlier line of the file, already
 * delivered to an order, already in stock, or new. Stock and orders are looked up through the email and
 * the blind indexes, a few queries for the whole file, never by decrypting.
 */
export async function planImport(
  db: Kysely<Database> | Transaction<Database>,
  blindIndex: (value: string) => Promise<string>,
  raw: RawLine[],
): Promise<PlannedLine[]> {
  const planned: PlannedLine[] = await Promise.all(
    raw.map(async (line) => {
      const base = { line: line.line, email: line.email, name: line.name, password: line.password, notes: line.notes };
      const checked = lineRules.safeParse(line);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        return { ...base, status: 'invalid' as const, reason: `${issue.path.join('.')}: ${issue.message}` };
      }
      return { ...base, status: 'new' as const, keys: await credentialsKeys(blindIndex, line.email, line.password) };
    }),
  );
  const valid = planned.filter((line) => line.keys);
  const known = await findKnownCredentials(
    db,
    valid.map((line) => line.keys!),
  );
  const firstEmail = new Map<string, number>();
  const firstPassword = new Map<string, number>();
  for (const line of valid) {
    const { email, emailIndex, passwordIndex } = line.keys!;
    const earlierEmail = firstEmail.get(email!);
    const earlierPassword = firstPassword.get(passwordIndex!);
    if (earlierEmail !== undefined || earlierPassword !== undefined) {
      line.status = 'duplicate_in_file';
      line.reason = earlierEmail !== undefined ? `same email as line ${earlierEmail}` : `same password as line ${earlierPassword}`;
      continue;
    }
    firstEmail.set(email!, line.line);
    firstPassword.set(passwordIndex!, line.line);
    const emailPlace = places(known.stockEmails.has(email!), known.orderEmails.has(emailIndex!));
    const passwordPlace = places(known.stockPasswords.has(passwordIndex!), known.orderPasswords.has(passwordIndex!));
    const status = emailPlace === 'delivered' || passwordPlace === 'delivered' ? 'delivered' : (emailPlace ?? passwordPlace);
    if (!status) continue;
    line.status = status;
    const what = [emailPlace === status ? 'email' : null, passwordPlace === status ? 'password' : null].filter(Boolean).join(' and ');
    line.reason = `${what} already ${status === 'delivered' ? 'delivered to an order' : 'in stock'}`;
  }
  return planned;
}

/** The preview's answer: every line without its password, and the counts. */
export function toPreview(planned: PlannedLine[]): ImportPreview {
  const counts = Object.fromEntries(importLineStatuses.map((status) => [status, 0])) as ImportPreview['counts'];
  const lines = planned.map(({ line, email, name, status, reason }) => {
    counts[status] += 1;
    return { line, email, name, status, ...(reason ? { reason } : {}) };
  });
  return { lines, counts };
}
