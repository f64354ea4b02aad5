/**
 * The orders staff must act on (decision 130): one rule for the bell's counts, the
 * admin list's "attention" filter on the device and the same filter in the API's query (order-search.ts),
 * so a bell link opens exactly the orders it counts.
 */
import type { Order } from './orders.ts';

export const orderAttentions = ['delivery', 'payment-check'] as const;
export type OrderAttention = (typeof orderAttentions)[number];
export const isOrderAttention = (value: unknown): value is OrderAttention => (orderAttentions as readonly unknown[]).includes(value);

export const orderAttentionLabels: Record<OrderAttention, string> = {
  delivery: 'Awaiting delivery',
  'payment-check': 'Payment proof to check',
};

/** Still open for staff: neither delivered, completed nor cancelled. */
const openStatuses: readonly string[] = ['pending', 'processing'];

export type AttentionFields = Pick<Order, 'orderStatus' | 'paymentStatus' | 'wiseEmail' | 'paymentProof'>;

/** Paid, open and nothing delivered yet. */
export const awaitsDelivery = (order: AttentionFields) => openStatuses.includes(order.orderStatus) && order.paymentStatus === 'paid' && !order.wiseEmail;

/** Open, unpaid, and the customer sent a payment proof: what a payment-check notice is about. */
export const awaitsPaymentCheck = (order: AttentionFields) =>
  openStatuses.includes(order.orderStatus) && order.paymentStatus === 'pending' && order.paymentProof !== undefined;

export function needsAttention(order: AttentionFields, attention: OrderAttention): boolean {
  return attention === 'delivery' ? awaitsDelivery(order) : awaitsPaymentCheck(order);
}

/** The same rules as SQL over the orders table (column names of db/schema.ts). */
export const attentionSql: Record<OrderAttention, string> = {
  delivery: "order_status in ('pending', 'processing') and payment_status = 'paid' and coalesce(wise_email, '') = ''",
  'payment-check': "order_status in ('pending', 'processing') and payment_status = 'pending' and proof_at is not null",
};
