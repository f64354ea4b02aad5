/**
 * Stock kept for one service (issue 16 item 4, decision 072): items of the service's kind (an account, a
 * server login, lines), apart from the Wise stock pool, whose screens and API stay as they are.
 */
import * as z from 'zod';
import { deliveryLines, serverLogin } from './deliveries.ts';
import { listPageQuery } from './list-pages.ts';
import { expectedVersion, requiredEmail, requiredText, text, uuid, wisePassword } from './fields.ts';

export type ServiceStockKind = 'account' | 'server' | 'lines';
export const serviceStockKinds: readonly ServiceStockKind[] = ['account', 'server', 'lines'];
export type ServiceStockStatus = 'available' | 'sold' | 'disabled';

/** An account kept in a service's stock: like a Wise stock's email, password and name. */
export const stockAccount = z.object({ email: requiredEmail, password: wisePassword, name: requiredText(200) }).strict();

/** POST /api/service-stocks: one item, of the service's kind (exactly one of account, server, lines). */
export const newServiceStockBody = z
  .object({
    id: uuid.optional(),
    serviceId: uuid,
    account: stockAccount.optional(),
    server: serverLogin.optional(),
    lines: deliveryLines.optional(),
    notes: text(2000).optional(),
    /** Add it although its email or a secret is already in stock or delivered (409 duplicate_credentials without). */
    overrideDuplicates: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()
  .refine((body) => [body.account, body.server, body.lines].filter((value) => value !== undefined).length === 1, {
    path: ['account'],
    message: 'send exactly one of account, server or lines',
  });
export type NewServiceStock = z.infer<typeof newServiceStockBody>;

/** GET /api/service-stocks?serviceId=: a page of the service's live items, newest first (decision 242). */
export const serviceStockListQuery = z.object({ serviceId: uuid, ...listPageQuery.shape });

/** GET /api/service-stocks/export.csv: one service's live items as CSV, secrets only when asked (decision 198). */
export const serviceStockExportQuery = z.object({
  serviceId: uuid,
  passwords: z
    .preprocess((value) => (value === '' ? undefined : value), z.enum(['true', 'false'], { error: 'must be true or false' }).optional())
    .transform((value) => value === 'true'),
});

/** POST /api/service-stocks/{id}/withdraw: an available item leaves the shelf (status disabled). */
export const withdrawServiceStockBody = z.object({ version: expectedVersion }).strict();

/** An item as staff get it. An admin gets the secret (as Wise stock passwords); a moderator gets it masked. */
export interface ServiceStock {
  id: string;
  serviceId: string;
  kind: ServiceStockKind;
  /** account */
  email?: string;
  name?: string;
  /** server */
  host?: string;
  port?: number;
  user?: string;
  /** The password (account, server); '' when masked. */
  password?: string;
  /** lines: how many, and (admin) the lines themselves. */
  lineCount?: number;
  lines?: string[];
  secretMasked?: true;
  secretUnreadable?: true;
  status: ServiceStockStatus;
  soldTo: string | null;
  orderId: string | null;
  notes: string;
  faultyAt?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** What a list shows of an item: never its secret. */
export function serviceStockLabel(item: Pick<ServiceStock, 'kind' | 'email' | 'name' | 'host' | 'port' | 'user' | 'lineCount'>): string {
  if (item.kind === 'account') return `${item.name ?? ''} <${item.email ?? ''}>`;
  if (item.kind === 'server') return `${item.user ?? ''}@${item.host ?? ''}:${item.port ?? ''}`;
  return `${item.lineCount ?? 0} ${item.lineCount === 1 ? 'line' : 'lines'}`;
}

/**
 * Bulk add to a service's stock (decision 075, docs/stock-import.md): CSV for an account
 * (`email,password,name[,notes]`) or a server login (`host,port,user,password[,notes]`); for lines, pasted
 * text where each block of lines between blank lines is one item (`split: 'blocks'`, the default) or each
 * line is one item (`split: 'lines'`).
 */
export const SERVICE_STOCK_IMPORT_COLUMNS = {
  account: ['email', 'password', 'name', 'notes'],
  server: ['host', 'port', 'user', 'password', 'notes'],
} as const;
export const SERVICE_STOCK_IMPORT_MAX_ROWS = 5_000;
/** The pasted text or file, in characters: 5,000 rows of about 200 characters. */
export const SERVICE_STOCK_IMPORT_MAX_CHARS = 1_000_000;
export type ServiceStockImportSplit = 'blocks' | 'lines';

const serviceStockImportText = z
  .string({ error: 'is required' })
  .max(SERVICE_STOCK_IMPORT_MAX_CHARS, `must be at most ${SERVICE_STOCK_IMPORT_MAX_CHARS} characters`)
  .refine((value) => value.trim() !== '', { message: 'is required' });

/** POST /api/service-stocks/preview: checks every row, writes nothing. */
export const serviceStockImportPreviewBody = z
  .object({
    serviceId: uuid,
    text: serviceStockImportText,
    /** lines only: one item per block between blank lines (default) or per line. */
    split: z.enum(['blocks', 'lines'], { error: 'must be blocks or lines' }).optional(),
  })
  .strict();

/** POST /api/service-stocks/batch: all rows or none, once per id. */
export const serviceStockImportBody = serviceStockImportPreviewBody
  .extend({
    /** The client's id of this import: a replay answers the first result and adds nothing. */
    id: uuid,
    overrideDuplicates: z.boolean({ error: 'must be true or false' }).optional(),
    /** What the batch is called in the list of imports (decision 228); the day and the count when blank. */
    label: text(200).optional(),
  })
  .strict();

/** One problem of a row: the field it is about ('row' for the row as a whole) and what is wrong. */
export interface ServiceStockImportProblem {
  field: string;
  message: string;
  /** A duplicate of stock or of an order: overrideDuplicates lets it in. Invalid rows and duplicates within the text never. */
  overridable?: true;
}

export interface ServiceStockImportRow {
  /** The line of the text the row (or block) starts on, from 1. */
  row: number;
  /** What a list shows of it (never a secret). */
  label: string;
  problems: ServiceStockImportProblem[];
}

export interface ServiceStockImportPreview {
  serviceId: string;
  kind: ServiceStockKind;
  rows: ServiceStockImportRow[];
  /** Rows without a problem; rows whose only problems are overridable; rows that cannot be imported. */
  counts: { ok: number; duplicates: number; invalid: number };
}

export interface ServiceStockImportResult {
  id: string;
  serviceId: string;
  kind: ServiceStockKind;
  imported: number;
  overrodeDuplicates: boolean;
}
