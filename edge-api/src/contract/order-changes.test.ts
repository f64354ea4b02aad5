import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderBeforeChange, orderChangeColumns } from '../db/orders.ts';
import type { OrderRow } from '../db/schema.ts';
import { orderAfterChange, orderChangeFields, ownedFields, type OrderBeforeChange, type OrderChange } from './order-changes.ts';
import { orderStatuses, paymentStatuses, reportReasons, type Order } from './orders.ts';

// Decision 249: one pure module says what an order looks like after a change. Its properties, over many
// random orders and changes; pwa/src/db/order-changes.test.ts runs the device against the real server.

const START = Date.parse('2026-01-01T00:00:00.000Z');
const time = (from = START, span = 300 * 86_400_000) => fc.integer({ min: from, max: from + span }).map((ms) => new Date(ms));
const iso = (from?: number) => time(from).map((at) => at.toISOString());

const reportArb = fc.record({
  status: fc.constantFrom('open' as const, 'replaced' as const, 'declined' as const),
  reason: fc.constantFrom(...reportReasons),
  note: fc.string({ maxLength: 20 }),
  reportedAt: iso(),
  reply: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
  resolvedAt: fc.option(iso(), { nil: undefined }),
});

/** An order as either side may hold it before a change. */
const orderArb: fc.Arbitrary<OrderBeforeChange & Pick<Order, 'id' | 'title'>> = fc.record(
  {
    id: fc.uuid(),
    title: fc.string({ maxLength: 12 }),
    orderStatus: fc.constantFrom(...orderStatuses),
    paymentStatus: fc.constantFrom(...paymentStatuses),
    paymentProof: fc.record({ transactionId: fc.option(fc.stringMatching(/^[A-Z0-9-]{1,12}$/), { nil: null }), sentAt: iso() }),
    report: reportArb.map(({ reply, resolvedAt, ...rest }) => ({ ...rest, ...(reply ? { reply } : {}), ...(resolvedAt ? { resolvedAt } : {}) })),
    views: fc.record({ count: fc.integer({ min: 1, max: 50 }), firstAt: iso(), firstDevice: fc.string({ minLength: 1, maxLength: 12 }) }),
    deliveredAt: iso(),
    wiseEmail: fc.constantFrom('a@wise.test', 'b@wise.test'),
    deliveryKind: fc.constantFrom('server' as const, 'lines' as const, 'file' as const),
  },
  { requiredKeys: ['id', 'title', 'orderStatus', 'paymentStatus'] },
);

const changeArb: fc.Arbitrary<OrderChange> = fc.oneof(
  fc.record({ kind: fc.constant('setOrderStatus' as const), orderStatus: fc.constantFrom(...orderStatuses) }),
  fc.record({ kind: fc.constant('setPaymentStatus' as const), paymentStatus: fc.constantFrom(...paymentStatuses) }),
  fc.constant({ kind: 'deliver' as const }),
  fc.constant({ kind: 'cancel' as const }),
  fc.record({ kind: fc.constant('sendPaymentProof' as const), transactionId: fc.option(fc.stringMatching(/^[A-Z0-9-]{1,12}$/), { nil: undefined }) }),
  fc.record({ kind: fc.constant('reportProblem' as const), reason: fc.constantFrom(...reportReasons), note: fc.string({ maxLength: 20 }) }),
  fc.record({ kind: fc.constant('declineReport' as const), message: fc.string({ minLength: 1, maxLength: 20 }) }),
  fc.record({ kind: fc.constant('logReveal' as const), revealedAt: iso(START - 86_400_000), deviceLabel: fc.string({ minLength: 1, maxLength: 12 }) }),
);

/** The stored row of an order: the columns the module's fields live in. */
function rowOf(order: OrderBeforeChange): OrderRow {
  const row: Partial<OrderRow> = {
    created_at: new Date(START),
    cancelled_at: null,
    payment_reference: null,
    proof_at: null,
    report_status: null,
    report_reason: null,
    report_note: '',
    reported_at: null,
    report_reply: '',
    report_resolved_at: null,
    reveal_count: 0,
    first_revealed_at: null,
    first_reveal_device: null,
    delivered_at: order.deliveredAt ? new Date(order.deliveredAt) : null,
    wise_email: order.wiseEmail ?? null,
    delivery_kind: order.deliveryKind ?? null,
  };
  return { ...row, ...orderChangeColumns(order) } as OrderRow;
}

/** What the server answers of a row, for the fields the module owns (as presenters/orders.ts reads them). */
const answered = (row: OrderRow) =>
  ownedFields({ ...orderBeforeChange(row), ...(row.cancelled_at ? { cancelledAt: new Date(row.cancelled_at).toISOString() } : {}) });

describe('orderAfterChange (decision 249)', () => {
  it('the device (the order in memory) and the server (the columns it writes, read back) agree on every field the module owns', () => {
    fc.assert(
      fc.property(orderArb, changeArb, time(START + 301 * 86_400_000, 86_400_000), (order, change, now) => {
        const device = orderAfterChange(order, change, { now });
        const row = rowOf(order);
        const written = { ...row, ...orderChangeColumns(orderChangeFields(orderBeforeChange(row), change, { now })) } as OrderRow;
        expect(answered(written)).toEqual(ownedFields(device));
      }),
      { numRuns: 2000 },
    );
  });

  it('changes only the fields it owns, and takes every time from the context', () => {
    fc.assert(
      fc.property(orderArb, changeArb, time(START + 301 * 86_400_000, 86_400_000), (order, change, now) => {
        const after = orderAfterChange(order, change, { now });
        expect(after.id).toBe(order.id);
        expect(after.title).toBe(order.title);
        expect(after.deliveredAt).toBe(order.deliveredAt);
        expect(after.updatedAt).toBe(now.toISOString());
        const set = orderChangeFields(order, change, { now });
        const allowed = ['orderStatus', 'paymentStatus', 'cancelledAt', 'paymentProof', 'report', 'views', 'updatedAt'];
        expect(Object.keys(set).every((key) => allowed.includes(key))).toBe(true);
        if (set.cancelledAt) expect(set.cancelledAt).toBe(now.toISOString());
        if (change.kind === 'sendPaymentProof') expect(set.paymentProof?.sentAt).toBe(now.toISOString());
        if (change.kind === 'reportProblem') expect(set.report?.reportedAt).toBe(now.toISOString());
        if (change.kind === 'declineReport') expect(set.report?.resolvedAt).toBe(now.toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('is a function of its inputs: the same order, change and clock give the same order', () => {
    fc.assert(
      fc.property(orderArb, changeArb, time(), (order, change, now) => {
        expect(orderAfterChange(structuredClone(order), change, { now })).toEqual(orderAfterChange(order, change, { now }));
      }),
      { numRuns: 500 },
    );
  });

  it('a proof keeps the earlier transaction id when it carries none, and its screenshot until the server answers', () => {
    fc.assert(
      fc.property(orderArb, fc.option(fc.stringMatching(/^[A-Z0-9]{1,8}$/), { nil: undefined }), time(), (order, transactionId, now) => {
        const withShot = { ...order, paymentProof: { transactionId: 'EARLIER', sentAt: '2026-01-01T00:00:00.000Z', screenshotUrl: '/files/x' } };
        const proof = orderAfterChange(withShot, { kind: 'sendPaymentProof', transactionId }, { now }).paymentProof;
        expect(proof).toEqual({ transactionId: transactionId ?? 'EARLIER', sentAt: now.toISOString(), screenshotUrl: '/files/x' });
      }),
    );
  });

  it('a logged view counts once more, and the first view is the earliest, never ahead of the clock nor before the delivery', () => {
    fc.assert(
      fc.property(orderArb, iso(START - 86_400_000), fc.string({ minLength: 1 }), time(START + 301 * 86_400_000), (order, revealedAt, deviceLabel, now) => {
        const views = orderAfterChange(order, { kind: 'logReveal', revealedAt, deviceLabel }, { now }).views!;
        expect(views.count).toBe((order.views?.count ?? 0) + 1);
        const first = Date.parse(views.firstAt);
        expect(first).toBeLessThanOrEqual(now.getTime());
        if (order.views) expect(first).toBeLessThanOrEqual(Date.parse(order.views.firstAt));
        if (order.deliveredAt && !order.views) expect(first).toBeGreaterThanOrEqual(Date.parse(order.deliveredAt));
      }),
      { numRuns: 1000 },
    );
  });

  it('a delivery in place of another answers an open report as replaced; a first delivery leaves it', () => {
    fc.assert(
      fc.property(orderArb, time(), (order, now) => {
        const report = orderAfterChange(order, { kind: 'deliver' }, { now }).report;
        const replacing = !!order.wiseEmail || !!order.deliveryKind;
        if (order.report?.status === 'open' && replacing) {
          const { reply: _reply, ...asked } = order.report;
          expect(report).toEqual({ ...asked, status: 'replaced', resolvedAt: now.toISOString() });
        } else expect(report).toEqual(order.report);
      }),
      { numRuns: 1000 },
    );
  });

  it('a declined report keeps what the customer wrote', () => {
    fc.assert(
      fc.property(orderArb, fc.string({ minLength: 1 }), time(), (order, message, now) => {
        fc.pre(order.report !== undefined);
        const report = orderAfterChange(order, { kind: 'declineReport', message }, { now }).report!;
        expect(report).toMatchObject({
          status: 'declined',
          reason: order.report!.reason,
          note: order.report!.note,
          reportedAt: order.report!.reportedAt,
          reply: message,
        });
      }),
    );
  });
});
