import type { Transaction } from 'kysely';
import { notifyStaff, resolveNotification } from '../db/notifications.ts';
import type { Database, OrderRow, StockRow } from '../db/schema.ts';
import type { OrderChange } from './deliver.ts';
import { claimNextAvailableStock, noStockKey } from './stock-watch.ts';

/** An automatic delivery under way: the stock claimed for it, or none left. */
export interface AutoDelivery {
  stock: StockRow | null;
}

/**
 * Whether this change, under the order's row lock, starts an automatic delivery (decision 061): it marks
 * the order paid, the order carries no credentials yet and is neither delivered nor cancelled, and its
 * service delivers automatically. The order lock makes it happen once per order whoever marks it paid,
 * and however often: a second "paid" finds the credentials the first one put there. Marking a paid order
 * paid again while it waits for stock tries again.
 */
export async function automaticDelivery(trx: Transaction<Database>, current: OrderRow, change: OrderChange): Promise<AutoDelivery | null> {
  if (change.paymentStatus !== 'paid') return null;
  if (current.wise_email !== null || current.stock_id !== null) return null;
  const status = change.orderStatus ?? current.order_status;
  if (status === 'delivered' || status === 'cancelled') return null;
  const service = await trx.selectFrom('services').select('auto_deliver').where('id', '=', current.product_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!service?.auto_deliver) return null;
  return { stock: (await claimNextAvailableStock(trx)) ?? null };
}

/**
 * After the order row is written: with no stock left the order stays paid and waiting, and staff are told
 * once (one open notification per order, resolved when a later attempt delivers it).
 */
export async function afterAutomaticDelivery(trx: Transaction<Database>, version: number, order: OrderRow, auto: AutoDelivery): Promise<void> {
  if (auto.stock) {
    await resolveNotification(trx, version, noStockKey(order.id));
    return;
  }
  await notifyStaff(trx, version, {
    kind: 'no_stock',
    title: 'Paid, but no stock to deliver',
    body: `Order #${order.id.slice(-8)} (${order.title}) for ${order.user_name || order.user_email} is paid and waits: no Wise stock is available. Add stock, then mark it paid again or deliver it by hand.`,
    orderId: order.id,
    dedupeKey: noStockKey(order.id),
  });
}
