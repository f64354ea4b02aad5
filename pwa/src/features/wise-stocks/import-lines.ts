import type { ImportLineStatus } from '../../../../edge-api/src/contract/stock-batches.ts';

/** How the preview names each kind of line, and the badge it wears. */
export const lineStatusLabels: Record<ImportLineStatus, string> = {
  new: 'New',
  duplicate_in_file: 'Duplicate in file',
  in_stock: 'Already in stock',
  delivered: 'Already delivered',
  invalid: 'Invalid',
};

export const lineStatusBadge: Record<ImportLineStatus, string> = {
  new: 'badge badge-success',
  duplicate_in_file: 'badge badge-warning',
  in_stock: 'badge badge-warning',
  delivered: 'badge badge-error',
  invalid: 'badge badge-error',
};

/** A label for a batch nobody named: the day it was imported. */
export const defaultBatchLabel = (now: Date = new Date()) => `Import ${now.toISOString().slice(0, 10)}`;

export const importedMessage = (count: number, label: string) => `Imported ${count} Wise ${count === 1 ? 'stock' : 'stocks'} as batch “${label}”`;
