import type { Transaction } from 'kysely';
import { notifyStaff } from '../db/notifications.ts';
import type { Database, OrderRow } from '../db/schema.ts';

const orderLabel = (order: OrderRow) => `Order #${order.id.slice(-8)} (${order.title}) by ${order.user_name || order.user_email}`;

/** A customer placed an order: staff are told, in the order's transaction (decision 062). */
export function notifyNewOrder(trx: Transaction<Database>, version: number, order: OrderRow) {
  return notifyStaff(trx, version, { kind: 'new_order', title: 'New order', body: `${orderLabel(order)}, ${order.price}.`, orderId: order.id });
}

/**
 * A payment waits for staff to check it (for the payment proof of issue 17): one open notification per
 * order until resolved with `resolveNotification(trx, version, paymentCheckKey(orderId))`.
 */
export const paymentCheckKey = (orderId: string) => `payment_check:${orderId}`;
export function notifyPaymentCheck(trx: Transaction<Database>, version: number, order: OrderRow) {
  return notifyStaff(trx, version, {
    kind: 'payment_check',
    title: 'Payment to check',
    body: `${orderLabel(order)} waits for a payment check.`,
    orderId: order.id,
    dedupeKey: paymentCheckKey(order.id),
  });
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
