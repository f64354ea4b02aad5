import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { cancelOrder, placeOrder, sendPaymentProof } from './mutations.ts';
import { createService, device, orderOnServer, syncTestBench } from '../test/sync-bench.ts';

const { bench, track } = syncTestBench();
let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  ({ api, admin } = bench);
  moderator = await api.createUser('moderator');
});

/** Bytes that start like a PNG. */
const png = () => {
  const bytes = new Uint8Array(128);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { bytes: bytes.buffer, type: 'image/png' };
};

const staffView = async (id: string) => (await api.call<Order>('GET', `/api/admin/orders/${id}`, { user: moderator })).body;

describe('the customer side of an order through the outbox (issue 17)', () => {
  it('places an order with its note and payment method', async () => {
    const service = await createService(api, admin, 'Editable invoice');
    const customer = await api.createUser('user');
    const { engine, db } = track(device(api, customer));
    await engine.syncNow();
    const id = crypto.randomUUID();
    const handle = placeOrder(customer.id, { id, productId: service.id, note: 'Company: ACME', paymentMethod: service.paymentMethods[0] });
    await handle.saved;
    expect(await db!.orders.get(id)).toMatchObject({ note: 'Company: ACME' });
    await engine.syncNow();
    await handle.done;
    expect(await staffView(id)).toMatchObject({ note: 'Company: ACME', paymentMethod: service.paymentMethods[0] ?? undefined });
  });

  it('sends a transaction id and a screenshot kept on the device until the push, and staff then see both', async () => {
    const service = await createService(api, admin, 'VPS small');
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, service);
    const { engine, db } = track(device(api, customer));
    await engine.syncNow();
    const handle = sendPaymentProof(customer.id, { orderId: order.id, transactionId: 'TX-OUTBOX-1', screenshot: png() });
    await handle.saved;
    expect((await db!.orders.get(order.id))?.paymentProof?.transactionId).toBe('TX-OUTBOX-1');
    expect(await db!.outbox.count()).toBe(1);
    await engine.syncNow();
    await handle.done;
    const seen = await staffView(order.id);
    expect(seen.paymentProof?.transactionId).toBe('TX-OUTBOX-1');
    expect(seen.paymentProof?.screenshotUrl).toMatch(/^\/files\/order-proofs\/payments\//);
    expect((await db!.orders.get(order.id))?.paymentProof?.screenshotUrl).toBeTruthy();
  });

  it('cancels a pending order; a cancel the server refuses (the order was paid meanwhile) fails with its reason and the order shows paid', async () => {
    const service = await createService(api, admin, 'Proxy 24h');
    const customer = await api.createUser('user');
    const [open, paidMeanwhile] = [await orderOnServer(api, customer, service), await orderOnServer(api, customer, service)];
    const { engine, db } = track(device(api, customer));
    await engine.syncNow();

    const cancelled = cancelOrder(customer.id, { orderId: open.id });
    await cancelled.saved;
    expect((await db!.orders.get(open.id))?.orderStatus).toBe('cancelled');
    await engine.syncNow();
    await cancelled.done;
    expect((await staffView(open.id)).orderStatus).toBe('cancelled');

    const refused = cancelOrder(customer.id, { orderId: paidMeanwhile.id });
    await refused.saved;
    expect((await api.call('PUT', `/api/admin/orders/${paidMeanwhile.id}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    await engine.syncNow();
    const failure = await refused.done.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already been marked paid/) });
    expect(await db!.orders.get(paidMeanwhile.id)).toMatchObject({ orderStatus: 'pending', paymentStatus: 'paid' });
  });
});
