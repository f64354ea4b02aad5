import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { getPublicDb, type UserDb } from '../../db/local-db.ts';
import { setPaymentStatus } from '../../db/mutations.ts';
import { serverOutcome } from '../../db/server-outcome.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

/**
 * Whether marking this order paid delivers it from stock on the server (decision 061): its service (as
 * synced to this device) says so and it carries no credentials yet. Then 'paid' is saved at once instead
 * of opening the credentials form.
 */
export async function deliversAutomatically(order: Order): Promise<boolean> {
  if (order.wiseEmail || order.stockId || order.deliveryKind) return false;
  const service = await getPublicDb().services.get(order.productId);
  return service?.autoDeliver === true;
}

/** What staff are told once the server answered: delivered from stock, or paid and waiting for stock. */
export function autoDeliveryOutcome(after: Order | undefined, orderId: string): { ok: boolean; text: string } {
  const label = `Order #${shortOrderId(orderId)}`;
  if (after?.orderStatus === 'delivered' && (after.stockId || after.serviceStockId))
    return { ok: true, text: `${label} is paid and was delivered automatically from stock.` };
  return { ok: false, text: `${label} is paid, but no stock was left to deliver: it waits. Add stock, then mark it paid again or deliver it by hand.` };
}

/** Marks the order paid through the outbox; answers the message for staff. */
export async function markPaidForAutoDelivery(userId: string, db: UserDb, order: Order): Promise<{ ok: boolean; text: string }> {
  const handle = setPaymentStatus(
    userId,
    { orderId: order.id, paymentStatus: 'paid', version: order.version, from: order.paymentStatus },
    { shown: { orders: [order] } },
  );
  const outcome = await serverOutcome(handle.done);
  if (outcome !== 'confirmed') {
    return { ok: true, text: `Order #${shortOrderId(order.id)} is marked paid on this device; it is delivered from stock when it syncs.` };
  }
  return autoDeliveryOutcome(await db.orders.get(order.id), order.id);
}
