import type { Transaction } from 'kysely';
import { recordAudit } from '../db/audit.ts';
import { findOrderIncludingDeleted, insertOrder } from '../db/orders.ts';
import type { Database, OrderRow, UserRow } from '../db/schema.ts';
import { findService } from '../db/services.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { redeemCoupon } from './coupons.ts';
import { notifyNewOrder } from './staff-notices.ts';

/** What a customer asks for when ordering (POST /api/orders, and the order with just an email). */
export interface PlaceOrderInput {
  id: string;
  productId: string;
  note: string;
  paymentMethod?: string;
  couponCode?: string;
}

/** The order just written, priced with its coupon (one use taken, or the whole placement refused). */
async function priceWithCoupon(trx: Transaction<Database>, order: OrderRow, code: string, use: Parameters<typeof redeemCoupon>[2]): Promise<OrderRow> {
  const quote = await redeemCoupon(trx, code, use);
  return trx
    .updateTable('orders')
    .set({ price: quote.price, list_price: quote.listPrice, coupon_code: quote.code, discount: quote.discount })
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A replayed placement answers the order the first one made; an id of someone else's order is refused. */
function replayOf(row: OrderRow, me: UserRow) {
  if (row.user_id !== me.id) throw conflict('This order id is already taken');
  if (row.deleted_at) throw conflict('This order was deleted');
  return { row, created: false };
}

/**
 * The one way an order is placed, inside the caller's transaction: the service's details as they are now,
 * the price the server computes, staff told, the audit written. A replay of the same id answers the first
 * order and changes nothing.
 */
export async function placeOrderIn(trx: Transaction<Database>, deps: Pick<Deps, 'clock'>, me: UserRow, input: PlaceOrderInput): Promise<{ row: OrderRow; created: boolean }> {
  const { id, productId, note, paymentMethod, couponCode } = input;
  const existing = await findOrderIncludingDeleted(trx, id);
  if (existing) return replayOf(existing, me);
  const service = await findService(trx, productId);
  if (!service) throw notFound('Service');
  if (service.needs_details && note === '') {
    const message = service.details_hint ? `This service needs details from you: ${service.details_hint}` : 'This service needs details from you: write them in the note';
    throw badRequest(`note: ${message}`, [{ path: 'note', message }]);
  }
  const method = paymentMethod ? service.payment_methods.find((m) => m.toLowerCase() === paymentMethod.toLowerCase()) : undefined;
  if (paymentMethod && !method) {
    const message = `must be one of this service's payment methods: ${service.payment_methods.join(', ') || 'none'}`;
    throw badRequest(`paymentMethod: ${message}`, [{ path: 'paymentMethod', message }]);
  }
  const fields = {
    id,
    productId: service.id,
    title: service.title,
    description: service.description,
    category: service.category,
    image: service.image,
    price: service.price,
    deliveryTime: service.delivery_time,
    userId: me.id,
    userEmail: me.email,
    userName: me.display_name,
    orderDate: deps.clock(),
    note,
    paymentMethod: method ?? null,
  };
  const version = await nextVersion(trx);
  const inserted = await insertOrder(trx, fields, version);
  if (!inserted) return replayOf((await findOrderIncludingDeleted(trx, id))!, me);
  const created = couponCode ? await priceWithCoupon(trx, inserted, couponCode, { service, userId: me.id, now: fields.orderDate, orderId: id }) : inserted;
  await notifyNewOrder(trx, version, created);
  await recordAudit(trx, me, { action: 'order.create', entity: 'order', entityId: id, details: { productId, price: created.price, ...(couponCode ? { couponCode } : {}) } });
  return { row: created, created: true };
}
