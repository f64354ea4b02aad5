import type { ServiceStockBatch } from '../contract/service-stock-changes.ts';
import type { ServiceStockBatchRow } from '../db/service-stock-batches.ts';

export function toServiceStockBatch(row: ServiceStockBatchRow): ServiceStockBatch {
  return {
    id: row.id,
    serviceId: row.service_id,
    kind: row.kind,
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
