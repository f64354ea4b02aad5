import type { ServiceStock } from '../contract/service-stocks.ts';
import type { ServiceStockRow } from '../db/schema.ts';
import type { Secrets } from '../lib/secrets.ts';
import type { StockViewer } from './wise-stocks.ts';

/** An item as staff get it: an admin reads its secret (as Wise stock passwords); a moderator gets it masked. */
export async function toServiceStock(row: ServiceStockRow, secrets: Secrets, viewer: StockViewer): Promise<ServiceStock> {
  const masked = viewer !== 'admin';
  const secret = masked ? '' : await secrets.open(row.secret_enc, { entity: 'service_stock', id: row.id });
  const details = row.details;
  const shown =
    details.kind === 'account'
      ? { email: details.email, name: details.name, password: secret ?? '' }
      : details.kind === 'server'
        ? { host: details.host, port: details.port, user: details.user, password: secret ?? '' }
        : { lineCount: details.count, ...(!masked && secret !== null && { lines: secret.split('\n') }) };
  return {
    id: row.id,
    serviceId: row.service_id,
    kind: row.kind,
    ...shown,
    ...(masked && { secretMasked: true as const }),
    ...(secret === null && { secretUnreadable: true as const }),
    status: row.status,
    soldTo: row.sold_to,
    orderId: row.order_id,
    notes: row.notes,
    ...(row.faulty_at && { faultyAt: new Date(row.faulty_at).toISOString() }),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
  };
}
