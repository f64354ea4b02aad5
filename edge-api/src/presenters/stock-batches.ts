import type { StockBatch } from '../contract/stock-batches.ts';
import type { BatchRow } from '../db/stock-batches.ts';

export function toStockBatch(row: BatchRow): StockBatch {
  return {
    id: row.id,
    label: row.label,
    userName: row.user_name,
    userEmail: row.user_email,
    itemCount: row.item_count,
    availableCount: Number(row.available_count ?? 0),
    withdrawnCount: row.withdrawn_count,
    withdrawnAt: row.withdrawn_at ? new Date(row.withdrawn_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
