import type { Transaction } from 'kysely';
import { notifyStaff } from '../db/notifications.ts';
import { queuePush } from '../db/push.ts';
import type { Database, OrderRow } from '../db/schema.ts';

const orderLabel = (order: OrderRow) => `Order #${order.id.slice(-8)} (${order.title}) by ${order.user_name || order.user_email}`;

/** The push message of a staff notice: the bell's title and text; a click opens the notifications page. */
const staffPush = (notice: { title: string; body: string; orderId: string }) => ({
  title: notice.title,
  body: notice.body,
  url: '/dashboard/notifications',
  tag: `staff-${notice.orderId}`,
});

/** A customer placed an order: staff are told, in the order's transaction (decision 062). */
export async function notifyNewOrder(trx: Transaction<Database>, version: number, order: OrderRow) {
  const notice = { kind: 'new_order', title: 'New order', body: `${orderLabel(order)}, $${order.price}.`, orderId: order.id } as const;
  const written = await notifyStaff(trx, version, notice);
  // Staff who allowed notifications get it on their devices too, once the order commits (decision 067).
  if (written) await queuePush(trx, 'staff', staffPush(notice));
  return written;
}

/**
 * A payment waits for staff to check it (for the payment proof of issue 17): one open notification per
 * order until resolved with `resolveNotification(trx, version, paymentCheckKey(orderId))`.
 */
export const paymentCheckKey = (orderId: string) => `payment_check:${orderId}`;
export async function notifyPaymentCheck(trx: Transaction<Database>, version: number, order: OrderRow) {
  const notice = {
    kind: 'payment_check',
    title: 'Payment to check',
    body: `${orderLabel(order)} waits for a payment check.`,
    orderId: order.id,
    dedupeKey: paymentCheckKey(order.id),
  } as const;
  const written = await notifyStaff(trx, version, notice);
  if (written) await queuePush(trx, 'staff', staffPush(notice));
  return written;
}

/**
 * A customer reported a problem with a delivered order (issue 16, item 8): one open notification per
 * order until staff replace the delivery or decline the report.
 */
export const problemReportKey = (orderId: string) => `problem_report:${orderId}`;
export function notifyProblemReport(trx: Transaction<Database>, version: number, order: OrderRow, reason: string) {
  return notifyStaff(trx, version, {
    kind: 'problem_report',
    title: 'Problem reported',
    body: `${orderLabel(order)}: ${reason}`,
    orderId: order.id,
    dedupeKey: problemReportKey(order.id),
  });
}
