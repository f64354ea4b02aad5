import type { Order } from '../contract/orders.ts';
import type { ApiOrder, ApiService } from '../contract/partners.ts';
import type { ServiceRow } from '../db/schema.ts';

/**
 * An order as /api/v1 answers it, from what the owner's app reads (presentOrder, audience 'owner'): the
 * same sealing. A delivered account's password is held back (`sealed`) until a reveal is logged, as the
 * app shows it only on Show and logs that (decision 066); the other kinds' secrets go as the app gets them.
 */
export function toApiOrder(order: Order, reveal: boolean): ApiOrder {
  const answer: ApiOrder = {
    id: order.id,
    productId: order.productId,
    title: order.title,
    price: order.price,
    paymentStatus: order.paymentStatus,
    orderStatus: order.orderStatus,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    replacements: (order.deliveryHistory ?? []).filter((past) => past.kind === 'replaced').length,
  };
  if (order.paymentMethod) answer.paymentMethod = order.paymentMethod;
  if (order.note) answer.note = order.note;
  if (order.deliveredAt) answer.deliveredAt = order.deliveredAt;
  if (order.deliveryKind) {
    answer.delivery = {
      kind: order.deliveryKind,
      sealed: false,
      ...(order.serverHost !== undefined && { serverHost: order.serverHost, serverPort: order.serverPort, serverUser: order.serverUser }),
      ...(order.serverPassword !== undefined && { serverPassword: order.serverPassword }),
      ...(order.deliveryLines !== undefined && { lines: order.deliveryLines, lineCount: order.deliveryLines.length }),
      ...(order.deliveryFile && { file: order.deliveryFile }),
    };
  } else if (order.wiseEmail !== undefined) {
    const password = reveal && order.wisePassword !== undefined;
    answer.delivery = { kind: 'account', sealed: !password, email: order.wiseEmail, ...(password && { password: order.wisePassword }) };
  }
  return answer;
}

/**
 * A service as a key with services:read reads it, at the prices of the key's account (`listEntry`, from
 * operations/pricing.ts: what an order of one, or of a tier's quantity, is charged).
 */
export const toApiService = (row: ServiceRow, listEntry: { price: string; tiers: { minQuantity: number; unitPrice: string }[] }): ApiService => ({
  id: row.id,
  title: row.title,
  description: row.description,
  category: row.category,
  price: listEntry.price,
  listPrice: row.price,
  tiers: listEntry.tiers,
  deliveryTime: row.delivery_time,
  paymentMethods: row.payment_methods,
  needsDetails: row.needs_details,
  ...(row.details_hint ? { detailsHint: row.details_hint } : {}),
});
