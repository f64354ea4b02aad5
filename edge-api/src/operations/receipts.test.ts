import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../db/schema.ts';
import { receiptsFor } from './receipts.ts';

// Issue 26, item 5: a receipt when an order is paid and when it is delivered, linking to the order and
// never carrying a credential.

const order = (changes: Partial<OrderRow>): OrderRow =>
  ({
    id: '00000000-0000-4000-8000-0000abcd1234',
    title: 'Wise Instant',
    price: '$30 USD',
    user_email: 'ana@example.test',
    user_name: 'Ana',
    payment_status: 'pending',
    order_status: 'pending',
    wise_email: null,
    wise_password_enc: 'v1.sealed',
    delivery_kind: null,
    ...changes,
  }) as OrderRow;

describe('receipts', () => {
  it('says paid and delivered in two messages when both happen at once, each linking to the order', () => {
    const mails = receiptsFor(order({}), order({ payment_status: 'paid', order_status: 'delivered', wise_email: 'acct@wise.test' }), 'https://shop.example/');
    expect(mails.map((mail) => mail.subject)).toEqual(['Payment received for order #abcd1234 (Wise Instant)', 'Order #abcd1234 (Wise Instant) is delivered']);
    for (const mail of mails) {
      expect(mail.to).toBe('ana@example.test');
      expect(mail.link).toBe('https://shop.example/my-orders#order-00000000-0000-4000-8000-0000abcd1234');
      expect(mail.text).toContain(mail.link);
      expect(mail.text).not.toContain('acct@wise.test');
      expect(mail.text).not.toContain('v1.sealed');
    }
  });

  it('sends nothing for a change that neither pays nor delivers, and nothing twice', () => {
    expect(receiptsFor(order({}), order({ order_status: 'processing' }), 'https://shop.example')).toEqual([]);
    const paid = order({ payment_status: 'paid' });
    expect(receiptsFor(paid, paid, 'https://shop.example')).toEqual([]);
  });
});
