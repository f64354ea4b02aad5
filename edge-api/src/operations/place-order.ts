import type { Transaction } from 'kysely';
import { recordAudit } from '../db/audit.ts';
import { findOrderIncludingDeleted, insertOrder } from '../db/orders.ts';
import type { Database, OrderRow, ServiceRow, UserRow } from '../db/schema.ts';
import { findService } from '../db/services.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { redeemCoupon } from './coupons.ts';
import { loadPriceRules, priceFor, totalBeforeCoupon } from './pricing.ts';
import { notifyNewOrder } from './staff-notices.ts';

/** What a customer asks for when ordering (POST /api/orders, and the order with just an email). */
export interface PlaceOrderInput {
  id: string;
  productId: string;
  note: string;
  paymentMethod?: string;
  couponCode?: string;
  /** How many (decision 178); 1 when absent. */
  quantity?: number;
  /** Placed with just an email: the account's own prices are not used, as the answer would show them to whoever typed the address. */
  guest?: boolean;
}

/**
 * The order just written, priced by the one pricing module (decision 178): the unit price from the list,
 * the quantity's tier or the customer's own price, then the coupon on that total (one use taken, or the
 * whole placement refused). A service whose price is not a plain number is sold one at a time, as listed.
 */
async function priceOrder(trx: Transaction<Database>, order: OrderRow, service: ServiceRow, me: UserRow, input: PlaceOrderInput, now: Date): Promise<OrderRow> {
  const quantity = input.quantity ?? 1;
  const priced = priceFor(service.price, quantity, await loadPriceRules(trx, service.id, input.guest ? undefined : me.id));
  if (!priced) {
    if (quantity !== 1) throw badRequest('quantity: this service is sold one at a time', [{ path: 'quantity', message: 'this service is sold one at a time' }]);
    if (!input.couponCode) return order;
  }
  // The list price, once, with no coupon: the service's own text, as before rules existed.
  const total = totalBeforeCoupon(service.price, quantity, priced);
  const quote = input.couponCode
    ? await redeemCoupon(trx, input.couponCode, { service: { id: service.id, price: total }, userId: me.id, now, orderId: order.id })
    : undefined;
  return trx
    .updateTable('orders')
    .set({
      price: quote?.price ?? total,
      quantity,
      unit_price: priced?.unitPrice ?? null,
      price_rule: priced ? JSON.stringify(priced.rule) : null,
      ...(quote ? { list_price: quote.listPrice, coupon_code: quote.code, discount: quote.discount } : {}),
    })
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
export async function placeOrderIn(
  trx: Transaction<Database>,
  deps: Pick<Deps, 'clock'>,
  me: UserRow,
  input: PlaceOrderInput,
): Promise<{ row: OrderRow; created: boolean }> {
  const { id, productId, note, paymentMethod, couponCode } = input;
  const existing = await findOrderIncludingDeleted(trx, id);
  if (existing) return replayOf(existing, me);
  const service = await findService(trx, productId);
  if (!service) throw notFound('Service');
  if (service.needs_details && note === '') {
    const message = service.details_hint
      ? `This service needs details from you: ${service.details_hint}`
      : 'This service needs details from you: write them in the note';
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
  const created = await priceOrder(trx, inserted, service, me, input, fields.orderDate);
  await notifyNewOrder(trx, version, created);
  await recordAudit(trx, me, {
    action: 'order.create',
    entity: 'order',
    entityId: id,
    details: { productId, price: created.price, ...(created.quantity === 1 ? {} : { quantity: created.quantity }), ...(couponCode ? { couponCode } : {}) },
  });
  return { row: created, created: true };
}
