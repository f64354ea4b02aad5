import type { Transaction } from 'kysely';
import { notifyStaff, resolveNotification } from '../db/notifications.ts';
import type { Database, OrderRow, ServiceStockRow, StockRow } from '../db/schema.ts';
import { claimNextServiceStock, keepsOwnStock } from '../db/service-stocks.ts';
import type { OrderChange } from './deliver.ts';
import { claimNextAvailableStock, noStockKey } from './stock-watch.ts';

/**
 * An automatic delivery under way: the Wise stock claimed for it, or the item of the service's own stock
 * (decision 072), or none left (`ownStock` says which pool was empty).
 */
export interface AutoDelivery {
  stock: StockRow | null;
  serviceStock?: ServiceStockRow | null;
  ownStock?: boolean;
}

/**
 * Whether this change, under the order's row lock, starts an automatic delivery (decision 061): it marks
 * the order paid, the order carries no credentials yet and is neither delivered nor cancelled, and its
 * service delivers automatically. The order lock makes it happen once per order whoever marks it paid,
 * and however often: a second "paid" finds the credentials the first one put there. Marking a paid order
 * paid again while it waits for stock tries again.
 *
 * A service that keeps stock of its own (decision 072: an account, a server login or lines) draws on it
 * alone, with the same SKIP LOCKED claim; an account service without stock of its own draws on the Wise
 * pool as before; a file is delivered by staff.
 */
export async function automaticDelivery(trx: Transaction<Database>, current: OrderRow, change: OrderChange): Promise<AutoDelivery | null> {
  if (change.paymentStatus !== 'paid') return null;
  if (current.wise_email !== null || current.stock_id !== null || current.delivery_kind !== null) return null;
  const status = change.orderStatus ?? current.order_status;
  if (status === 'delivered' || status === 'cancelled') return null;
  const service = await trx
    .selectFrom('services')
    .select(['id', 'auto_deliver', 'delivery_kind'])
    .where('id', '=', current.product_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!service?.auto_deliver || service.delivery_kind === 'file') return null;
  if (service.delivery_kind !== 'account' || (await keepsOwnStock(trx, service.id))) {
    const item = await claimNextServiceStock(trx, service.id, service.delivery_kind);
    return { stock: null, serviceStock: item ?? null, ownStock: true };
  }
  return { stock: (await claimNextAvailableStock(trx)) ?? null };
}

/**
 * After the order row is written: with no stock left the order stays paid and waiting, and staff are told
 * once (one open notification per order, resolved when a later attempt delivers it).
 */
export async function afterAutomaticDelivery(trx: Transaction<Database>, version: number, order: OrderRow, auto: AutoDelivery): Promise<void> {
  if (auto.stock || auto.serviceStock) {
    await resolveNotification(trx, version, noStockKey(order.id));
    return;
  }
  const pool = auto.ownStock ? `no stock of ${order.title} is available` : 'no Wise stock is available';
  await notifyStaff(trx, version, {
    kind: 'no_stock',
    title: 'Paid, but no stock to deliver',
    body: `Order #${order.id.slice(-8)} (${order.title}) for ${order.user_name || order.user_email} is paid and waits: ${pool}. Add stock, then mark it paid again or deliver it by hand.`,
    orderId: order.id,
    dedupeKey: noStockKey(order.id),
  });
}
