import { sql, type Transaction } from 'kysely';
import { notifyStaff, resolveNotification } from '../db/notifications.ts';
import type { Database, StockRow } from '../db/schema.ts';
import { availableByService } from '../db/service-stocks.ts';
import { findSettingsRow } from '../db/settings.ts';
import { nextVersion } from '../db/versions.ts';
import { toSiteSettings } from '../presenters/settings.ts';

/**
 * The oldest available stock account no other transaction holds, locked until this one ends; undefined
 * when there is none. SKIP LOCKED: two orders paid at once never wait for, nor take, the same account;
 * the unique index on orders.stock_id stays the last guard (decision 061).
 */
export function claimNextAvailableStock(trx: Transaction<Database>): Promise<StockRow | undefined> {
  return trx
    .selectFrom('wise_stocks')
    .selectAll()
    .where('status', '=', 'available')
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export const noStockKey = (orderId: string) => `no_stock:${orderId}`;
const overallKey = 'low_stock:all';
const serviceKey = (serviceId: string) => `low_stock:service:${serviceId}`;

/**
 * Compares the available Wise stock with the shop's threshold (settings) and each service's own, inside a
 * transaction that changed stock: below a threshold, staff get one low-stock notification until stock is
 * back at or above it (the notification is then resolved). Stock is one pool (decision 061), so every
 * threshold is compared with the same count. Call it after the transaction's nextVersion; the version is
 * then read back when not given.
 */
export async function watchStockLevel(trx: Transaction<Database>, version?: number): Promise<void> {
  // nextVersion answers the version this transaction already took.
  version ??= await nextVersion(trx);
  const [{ available }] = (
    await sql<{ available: number }>`select count(*)::int as available from wise_stocks where status = 'available' and deleted_at is null`.execute(trx)
  ).rows as [{ available: number }];
  const overall = toSiteSettings((await findSettingsRow(trx))?.value).lowStockThreshold ?? 0;
  await compare(trx, version, available, overall, overallKey, 'Wise stock is running low', null);
  const services = await trx
    .selectFrom('services')
    .select(['id', 'title', 'low_stock_threshold'])
    .where('deleted_at', 'is', null)
    .where('low_stock_threshold', 'is not', null)
    .execute();
  // A service that keeps stock of its own (decision 072) is compared with that stock alone.
  const own = await availableByService(trx);
  for (const service of services) {
    const count = own.get(service.id);
    await compare(
      trx,
      version,
      count ?? available,
      service.low_stock_threshold ?? 0,
      serviceKey(service.id),
      `Low stock for ${service.title}`,
      service.id,
      count !== undefined,
    );
  }
  // A service deleted, or without a threshold of its own now: its open warning is over.
  await trx
    .updateTable('notifications')
    .set({ resolved_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, version })
    .where('kind', '=', 'low_stock')
    .where('resolved_at', 'is', null)
    .where('service_id', 'is not', null)
    .$if(services.length > 0, (qb) =>
      qb.where(
        'service_id',
        'not in',
        services.map((service) => service.id),
      ),
    )
    .execute();
}

async function compare(
  trx: Transaction<Database>,
  version: number,
  available: number,
  threshold: number,
  key: string,
  title: string,
  serviceId: string | null,
  ownStock = false,
) {
  if (threshold > 0 && available < threshold) {
    const what = ownStock ? `stock ${available === 1 ? 'item' : 'items'} of its own` : `Wise stock ${available === 1 ? 'account' : 'accounts'}`;
    const body = `${available} available ${what}, below the threshold of ${threshold}. Add stock.`;
    await notifyStaff(trx, version, { kind: 'low_stock', title, body, serviceId, dedupeKey: key });
  } else {
    await resolveNotification(trx, version, key);
  }
}
