import { describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { filtersFromSearchParams, pageOfOrders } from '../features/admin-orders/order-filters.ts';
import { attentionItems } from './dashboard-attention.ts';

const proof = { transactionId: 'tx', sentAt: '2026-11-20T10:00:00.000Z' };

let next = 0;
function order(orderStatus: string, paymentStatus: string, extra: Partial<Order> = {}): Order {
  next += 1;
  return {
    id: `order-${String(next).padStart(4, '0')}`,
    title: 'VPS Basic',
    userEmail: 'buyer@example.com',
    userName: 'Buyer',
    createdAt: `2026-11-${String(10 + (next % 15)).padStart(2, '0')}T10:00:00.000Z`,
    orderStatus,
    paymentStatus,
    ...extra,
  } as Order;
}

/** A tablet's day: open and closed orders, paid and unpaid, with and without proof or credentials. */
const mixed = [
  order('pending', 'pending', { paymentProof: proof }),
  order('processing', 'pending', { paymentProof: proof }),
  order('pending', 'pending'),
  order('cancelled', 'pending', { paymentProof: proof }),
  order('pending', 'failed', { paymentProof: proof }),
  order('pending', 'paid'),
  order('processing', 'paid'),
  order('processing', 'paid', { wiseEmail: 'sold@wise.test' }),
  order('delivered', 'paid', { wiseEmail: 'sold@wise.test' }),
  order('delivered', 'paid', { wiseEmail: 'sold2@wise.test' }),
  order('completed', 'paid'),
  order('cancelled', 'paid'),
  order('pending', 'refunded'),
];

describe("the bell's list", () => {
  it('counts open orders whose payment proof waits for a check and paid ones waiting for their credentials', () => {
    const items = attentionItems(mixed, 2);
    expect(Object.fromEntries(items.map((item) => [item.id, item.count]))).toEqual({ 'payment-checks': 2, deliveries: 2, 'refused-changes': 2 });
  });

  it('links each count to an order list showing exactly the orders it counts', () => {
    const items = attentionItems(mixed, 0).filter((item) => item.id !== 'refused-changes');
    for (const item of items) {
      const url = new URL(item.to, 'https://shop.test');
      expect(url.pathname).toBe('/dashboard');
      const filters = { ...filtersFromSearchParams(url.searchParams), limit: 100 };
      const listed = pageOfOrders(mixed, filters);
      expect(listed.total, item.text).toBe(item.count);
    }
    const delivery = pageOfOrders(mixed, { ...filtersFromSearchParams(new URLSearchParams('attention=delivery')), limit: 100 });
    expect(delivery.orders.map((o) => [o.orderStatus, o.paymentStatus, o.wiseEmail ?? ''])).toEqual(
      expect.arrayContaining([
        ['pending', 'paid', ''],
        ['processing', 'paid', ''],
      ]),
    );
  });

  it('has nothing to count on a quiet day', () => {
    expect(attentionItems([order('delivered', 'paid', { wiseEmail: 'a@b.c' })], 0).every((item) => item.count === 0)).toBe(true);
  });
});
