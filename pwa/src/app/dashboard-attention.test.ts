import { describe, expect, it } from 'vitest';
import { attentionItems } from './dashboard-attention.ts';

const order = (orderStatus: string, paymentStatus: string, wiseEmail = '') => ({ orderStatus, paymentStatus, wiseEmail }) as never;

describe("the bell's list", () => {
  it('counts open orders waiting for a payment check and paid ones waiting for their credentials', () => {
    const items = attentionItems(
      [
        order('pending', 'pending'),
        order('processing', 'pending'),
        order('cancelled', 'pending'),
        order('pending', 'paid'),
        order('processing', 'paid', 'sold@wise.test'),
        order('delivered', 'paid', 'sold@wise.test'),
        order('completed', 'paid'),
        order('pending', 'refunded'),
        order('shipped?', 'pending'),
      ],
      2,
    );
    expect(Object.fromEntries(items.map((item) => [item.id, item.count]))).toEqual({ 'payment-checks': 3, deliveries: 1, 'refused-changes': 2 });
    expect(items.find((item) => item.id === 'payment-checks')?.to).toBe('/dashboard?paymentStatus=pending');
  });

  it('has nothing to count on a quiet day', () => {
    expect(attentionItems([order('delivered', 'paid', 'a@b.c')], 0).every((item) => item.count === 0)).toBe(true);
  });
});
