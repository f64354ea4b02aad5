import { describe, expect, it } from 'vitest';
import { describeChange, isOrderChange } from './outbox-change.ts';

const orderId = '11111111-2222-4333-8444-5555abcd1234';

describe('refused changes as the admin reads them', () => {
  it('names the order by its last 8 characters and says what was asked', () => {
    expect(describeChange({ name: 'setOrderStatus', args: { orderId, orderStatus: 'processing', version: 3 } })).toBe(
      'Set order #abcd1234 status to processing',
    );
    expect(describeChange({ name: 'setPaymentStatus', args: { orderId, paymentStatus: 'refunded', version: 3 } })).toBe(
      'Set order #abcd1234 payment to refunded',
    );
    expect(describeChange({ name: 'deliverOrder', args: { orderId, version: 3, stockId: 's' } })).toBe('Deliver order #abcd1234 from stock');
    expect(describeChange({ name: 'deliverOrder', args: { orderId, version: 3, wiseEmail: 'w@x.test', wisePassword: 'secret' } })).toBe(
      'Deliver order #abcd1234 with w@x.test',
    );
  });

  it('never shows a delivered password', () => {
    expect(describeChange({ name: 'deliverOrder', args: { orderId, version: 1, wiseEmail: 'w@x.test', wisePassword: 'Hunter#2' } })).not.toContain('Hunter');
  });

  it('lists only order changes on the order screen', () => {
    expect(isOrderChange({ name: 'setOrderStatus' })).toBe(true);
    expect(isOrderChange({ name: 'deliverOrder' })).toBe(true);
    expect(isOrderChange({ name: 'setStockStatus' })).toBe(false);
    expect(isOrderChange({ name: 'placeOrder' })).toBe(false);
  });
});
