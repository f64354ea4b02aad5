import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../edge-api/src/contract/audit.ts';
import { describeAuditEntry } from './audit-log.ts';

const entry = (action: string, details: Record<string, unknown> = {}): AuditEntry => ({
  id: '1',
  actorId: 'a',
  actorEmail: 'admin@demo.test',
  action,
  entity: 'order',
  entityId: 'o',
  details,
  createdAt: '2026-11-21T10:00:00Z',
});

describe('order history lines', () => {
  it('says when the customer cancelled, and what proof they sent, flagging a reused one', () => {
    expect(describeAuditEntry(entry('order.cancel', { by: 'customer' }))).toBe('The customer cancelled the order');
    expect(describeAuditEntry(entry('order.payment_proof', { transactionId: 'TX1', screenshot: true, reusedOn: ['o2'] }))).toBe(
      'Sent a payment proof: transaction ID TX1 and a screenshot (already used on 1 other order)',
    );
    expect(describeAuditEntry(entry('order.payment_proof', { transactionId: null, screenshot: true, reusedOn: [] }))).toBe(
      'Sent a payment proof: a screenshot',
    );
  });

  it('says when the customer first viewed the delivered password, and on which device', () => {
    const line = describeAuditEntry(entry('order.first_view', { revealedAt: '2026-11-24T01:02:00.000Z', deviceLabel: 'Chrome on Android', deviceId: 'd1' }));
    expect(line).toMatch(/^The customer first viewed the password on Nov 24, 2026, .+ \(Chrome on Android\)$/);
  });

  it('says what a status change did', () => {
    expect(
      describeAuditEntry(
        entry('order.update', { from: { paymentStatus: 'pending', orderStatus: 'pending' }, to: { paymentStatus: 'pending', orderStatus: 'processing' } }),
      ),
    ).toBe('Changed order status pending → processing');
  });

  it('says how an order was delivered, never with a password', () => {
    const line = describeAuditEntry(
      entry('order.deliver', {
        from: { paymentStatus: 'pending', orderStatus: 'pending' },
        to: { paymentStatus: 'paid', orderStatus: 'delivered' },
        delivered: 'typed',
        wiseEmail: 'w@x.test',
        proofImage: true,
      }),
    );
    expect(line).toBe('Delivered typed credentials (w@x.test), with proof image; order status pending → delivered, payment status pending → paid');
    expect(describeAuditEntry(entry('order.deliver', { delivered: 'stock' }))).toBe('Delivered from stock');
  });

  it('names placement and deletion', () => {
    expect(describeAuditEntry(entry('order.create'))).toBe('Placed the order');
    expect(describeAuditEntry(entry('order.delete'))).toBe('Deleted the order');
  });
});
