import type { StockRow } from '../db/schema.ts';
import { csvField } from '../lib/csv.ts';

// The import's columns first (docs/stock-import.md), so an export with passwords imports elsewhere as it is.
const columns = (passwords: boolean) => [
  'email',
  ...(passwords ? ['password'] : []),
  'name',
  'notes',
  'status',
  'soldTo',
  'orderId',
  'batchId',
  'addedBy',
  'createdAt',
  'id',
];

export const stockCsvHeader = (passwords: boolean) => columns(passwords).join(',') + '\r\n';

/** One stock as a line of the export; `password` is the opened password, or undefined when not asked for. */
export const stockCsvRow = (row: StockRow, password: string | undefined) =>
  [
    row.wise_email,
    ...(password !== undefined ? [password] : []),
    row.wise_name,
    row.notes,
    row.status,
    row.sold_to ?? '',
    row.order_id ?? '',
    row.batch_id ?? '',
    row.user_email,
    new Date(row.created_at).toISOString(),
    row.id,
  ]
    .map(csvField)
    .join(',') + '\r\n';
