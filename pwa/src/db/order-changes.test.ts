import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownedFields } from '../../../edge-api/src/contract/order-changes.ts';
import { acceptsPaymentProof, isCancellable, orderStatuses, paymentStatuses, reportReasons, type Order } from '../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import {
  cancelOrder,
  declineReport,
  deliverOrder,
  logReveal,
  reportProblem,
  sendPaymentProof,
  setOrderStatus,
  setPaymentStatus,
  type MutationHandle,
} from './mutations.ts';
import { device, orderOnServer, serviceBody, syncTestBench } from '../test/sync-bench.ts';

// Decision 249: for random orders and random valid changes, the order the device shows at once (its
// mutator's optimistic effect) is the order the real server answers once it took the change, on every
// field the module owns. Each run is one order taken through a random series of changes by a staff
// device and the customer's device, over the real API and Postgres: a few dozen runs keep it fast.

const { bench, track } = syncTestBench();
let api: ApiHarness;
let moderator: TestUser;
let service: Service;
beforeAll(async () => {
  api = bench.api;
  moderator = await api.createUser('moderator');
  const created = await api.call<Service>('POST', '/api/services', { user: bench.admin, json: { ...serviceBody('Wise shaped'), warrantyDays: 30 } });
  expect(created.status).toBe(201);
  service = created.body;
});

type Step =
  | { kind: 'setOrderStatus'; orderStatus: Order['orderStatus'] }
  | { kind: 'setPaymentStatus'; paymentStatus: Order['paymentStatus'] }
  | { kind: 'deliver' }
  | { kind: 'cancel' }
  | { kind: 'sendPaymentProof'; transactionId: string }
  | { kind: 'reportProblem'; reason: (typeof reportReasons)[number]; note: string }
  | { kind: 'declineReport'; message: string }
  | { kind: 'logReveal'; agoMs: number; deviceLabel: string };

const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('setOrderStatus' as const), orderStatus: fc.constantFrom(...orderStatuses) }),
  fc.record({ kind: fc.constant('setPaymentStatus' as const), paymentStatus: fc.constantFrom(...paymentStatuses) }),
  fc.constant({ kind: 'deliver' as const }),
  fc.constant({ kind: 'cancel' as const }),
  fc.record({ kind: fc.constant('sendPaymentProof' as const), transactionId: word }),
  fc.record({ kind: fc.constant('reportProblem' as const), reason: fc.constantFrom(...reportReasons), note: word }),
  fc.record({ kind: fc.constant('declineReport' as const), message: word }),
  fc.record({ kind: fc.constant('logReveal' as const), agoMs: fc.integer({ min: 1, max: 3_600_000 }), deviceLabel: word }),
);

const byStaff = new Set<Step['kind']>(['setOrderStatus', 'setPaymentStatus', 'deliver', 'declineReport']);

/** Cancelled by its customer: the server marks it neither paid nor delivered behind their back. */
const cancelledByCustomer = (order: Order) => !!order.cancelledAt && order.orderStatus === 'cancelled';
const delivered = (order: Order) =>
  !!order.wiseEmail && order.paymentStatus === 'paid' && (order.orderStatus === 'delivered' || order.orderStatus === 'completed');

/** Whether the server takes `step` on `order` as the acting device holds it (the rules of each route). */
function takes(order: Order, step: Step): boolean {
  switch (step.kind) {
    case 'setOrderStatus':
      return true;
    case 'setPaymentStatus':
      return !(step.paymentStatus === 'paid' && cancelledByCustomer(order));
    case 'deliver':
      return !cancelledByCustomer(order);
    case 'cancel':
      return isCancellable(order);
    case 'sendPaymentProof':
      return acceptsPaymentProof(order);
    case 'reportProblem':
      return delivered(order) && order.report?.status !== 'open' && !!order.warrantyEndsAt && Date.parse(order.warrantyEndsAt) > Date.now();
    case 'declineReport':
      return order.report?.status === 'open';
    case 'logReveal':
      return delivered(order);
  }
}

/** The change queued on the acting device, as its screen would queue it. */
function queue(userId: string, order: Order, step: Step): MutationHandle {
  const orderId = order.id;
  switch (step.kind) {
    case 'setOrderStatus':
      return setOrderStatus(userId, { orderId, orderStatus: step.orderStatus, version: order.version, from: order.orderStatus });
    case 'setPaymentStatus':
      return setPaymentStatus(userId, { orderId, paymentStatus: step.paymentStatus, version: order.version, from: order.paymentStatus });
    case 'deliver': {
      const typed = { wiseEmail: `shape-${crypto.randomUUID().slice(0, 8)}@wise.test`, wisePassword: `Shape-${crypto.randomUUID().slice(0, 8)}` };
      return deliverOrder(userId, { orderId, version: order.version, ...typed, ...(order.wiseEmail ? { replace: true as const } : {}) });
    }
    case 'cancel':
      return cancelOrder(userId, { orderId });
    case 'sendPaymentProof':
      return sendPaymentProof(userId, { orderId, transactionId: step.transactionId });
    case 'reportProblem':
      return reportProblem(userId, { orderId, reason: step.reason, note: step.note });
    case 'declineReport':
      return declineReport(userId, { orderId, message: step.message });
    case 'logReveal':
      return logReveal(userId, { orderId, deviceId: 'phone-1', deviceLabel: step.deviceLabel, revealedAt: new Date(Date.now() - step.agoMs).toISOString() });
  }
}

/** The owned fields, with each time taken during the change (from `since` to `until`) named as such: the two clocks differ by milliseconds. */
function shape(order: Order, since: number, until: number) {
  const owned = ownedFields(order);
  const stamp = (at: string | undefined) => {
    if (at === undefined) return undefined;
    const ms = Date.parse(at);
    return ms >= since && ms <= until ? 'during the change' : at;
  };
  return JSON.parse(
    JSON.stringify({
      ...owned,
      cancelledAt: stamp(owned.cancelledAt),
      paymentProof: owned.paymentProof && { ...owned.paymentProof, sentAt: stamp(owned.paymentProof.sentAt) },
      report: owned.report && { ...owned.report, reportedAt: stamp(owned.report.reportedAt), resolvedAt: stamp(owned.report.resolvedAt) },
      views: owned.views && { ...owned.views, firstAt: stamp(owned.views.firstAt) },
    }),
  ) as unknown;
}

/** Series of valid changes that reach every kind, a replaced report and a cancelled order among them. */
const coveringSeries: [Step[]][] = [
  [
    [
      { kind: 'deliver' },
      { kind: 'logReveal', agoMs: 1000, deviceLabel: 'Phone' },
      { kind: 'reportProblem', reason: 'locked', note: 'Locked' },
      { kind: 'declineReport', message: 'Works here' },
      { kind: 'reportProblem', reason: 'other', note: 'Still' },
      { kind: 'deliver' },
      { kind: 'logReveal', agoMs: 10, deviceLabel: 'Laptop' },
    ],
  ],
  [
    [
      { kind: 'sendPaymentProof', transactionId: 'TX1' },
      { kind: 'setOrderStatus', orderStatus: 'processing' },
      { kind: 'setOrderStatus', orderStatus: 'pending' },
      { kind: 'cancel' },
      { kind: 'setPaymentStatus', paymentStatus: 'paid' },
      { kind: 'setPaymentStatus', paymentStatus: 'failed' },
    ],
  ],
  // A delivery staff set back to pending and unpaid: its credentials are hidden from the customer, yet it
  // can no longer be cancelled (a shrunk counterexample of seed 541479084 before deliveredAt was counted).
  [
    [
      { kind: 'deliver' },
      { kind: 'setPaymentStatus', paymentStatus: 'pending' },
      { kind: 'setOrderStatus', orderStatus: 'pending' },
      { kind: 'cancel' },
      { kind: 'deliver' },
    ],
  ],
];

describe("the device's optimistic order and the server's answer (decision 249)", () => {
  it('agree on every field the module owns, over random series of valid changes by staff and the customer', { timeout: 600_000 }, async () => {
    const shop = track(device(api, moderator));
    let taken = 0;
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 3, maxLength: 8 }), async (steps) => {
        const customer = await api.createUser('user');
        const placed = await orderOnServer(api, customer, service);
        const phone = track(device(api, customer));
        try {
          for (const step of steps) {
            const [actor, userId] = byStaff.has(step.kind) ? [shop, moderator.id] : [phone, customer.id];
            await actor.engine.syncNow();
            const before = await actor.db!.orders.get(placed.id);
            expect(before).toBeDefined();
            if (!takes(before!, step)) continue;
            const since = Date.now();
            const handle = queue(userId, before!, step);
            await handle.saved;
            const optimistic = (await actor.db!.orders.get(placed.id))!;
            const shown = Date.now();
            await actor.engine.syncNow();
            await handle.done;
            const answer = (await api.call<Order>('GET', `/api/admin/orders/${placed.id}`, { user: moderator })).body;
            const answered = Date.now();
            expect(shape(optimistic, since, shown), `${step.kind} on ${JSON.stringify(ownedFields(before!))}`).toEqual(shape(answer, since, answered));
            taken++;
            kinds.add(step.kind);
          }
        } finally {
          phone.engine.stop();
        }
      }),
      // Series that reach every kind of change whatever the seed, then 30 random ones.
      { numRuns: 30, examples: coveringSeries },
    );
    // The runs exercised the changes, not only the refusals.
    expect(taken).toBeGreaterThan(30);
    expect([...kinds].sort()).toEqual([
      'cancel',
      'declineReport',
      'deliver',
      'logReveal',
      'reportProblem',
      'sendPaymentProof',
      'setOrderStatus',
      'setPaymentStatus',
    ]);
  });
});
