import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import { deliveryLines, serverLogin } from '../contract/deliveries.ts';
import { text } from '../contract/fields.ts';
import {
  SERVICE_STOCK_IMPORT_COLUMNS,
  SERVICE_STOCK_IMPORT_MAX_ROWS,
  serviceStockLabel,
  stockAccount,
  type ServiceStockImportPreview,
  type ServiceStockImportProblem,
  type ServiceStockImportSplit,
  type ServiceStockKind,
} from '../contract/service-stocks.ts';
import { credentialsKeys, duplicateCheck, findKnownCredentials, type CredentialsKeys } from '../db/credentials.ts';
import type { Database, ServiceStockDetails } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { findKnownSecrets } from './other-deliveries.ts';
import { readCsv } from './stock-import.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** No order has this id: the duplicate check then compares with every order (as the single add). */
const NO_ORDER = '00000000-0000-0000-0000-000000000000';

/** A row of the text, as given. */
interface RawRow {
  row: number;
  input: Record<string, unknown>;
  notes: string;
}

/** A checked row: its problems, and what adding it needs when it has none that block it. */
export interface PlannedRow {
  row: number;
  label: string;
  problems: ServiceStockImportProblem[];
  /** Valid rows only. */
  item?: {
    details: ServiceStockDetails;
    email: string | null;
    /** The plain secret(s), sealed only when importing. */
    secret: string;
    indexes: string[];
    keys?: CredentialsKeys;
    notes: string;
  };
}

const notesRule = text(2000);

const tooMany = () =>
  badRequest(`An import holds at most ${SERVICE_STOCK_IMPORT_MAX_ROWS} rows`, [
    { path: 'text', message: `must hold at most ${SERVICE_STOCK_IMPORT_MAX_ROWS} rows` },
  ]);

/**
 * The rows of the text (docs/stock-import.md): CSV for an account or a server login (a first line naming
 * the columns is a header, in any order; commas, semicolons or tabs), blocks or lines for lines.
 */
export function parseServiceStockRows(kind: ServiceStockKind, value: string, split: ServiceStockImportSplit = 'blocks'): RawRow[] {
  const textLines = value.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (kind === 'lines') {
    const rows: RawRow[] = [];
    let current: { row: number; lines: string[] } | undefined;
    textLines.forEach((line, i) => {
      if (line.trim() === '') {
        current = undefined;
        return;
      }
      if (split === 'lines' || !current) {
        current = { row: i + 1, lines: [] };
        rows.push({ row: current.row, input: { lines: current.lines }, notes: '' });
      }
      current.lines.push(line);
    });
    if (rows.length > SERVICE_STOCK_IMPORT_MAX_ROWS) throw tooMany();
    return rows;
  }
  const columns: readonly string[] = SERVICE_STOCK_IMPORT_COLUMNS[kind];
  // Read as the Wise stock import reads its CSV (decision 056).
  const { header, rows: body } = readCsv(value, [columns[0]!, 'password']);
  const at = (name: string) => (header ? header.indexOf(name) : columns.indexOf(name));
  if (body.length > SERVICE_STOCK_IMPORT_MAX_ROWS) throw tooMany();
  return body.map(({ cells, line }) => {
    const cell = (name: string) => {
      const index = at(name);
      return index >= 0 ? (cells[index] ?? '') : '';
    };
    const notes = cell('notes').trim();
    if (kind === 'account') return { row: line, input: { email: cell('email').trim(), password: cell('password'), name: cell('name').trim() }, notes };
    const port = cell('port').trim();
    return {
      row: line,
      input: {
        host: cell('host').trim(),
        port: /^\d{1,6}$/.test(port) ? Number(port) : port === '' ? undefined : port,
        user: cell('user').trim(),
        password: cell('password'),
      },
      notes,
    };
  });
}

const issuesOf = (error: z.ZodError): ServiceStockImportProblem[] => {
  const seen = new Set<string>();
  return error.issues.flatMap((issue) => {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : 'row';
    const key = `${field} ${issue.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ field, message: issue.message }];
  });
};

/** One row checked by the single add's rules (the same zod contract): its item, or its problems. */
async function checkRow(deps: Pick<Deps, 'secrets'>, kind: ServiceStockKind, { row, input, notes }: RawRow): Promise<PlannedRow> {
  const rule = kind === 'account' ? stockAccount : kind === 'server' ? serverLogin : deliveryLines;
  const checked = (kind === 'lines' ? rule.safeParse(input.lines) : rule.safeParse(input)) as z.ZodSafeParseResult<unknown>;
  const checkedNotes = notesRule.safeParse(notes);
  if (!checked.success || !checkedNotes.success) {
    const label = serviceStockLabel({ kind, ...(input as object), lineCount: Array.isArray(input.lines) ? input.lines.length : 0 } as Parameters<
      typeof serviceStockLabel
    >[0]);
    const problems = [
      ...(checked.success ? [] : kind === 'lines' ? issuesOf(checked.error).map((issue) => ({ ...issue, field: 'lines' })) : issuesOf(checked.error)),
      ...(checkedNotes.success ? [] : issuesOf(checkedNotes.error).map((issue) => ({ ...issue, field: 'notes' }))),
    ];
    return { row, label, problems };
  }
  const cleanNotes = checkedNotes.data;
  if (kind === 'account') {
    const account = checked.data as z.infer<typeof stockAccount>;
    const email = account.email.trim();
    const keys = await credentialsKeys(deps.secrets.blindIndex, email, account.password);
    const details = { kind: 'account' as const, email, name: account.name };
    const item = { details, email, secret: account.password, indexes: [keys.passwordIndex!], keys, notes: cleanNotes };
    return { row, label: serviceStockLabel({ kind, email, name: account.name }), problems: [], item };
  }
  if (kind === 'server') {
    const { host, port, user, password } = checked.data as z.infer<typeof serverLogin>;
    const item = {
      details: { kind: 'server' as const, host, port, user },
      email: null,
      secret: password,
      indexes: [await deps.secrets.blindIndex(password)],
      notes: cleanNotes,
    };
    return { row, label: serviceStockLabel({ kind, host, port, user }), problems: [], item };
  }
  const lines = checked.data as string[];
  const indexes = [...new Set(await Promise.all(lines.map((line) => deps.secrets.blindIndex(line))))];
  const item = { details: { kind: 'lines' as const, count: lines.length }, email: null, secret: lines.join('\n'), indexes, notes: cleanNotes };
  return { row, label: serviceStockLabel({ kind, lineCount: lines.length }), problems: [], item };
}

/** Within the text: a row repeating an earlier row's email or secret (never overridable). Answers the secrets' indexes seen. */
function markRepeats(kind: ServiceStockKind, valid: PlannedRow[]): string[] {
  const firstEmail = new Map<string, number>();
  const firstSecret = new Map<string, number>();
  const secretField = kind === 'lines' ? 'lines' : 'password';
  for (const row of valid) {
    const { keys, indexes } = row.item!;
    const earlierEmail = keys?.email !== undefined ? firstEmail.get(keys.email) : undefined;
    if (earlierEmail !== undefined) row.problems.push({ field: 'email', message: `same email as row ${earlierEmail}` });
    const earlierSecret = indexes.map((index) => firstSecret.get(index)).find((found) => found !== undefined);
    if (earlierSecret !== undefined)
      row.problems.push({ field: secretField, message: kind === 'lines' ? `a line also in row ${earlierSecret}` : `same password as row ${earlierSecret}` });
    if (keys?.email !== undefined && earlierEmail === undefined) firstEmail.set(keys.email, row.row);
    for (const index of indexes) if (!firstSecret.has(index)) firstSecret.set(index, row.row);
  }
  return [...firstSecret.keys()];
}

const where = (places: string[]) => `already ${places.map((place) => (place === 'order' ? 'delivered to an order' : 'in stock')).join(' and ')}`;

/** Against what is kept and delivered: the single add's checks, in bulk (overridable). */
async function markKnown(db: Db, kind: ServiceStockKind, valid: PlannedRow[], secrets: string[]) {
  if (kind === 'account') {
    const known = await findKnownCredentials(
      db,
      valid.map((row) => row.item!.keys!),
    );
    for (const row of valid) {
      const check = duplicateCheck(known, row.item!.keys!);
      if (check.emailIn.length > 0) row.problems.push({ field: 'email', message: where(check.emailIn), overridable: true });
      if (check.passwordIn.length > 0) row.problems.push({ field: 'password', message: where(check.passwordIn), overridable: true });
    }
    return;
  }
  const inOrders = new Set<string>();
  const inStock = new Set<string>();
  for (let start = 0; start < secrets.length; start += CHUNK) {
    const found = await findKnownSecrets(db, NO_ORDER, secrets.slice(start, start + CHUNK), CHUNK * 4);
    found.inOrders.forEach((index) => inOrders.add(index));
    found.inStock.forEach((index) => inStock.add(index));
  }
  const secretField = kind === 'lines' ? 'lines' : 'password';
  for (const row of valid) {
    const places = [
      ...(row.item!.indexes.some((index) => inStock.has(index)) ? ['stock'] : []),
      ...(row.item!.indexes.some((index) => inOrders.has(index)) ? ['order'] : []),
    ];
    if (places.length > 0)
      row.problems.push({ field: secretField, message: kind === 'lines' ? `a line is ${where(places)}` : where(places), overridable: true });
  }
}

/**
 * Checks every row by the single add's rules (the same zod contract), then for duplicates: within the
 * text (never overridable) and against Wise stock, service stock and delivered orders, through the same
 * lookups as the single add (by email and blind index, never decrypting).
 */
export async function planServiceStockImport(db: Db, deps: Pick<Deps, 'secrets'>, kind: ServiceStockKind, raw: RawRow[]): Promise<PlannedRow[]> {
  const planned = await Promise.all(raw.map((row) => checkRow(deps, kind, row)));
  const valid = planned.filter((row) => row.item);
  const secrets = markRepeats(kind, valid);
  await markKnown(db, kind, valid, secrets);
  return planned;
}

const CHUNK = 1000;

/** What the preview answers: every row (never a secret) and the counts. */
export function toImportPreview(serviceId: string, kind: ServiceStockKind, planned: PlannedRow[]): ServiceStockImportPreview {
  const counts = { ok: 0, duplicates: 0, invalid: 0 };
  for (const row of planned) {
    if (row.problems.length === 0) counts.ok += 1;
    else if (row.problems.every((problem) => problem.overridable)) counts.duplicates += 1;
    else counts.invalid += 1;
  }
  return { serviceId, kind, rows: planned.map(({ row, label, problems }) => ({ row, label, problems })), counts };
}
