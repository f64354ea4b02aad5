import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { AppError } from '../lib/app-error.ts';
import { getPublicDb } from './local-db.ts';
import { deliverOrder, placeOrder, setOrderStatus, setPaymentStatus } from './mutations.ts';
import { createService, device, orderOnServer, serverOrder, syncTestBench } from '../test/sync-bench.ts';

const { bench, track } = syncTestBench();
// Read in the tests, once the bench's beforeAll has run.
let api: ApiHarness;
let admin: TestUser;
beforeAll(() => {
  ({ api, admin } = bench);
});

describe('push', () => {
  it('keeps a queued order through three failed pushes and places it exactly once', async () => {
    const service = await createService(api, admin, 'Wise premium');
    const customer = await api.createUser('user');
    const { engine, db, failNext } = track(device(api, customer));
    await engine.syncNow();

    const orderId = crypto.randomUUID();
    const handle = placeOrder(customer.id, { id: orderId, productId: service.id });
    await handle.saved;
    expect((await db!.orders.get(orderId))?.title).toBe('Wise premium');
    let confirmed = false;
    void handle.done.then(() => (confirmed = true));

    const isPlacement = (method: string, path: string) => method === 'POST' && path === '/api/orders';
    failNext(1, 'network', isPlacement);
    failNext(1, 'server-error', isPlacement);
    failNext(1, 'lost-answer', isPlacement); // the server placed it; the device never heard
    for (let attempt = 1; attempt <= 3; attempt++) {
      await expect(engine.syncNow()).rejects.toThrow();
      const entry = await db!.outbox.get(orderId);
      expect(entry).toMatchObject({ status: 'pending', attempts: attempt });
      expect(await db!.orders.get(orderId)).toBeDefined();
    }
    expect(confirmed).toBe(false);

    await engine.syncNow();
    await handle.done;
    expect(await db!.outbox.count()).toBe(0);
    expect(await serverOrder(api, orderId)).toHaveLength(1);
    const local = await db!.orders.get(orderId);
    expect(local?.version).toBeGreaterThan(0);
    expect(local?.userEmail).toBe(customer.email);
  });

  it('fails an order the customer waits on at once when the server errs, undone and never placed', async () => {
    const service = await createService(api, admin, 'Wise instant');
    const customer = await api.createUser('user');
    const { engine, db, failNext } = track(device(api, customer));
    await engine.syncNow();

    const orderId = crypto.randomUUID();
    const handle = placeOrder(customer.id, { id: orderId, productId: service.id }, { answerNow: true });
    await handle.saved;
    failNext(1, 'server-error', (method, path) => method === 'POST' && path === '/api/orders');
    await engine.syncNow();

    await expect(handle.done).rejects.toMatchObject({ status: 503 });
    expect(await db!.outbox.get(orderId)).toMatchObject({ status: 'failed' });
    expect(await db!.orders.get(orderId)).toBeUndefined();
    expect(await serverOrder(api, orderId)).toHaveLength(0);
  });

  it('marks a refused change failed with the reason, undoes it locally, and goes on with the next', async () => {
    const service = await createService(api, admin, 'Editable statement');
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, service);
    const { engine, db } = track(device(api, customer));
    await engine.syncNow();

    // A customer may not mark an order paid: the server answers 403.
    const refused = setPaymentStatus(customer.id, { orderId: order.id, paymentStatus: 'paid', version: order.version });
    await refused.saved;
    expect((await db!.orders.get(order.id))?.paymentStatus).toBe('paid');
    const next = placeOrder(customer.id, { id: crypto.randomUUID(), productId: service.id });
    await next.saved;

    await engine.syncNow();
    const failure = await refused.done.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'forbidden', status: 403 });
    await next.done;

    const entry = await db!.outbox.get(refused.id);
    expect(entry?.status).toBe('failed');
    expect(entry?.error).toBeTruthy();
    expect((await db!.orders.get(order.id))?.paymentStatus).toBe('pending');
    expect(await db!.outbox.where('status').equals('pending').count()).toBe(0);

    // Not retried on its own: another sync leaves it failed.
    await engine.syncNow();
    expect((await db!.outbox.get(refused.id))?.status).toBe('failed');
    expect((await serverOrder(api, order.id))[0]?.payment_status).toBe('pending');
  });

  it("keeps a queued change over a pulled row, then shows the server's row when the change conflicts", async () => {
    const service = await createService(api, admin, 'Wise for agencies');
    const [customer, moderator] = await Promise.all([api.createUser('user'), api.createUser('moderator')]);
    const order = await orderOnServer(api, customer, service);
    const { engine, db, failNext } = track(device(api, moderator));
    await engine.syncNow();

    const queued = setOrderStatus(moderator.id, { orderId: order.id, orderStatus: 'processing', version: order.version });
    await queued.saved;
    // Meanwhile an admin marks it paid on another device.
    const paid = await api.call<Order>('PUT', `/api/admin/orders/${order.id}`, { user: admin, json: { paymentStatus: 'paid', version: order.version } });
    expect(paid.status).toBe(200);

    failNext(1, 'server-error', (method, path) => method === 'PUT' && path.startsWith('/api/admin/orders/'));
    await expect(engine.syncNow()).rejects.toThrow();
    const whileQueued = await db!.orders.get(order.id);
    expect(whileQueued?.orderStatus).toBe('processing');
    expect(whileQueued?.paymentStatus).toBe('pending');

    await engine.syncNow();
    await expect(queued.done).rejects.toMatchObject({ status: 409 });
    const after = await db!.orders.get(order.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', orderStatus: 'pending', version: paid.body.version });
    expect((await db!.outbox.get(queued.id))?.status).toBe('failed');
  });

  it('lands a status change made offline beside a payment change made on another device (no false conflict); refuses a change to the same field with both values', async () => {
    const service = await createService(api, admin, 'Wise for two tablets');
    const [customer, moderator] = await Promise.all([api.createUser('user'), api.createUser('moderator')]);
    const order = await orderOnServer(api, customer, service);
    const { engine, db } = track(device(api, moderator));
    await engine.syncNow();

    const queued = setOrderStatus(moderator.id, { orderId: order.id, orderStatus: 'processing', version: order.version, from: order.orderStatus });
    await queued.saved;
    // Meanwhile an admin marks it paid on another device, from the same version.
    const paid = await api.call<Order>('PUT', `/api/admin/orders/${order.id}`, {
      user: admin,
      json: { paymentStatus: 'paid', base: { paymentStatus: 'pending' } },
    });
    expect(paid.status).toBe(200);

    await engine.syncNow();
    await queued.done;
    const [row] = await serverOrder(api, order.id);
    expect(row).toMatchObject({ payment_status: 'paid', order_status: 'processing' });
    expect(await db!.orders.get(order.id)).toMatchObject({ paymentStatus: 'paid', orderStatus: 'processing' });
    expect(await db!.outbox.count()).toBe(0);

    // A true conflict: the same field, changed elsewhere to something else.
    const mine = setOrderStatus(moderator.id, { orderId: order.id, orderStatus: 'completed', version: Number(row!.version), from: 'processing' });
    await mine.saved;
    const theirs = await api.call<Order>('PUT', `/api/admin/orders/${order.id}`, {
      user: admin,
      json: { orderStatus: 'cancelled', base: { orderStatus: 'processing' } },
    });
    expect(theirs.status).toBe(200);
    await engine.syncNow();
    await expect(mine.done).rejects.toMatchObject({ status: 409 });
    const failed = await db!.outbox.get(mine.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/"cancelled".*"completed"/);
    expect(await db!.orders.get(order.id)).toMatchObject({ orderStatus: 'cancelled' });
  });

  it('sends two changes to one row in order, each on top of the other', async () => {
    const service = await createService(api, admin, 'VPS large');
    const [customer, moderator] = await Promise.all([api.createUser('user'), api.createUser('moderator')]);
    const order = await orderOnServer(api, customer, service);
    const { engine, db } = track(device(api, moderator));
    await engine.syncNow();

    const first = setPaymentStatus(moderator.id, { orderId: order.id, paymentStatus: 'paid', version: order.version });
    const second = setOrderStatus(moderator.id, { orderId: order.id, orderStatus: 'processing', version: order.version });
    await Promise.all([first.saved, second.saved]);
    await engine.syncNow();
    await Promise.all([first.done, second.done]);
    const [row] = await serverOrder(api, order.id);
    expect(row).toMatchObject({ payment_status: 'paid', order_status: 'processing' });
    expect(await db!.orders.get(order.id)).toMatchObject({ paymentStatus: 'paid', orderStatus: 'processing', version: Number(row!.version) });
  });

  it('delivers an order from stock offline, and both rows follow the server once sent', async () => {
    const service = await createService(api, admin, 'Wise verified');
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, service);
    const stock = await api.call<WiseStock>('POST', '/api/wise-stocks', {
      user: admin,
      json: { wiseName: 'Stock A', wiseEmail: 'stock-a@wise.test', wisePassword: 'Stock-pass-1', authImage: 'https://img.test/a.png', userName: 'Admin' },
    });
    const { engine, db } = track(device(api, admin));
    await engine.syncNow();

    const delivery = deliverOrder(admin.id, { orderId: order.id, version: order.version, stockId: stock.body.id });
    await delivery.saved;
    expect(await db!.orders.get(order.id)).toMatchObject({ orderStatus: 'delivered', wiseEmail: 'stock-a@wise.test' });
    expect(await db!.wiseStocks.get(stock.body.id)).toMatchObject({ status: 'sold', soldTo: customer.id });

    await engine.syncNow();
    await delivery.done;
    const [row] = await serverOrder(api, order.id);
    expect(row).toMatchObject({ order_status: 'delivered', payment_status: 'paid', stock_id: stock.body.id });
    const localStock = await db!.wiseStocks.get(stock.body.id);
    expect(localStock).toMatchObject({ status: 'sold', soldTo: customer.id, orderId: order.id });
    expect(localStock!.version).toBeGreaterThan(stock.body.version);
  });

  it('refreshes the session on a 401 and keeps the queue when that fails', async () => {
    const service = await createService(api, admin, 'Proxy 12h');
    const customer = await api.createUser('user');
    let token = 'expired.token.value';
    let canRefresh = false;
    const { engine, db } = track(
      device(api, customer, {
        token: () => token,
        refresh: async () => {
          if (!canRefresh) return false;
          token = customer.token;
          return true;
        },
      }),
    );
    const orderId = crypto.randomUUID();
    // The service is known from an earlier visit.
    await getPublicDb().services.put(service);
    const handle = placeOrder(customer.id, { id: orderId, productId: service.id });
    await handle.saved;

    await expect(engine.syncNow()).rejects.toMatchObject({ code: 'session_ended' });
    expect(engine.getStatus().lastError).toMatch(/sign in again/i);
    expect(await db!.outbox.get(orderId)).toMatchObject({ status: 'pending' });

    canRefresh = true;
    await engine.syncNow();
    await handle.done;
    expect(await serverOrder(api, orderId)).toHaveLength(1);
    expect(await db!.outbox.count()).toBe(0);
  });
});
