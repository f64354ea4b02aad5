import * as z from 'zod';
import { requiredText, uuid } from './fields.ts';

/**
 * Bulk import of Wise stock (docs/stock-import.md): CSV or pasted lines with the columns email, password,
 * name, notes. A first line naming the columns is a header (columns in any order); without one the
 * columns are taken in that order. Commas, semicolons or tabs separate them; quotes as in any CSV.
 */
export const STOCK_IMPORT_COLUMNS = ['email', 'password', 'name', 'notes'] as const;
export const STOCK_IMPORT_TEMPLATE = 'email,password,name,notes\r\nholder.one@example.com,Example#Password-1,Account Holder One,optional note\r\n';
export const STOCK_IMPORT_MAX_LINES = 20_000;
/** The pasted text or file, in characters: room for the most lines at about 250 characters each. */
export const STOCK_IMPORT_MAX_CHARS = 5_000_000;

export type ImportLineStatus = 'new' | 'duplicate_in_file' | 'in_stock' | 'delivered' | 'invalid';
export const importLineStatuses: readonly ImportLineStatus[] = ['new', 'duplicate_in_file', 'in_stock', 'delivered', 'invalid'];

/** One line of an import as the preview classifies it; only 'new' lines are imported. */
export interface ImportLine {
  /** The line of the text it came from, from 1. */
  line: number;
  email: string;
  name: string;
  status: ImportLineStatus;
  /** Why the line is not new: 'email: must be an email', 'same email as line 3', 'password already in stock'. */
  reason?: string;
}

export interface ImportPreview {
  lines: ImportLine[];
  counts: Record<ImportLineStatus, number>;
}

/** Stock imported together: who, when, how many, and how many were withdrawn since. */
export interface StockBatch {
  id: string;
  label: string;
  userName: string;
  userEmail: string;
  itemCount: number;
  /** Items of the batch still available now. */
  availableCount: number;
  withdrawnCount: number;
  withdrawnAt: string | null;
  createdAt: string;
}

export interface ImportResult {
  batch: StockBatch;
  preview: ImportPreview;
}

export interface WithdrawResult {
  batch: StockBatch;
  withdrawn: number;
}

const importText = z
  .string({ error: 'is required' })
  .max(STOCK_IMPORT_MAX_CHARS, `must be at most ${STOCK_IMPORT_MAX_CHARS} characters`)
  .refine((value) => value.trim() !== '', { message: 'is required' });

/** POST /api/stock-batches/preview */
export const importPreviewBody = z.object({ text: importText });

/** POST /api/stock-batches: imports the preview's new lines as one batch. */
export const importBody = z.object({
  id: uuid.optional(),
  label: requiredText(200),
  text: importText,
});
