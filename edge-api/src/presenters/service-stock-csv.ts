import type { ServiceStockKind } from '../contract/service-stocks.ts';
import { SERVICE_STOCK_IMPORT_COLUMNS } from '../contract/service-stocks.ts';
import type { ServiceStockRow } from '../db/schema.ts';
import { csvField } from '../lib/csv.ts';

const SECRET_COLUMN: Record<ServiceStockKind, string> = { account: 'password', server: 'password', lines: 'lines' };
const TAIL = ['status', 'soldTo', 'orderId', 'createdAt', 'id'];

/**
 * The columns of a service's stock export (decision 198): the import's own first (docs/stock-import.md),
 * the secret only when asked, so an export with secrets imports elsewhere as it is; lines are one field.
 */
export function serviceStockCsvHeader(kind: ServiceStockKind, secrets: boolean): string {
  const own: readonly string[] = kind === 'lines' ? ['lines', 'notes'] : SERVICE_STOCK_IMPORT_COLUMNS[kind];
  return (
    own
      .filter((column) => secrets || column !== SECRET_COLUMN[kind])
      .concat(kind === 'lines' ? ['lineCount'] : [], TAIL)
      .join(',') + '\r\n'
  );
}

/** One item as a line of the export; `secret` is the opened password or lines, or undefined when not asked for. */
export function serviceStockCsvRow(row: ServiceStockRow, secret: string | undefined): string {
  const details = row.details;
  const own =
    details.kind === 'account'
      ? [details.email, ...(secret !== undefined ? [secret] : []), details.name]
      : details.kind === 'server'
        ? [details.host, String(details.port), details.user, ...(secret !== undefined ? [secret] : [])]
        : [...(secret !== undefined ? [secret] : [])];
  const count = details.kind === 'lines' ? [String(details.count)] : [];
  return (
    [...own, row.notes, ...count, row.status, row.sold_to ?? '', row.order_id ?? '', new Date(row.created_at).toISOString(), row.id].map(csvField).join(',') +
    '\r\n'
  );
}
