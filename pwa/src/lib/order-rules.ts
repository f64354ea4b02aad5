/** The storefront's display rules for orders and services (spec sections 2, 4 and 9), as pure functions. */
import { dateFormat, shortId } from './format.ts';

/** Ids are shown by their last characters: 8 on order cards, 12 on the service details screen. */
export const shortOrderId = (id: string) => shortId(id, 8);
export const shortServiceId = (id: string) => shortId(id, 12);

export type OrderStatusKey = 'pending' | 'processing' | 'completed' | 'delivered' | 'cancelled';
export type PaymentStatusKey = 'pending' | 'paid' | 'failed' | 'refunded';

const orderStatusLabels: Record<OrderStatusKey, string> = {
  pending: 'Awaiting Processing',
  processing: 'In Progress',
  completed: 'Completed',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

const paymentStatusLabels: Record<PaymentStatusKey, string> = {
  pending: 'Payment Pending',
  paid: 'Paid',
  failed: 'Payment Failed',
  refunded: 'Refunded',
};

/** The spec: unknown order statuses display as pending. */
export function normalizeOrderStatus(status: string | null | undefined): OrderStatusKey {
  return status && Object.hasOwn(orderStatusLabels, status) ? (status as OrderStatusKey) : 'pending';
}

export function normalizePaymentStatus(status: string | null | undefined): PaymentStatusKey {
  return status && Object.hasOwn(paymentStatusLabels, status) ? (status as PaymentStatusKey) : 'pending';
}

export const orderStatusLabel = (status: string | null | undefined) => orderStatusLabels[normalizeOrderStatus(status)];
export const paymentStatusLabel = (status: string | null | undefined) => paymentStatusLabels[normalizePaymentStatus(status)];

export type ExpectedDelivery = { kind: 'immediate' } | { kind: 'unknown' } | { kind: 'at'; date: Date };

const HOUR_MS = 3_600_000;

/**
 * When an order should arrive (spec: My Orders): 'instant' is immediate; a text mentioning hours adds its
 * leading number of hours (1 when it has none), days add 24 hours each; anything else adds nothing.
 */
export function expectedDelivery(orderDate: string | null | undefined, deliveryTime: string | null | undefined): ExpectedDelivery {
  if (!orderDate || !deliveryTime) return { kind: 'unknown' };
  const start = new Date(orderDate);
  if (Number.isNaN(start.getTime())) return { kind: 'unknown' };
  const text = deliveryTime.toLowerCase();
  if (text.includes('instant')) return { kind: 'immediate' };
  const leading = Number.parseInt(text.trim(), 10);
  const count = Number.isNaN(leading) ? 1 : leading;
  let hours = 0;
  if (text.includes('hour')) hours = count;
  else if (text.includes('day')) hours = count * 24;
  return { kind: 'at', date: new Date(start.getTime() + hours * HOUR_MS) };
}

export function formatExpectedDelivery(expected: ExpectedDelivery, locale = 'en-US'): string {
  if (expected.kind === 'immediate') return 'Immediate';
  if (expected.kind === 'unknown') return 'Not specified';
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(expected.date);
}

/**
 * The provider chat link with a message filled in (wa.me and t.me style links read `text`). A link that
 * does not parse is returned as it is, so the button still opens something.
 */
export function chatLinkWithMessage(chatUrl: string, message: string): string {
  let url: URL;
  try {
    url = new URL(chatUrl);
  } catch {
    return chatUrl;
  }
  const params = new URLSearchParams(url.search);
  params.set('text', message);
  url.search = params.toString();
  return url.toString();
}

/** The message a customer sends the provider to pay for an order. */
export function paymentMessage(order: { id: string; title: string; price: string }): string {
  return `Hello, I want to complete payment for order #${shortOrderId(order.id)} (${order.id}): ${order.title}, amount $${order.price} USD.`;
}
