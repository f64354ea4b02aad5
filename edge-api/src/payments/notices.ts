import type { Transaction } from 'kysely';
import { notifyStaff, resolveNotification } from '../db/notifications.ts';
import { queuePush } from '../db/push.ts';
import type { Database, OrderRow } from '../db/schema.ts';

const orderLabel = (order: OrderRow) => `Order #${order.id.slice(-8)} (${order.title}) by ${order.user_name || order.user_email}`;

/** One open notice per order about money staff must decide on (decision 202). */
export const paymentProblemKey = (orderId: string) => `payment_problem:${orderId}`;

/**
 * Money arrived that was not accepted on its own (too little, too much, too late, twice, or matching no
 * order): staff are told in the bell and by push, in the event's transaction, and decide.
 */
export async function notifyPaymentProblem(
  trx: Transaction<Database>,
  version: number,
  order: OrderRow | undefined,
  title: string,
  body: string,
): Promise<void> {
  const notice = {
    kind: 'payment_problem' as const,
    title,
    body: order ? `${orderLabel(order)}: ${body}` : body,
    orderId: order?.id ?? null,
    ...(order && { dedupeKey: paymentProblemKey(order.id) }),
  };
  if (await notifyStaff(trx, version, notice)) {
    await queuePush(trx, 'staff', { title, body: notice.body, url: '/dashboard/notifications', tag: `staff-payment-${order?.id ?? 'unmatched'}` });
  }
}

/** The rail reported a refund or reversal: staff are told, and told to withdraw a delivery already made. */
export async function notifyRefund(trx: Transaction<Database>, version: number, order: OrderRow, wasDelivered: boolean): Promise<void> {
  const body = wasDelivered
    ? `${orderLabel(order)} was refunded after it was delivered: withdraw or change the delivered credentials.`
    : `${orderLabel(order)} was refunded by the payment rail.`;
  const title = wasDelivered ? 'Delivered order refunded' : 'Order refunded';
  if (await notifyStaff(trx, version, { kind: 'refund', title, body, orderId: order.id, dedupeKey: `refund:${order.id}` })) {
    await queuePush(trx, 'staff', { title, body, url: '/dashboard/notifications', tag: `staff-refund-${order.id}` });
  }
}

export const resolvePaymentProblem = (trx: Transaction<Database>, version: number, orderId: string) =>
  resolveNotification(trx, version, paymentProblemKey(orderId));
