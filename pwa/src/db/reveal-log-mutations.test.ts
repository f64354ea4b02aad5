import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { logReveal } from './mutations.ts';
import { createService, device, orderOnServer, syncTestBench } from '../test/sync-bench.ts';

// Issue 17, item 6 (decision 066): a reveal made on the device goes through the outbox like every change.

const { bench, track } = syncTestBench();
let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  ({ api, admin } = bench);
  moderator = await api.createUser('moderator');
});

const staffView = async (id: string) => (await api.call<Order>('GET', `/api/admin/orders/${id}`, { user: moderator })).body;

describe('a reveal through the outbox', () => {
  it('counts on the device at once, is sent later, and a push whose answer was lost is logged once', async () => {
    const service = await createService(api, admin, 'Wise revealed');
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, service);
    const delivered = await api.call('PUT', `/api/admin/orders/${order.id}`, {
      user: moderator,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'shown@wise.test', wisePassword: 'Shown-Pass-1' },
    });
    expect(delivered.status).toBe(200);
    const { engine, db, failNext } = track(device(api, customer));
    await engine.syncNow();

    const revealedAt = new Date().toISOString();
    const handle = logReveal(customer.id, { orderId: order.id, deviceId: 'phone-1', deviceLabel: 'Chrome on Android', revealedAt });
    await handle.saved;
    expect((await db!.orders.get(order.id))?.views).toEqual({ count: 1, firstAt: revealedAt, firstDevice: 'Chrome on Android' });
    expect(await db!.outbox.count()).toBe(1);

    failNext(1, 'lost-answer', (method, path) => method === 'POST' && path.endsWith('/reveals'));
    await expect(engine.syncNow()).rejects.toThrow();
    await engine.syncNow();
    await handle.done;

    expect(await db!.outbox.count()).toBe(0);
    const local = await db!.orders.get(order.id);
    expect(local?.views).toEqual({ count: 1, firstAt: revealedAt, firstDevice: 'Chrome on Android' });
    expect(local?.wisePassword).toBe('Shown-Pass-1');
    expect((await staffView(order.id)).views).toEqual({ count: 1, firstAt: revealedAt, firstDevice: 'Chrome on Android' });
    const rows = await api.db.selectFrom('credential_reveals').selectAll().where('order_id', '=', order.id).execute();
    expect(rows).toHaveLength(1);
  });
});
