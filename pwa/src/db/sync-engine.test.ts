import { Dexie } from 'dexie';
import { hc } from 'hono/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppType } from '../../../edge-api/src/app.ts';
import type { Order, Service, SyncResponse, WiseStock } from '../../../edge-api/src/contract.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { ApiRequestError } from '../lib/api-client.ts';
import { getPublicDb, getUserDb, userDbName } from './local-db.ts';
import { deliverOrder, placeOrder, setOrderStatus, setPaymentStatus } from './mutations.ts';
import { createSyncEngine, SyncSessionError, wipeUserData, type SyncEngine } from './sync-engine.ts';

let api: ApiHarness;
let admin: TestUser;

/** What went over the wire, for assertions on what a pull transferred. */
interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

type Fault = 'network' | 'server-error' | 'lost-answer';

/**
 * A device talking to the real API app in-process. `faults` makes the next matching requests (by method,
 * and path with query) fail: before reaching the server (network), with a 503, or after the server acted
 * (the answer is lost).
 */
function device(user: TestUser | null, options: { token?: () => string; refresh?: () => Promise<boolean> } = {}) {
  const exchanges: Exchange[] = [];
  const faults: { match: (method: string, path: string) => boolean; fault: Fault }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const index = faults.findIndex((f) => f.match(request.method, url.pathname + url.search));
    const fault = index >= 0 ? faults.splice(index, 1)[0]!.fault : undefined;
    if (fault === 'network') throw new TypeError('Failed to fetch');
    if (fault === 'server-error') return Response.json({ error: { code: 'internal', message: 'Down for a moment' } }, { status: 503 });
    const response = await api.app.request(request);
    const text = await response.text();
    if (fault === 'lost-answer') throw new TypeError('Failed to fetch');
    exchanges.push({ method: request.method, path: url.pathname + url.search, status: response.status, body: text ? JSON.parse(text) : null });
    return new Response(text || null, { status: response.status, headers: response.headers });
  };
  const client = hc<AppType>('http://api.test/', {
    fetch,
    headers: (): Record<string, string> => {
      const token = options.token?.() ?? user?.token;
      return token ? { authorization: `Bearer ${token}` } : {};
    },
  }).api;
  /** Images the engine asked for, for the service worker to keep (there is no worker here). */
  const imagesAsked: string[] = [];
  const engine = createSyncEngine({
    transport: {
      api: client,
      refreshSession: options.refresh ?? (async () => true),
      sessionUserId: async () => user?.id ?? null,
      fetchImage: async (url) => void imagesAsked.push(url),
    },
    locks: null,
    autoSync: false,
  });
  engine.start(user?.id ?? null);
  const failNext = (count: number, fault: Fault, match: (method: string, path: string) => boolean) => {
    for (let i = 0; i < count; i++) faults.push({ match, fault });
  };
  return { engine, exchanges, failNext, imagesAsked, db: user ? getUserDb(user.id) : null };
}

const pulled = (exchanges: Exchange[], scope: 'public' | 'private') =>
  exchanges.filter((e) => e.path.startsWith(`/api/sync?scope=${scope}`)).map((e) => e.body as SyncResponse);
const rowsIn = (sync: SyncResponse) =>
  Object.values(sync.changes).reduce((n, rows) => n + (rows?.length ?? 0), 0) + Object.values(sync.deleted).reduce((n, ids) => n + (ids?.length ?? 0), 0);

const serviceBody = (title: string) => ({
  title,
  description: `${title}, ready the same day`,
  category: 'wise',
  features: ['Verified'],
  price: '40',
  deliveryTime: 'instant',
  paymentMethods: ['binance'],
});

async function createService(title: string): Promise<Service> {
  const created = await api.call<Service>('POST', '/api/services', { user: admin, json: serviceBody(title) });
  expect(created.status).toBe(201);
  return created.body;
}

async function serverOrder(id: string) {
  return api.db.selectFrom('orders').selectAll().where('id', '=', id).execute();
}

/** An order placed by `customer` through the API, as a second device would. */
async function orderOnServer(customer: TestUser, service: Service): Promise<Order> {
  const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { id: crypto.randomUUID(), productId: service.id } });
  expect(placed.status).toBe(201);
  return placed.body.order;
}

let engines: SyncEngine[] = [];
const track = <T extends { engine: SyncEngine }>(d: T) => {
  engines.push(d.engine);
  return d;
};

beforeAll(async () => {
  api = await createApiHarness();
  admin = await api.createUser('admin');
});
afterAll(() => api.close());
beforeEach(async () => {
  for (const engine of engines) engine.stop();
  engines = [];
  const pub = getPublicDb();
  await Promise.all([pub.services.clear(), pub.settings.clear(), pub.meta.clear()]);
});

describe('pull', () => {
  it('brings new, changed and deleted services, and nothing at all when nothing changed', async () => {
    const { engine, exchanges } = track(device(null));
    const kept = await createService('Wise personal');
    const dropped = await createService('Wise business');
    await engine.syncNow();
    const local = getPublicDb().services;
    expect((await local.get(kept.id))?.title).toBe('Wise personal');
    expect(await local.get(dropped.id)).toBeDefined();

    await api.call('PUT', `/api/services/${kept.id}`, { user: admin, json: { ...serviceBody('Wise personal plus'), version: kept.version } });
    await api.call('DELETE', `/api/services/${dropped.id}`, { user: admin });
    await engine.syncNow();
    expect((await local.get(kept.id))?.title).toBe('Wise personal plus');
    expect(await local.get(dropped.id)).toBeUndefined();
    expect(rowsIn(pulled(exchanges, 'public').at(-1)!)).toBe(2);

    await engine.syncNow();
    expect(rowsIn(pulled(exchanges, 'public').at(-1)!)).toBe(0);
  });

  it("gives a customer its own record and orders, and nothing of another customer's", async () => {
    const service = await createService('VPS small');
    const [alice, bob] = await Promise.all([api.createUser('user'), api.createUser('user')]);
    const alicesOrder = await orderOnServer(alice, service);
    const bobsOrder = await orderOnServer(bob, service);

    const aliceDevice = track(device(alice));
    await aliceDevice.engine.syncNow();
    const aliceDb = aliceDevice.db!;
    expect((await aliceDb.users.toArray()).map((u) => u.uid)).toEqual([alice.id]);
    expect((await aliceDb.orders.toArray()).map((o) => o.id)).toEqual([alicesOrder.id]);
    for (const sync of pulled(aliceDevice.exchanges, 'private')) {
      expect(JSON.stringify(sync)).not.toContain(bob.id);
      expect(JSON.stringify(sync)).not.toContain(bobsOrder.id);
    }

    // Bob signs in on the same device afterwards: his database holds only his own rows.
    aliceDevice.engine.stop();
    const bobDevice = track(device(bob));
    await bobDevice.engine.syncNow();
    expect((await bobDevice.db!.orders.toArray()).map((o) => o.id)).toEqual([bobsOrder.id]);
    expect(await bobDevice.db!.users.get(alice.id)).toBeUndefined();
  });

  it('replaces the copy whole when a customer becomes staff', async () => {
    const service = await createService('Proxy 24h');
    const [worker, other] = await Promise.all([api.createUser('user'), api.createUser('user')]);
    const othersOrder = await orderOnServer(other, service);
    const { engine, db } = track(device(worker));
    await engine.syncNow();
    expect(await db!.orders.get(othersOrder.id)).toBeUndefined();

    expect((await api.call('PUT', `/api/users/${worker.id}/role`, { user: admin, json: { userRole: 'moderator' } })).status).toBe(200);
    await engine.syncNow();
    expect(await db!.orders.get(othersOrder.id)).toBeDefined();
    expect((await db!.users.get(other.id))?.uid).toBe(other.id);
  });
  it('takes a large first pull page by page, and after a lost page goes on from the last one kept', async () => {
    const customer = await api.createUser('user');
    // 2,500 orders, each written by a transaction of its own, so the server pages them.
    const ids = await api.insertOrders(customer, 2_500);
    const { engine, db, exchanges, failNext } = track(device(customer));

    let privatePulls = 0;
    // The first page comes through; the second is lost on the way.
    failNext(1, 'network', (method, path) => method === 'GET' && path.startsWith('/api/sync?scope=private') && ++privatePulls === 2);
    await expect(engine.syncNow()).rejects.toThrow();
    const kept = await db!.orders.count();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(ids.length);

    await engine.syncNow();
    expect((await db!.orders.toCollection().primaryKeys()).sort()).toEqual([...ids].sort());
    const pages = pulled(exchanges, 'private');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // No order came twice: the pull after the lost page started from the cursor the first page left.
    expect(pages.flatMap((page) => page.changes.orders ?? []).length).toBe(ids.length);
  });
});

describe('offline images', () => {
  it("asks once for the proof image of a customer's newly delivered order, and for no one else's", async () => {
    const service = await createService('Wise with proof');
    const [customer, other] = await Promise.all([api.createUser('user'), api.createUser('user')]);
    const order = await orderOnServer(customer, service);
    const othersOrder = await orderOnServer(other, service);
    const customerDevice = track(device(customer));
    await customerDevice.engine.syncNow();
    expect(customerDevice.imagesAsked).toEqual([]);

    for (const [id, image] of [[order.id, 'order-proofs/proof-7.png'], [othersOrder.id, 'order-proofs/proof-8.png']] as const) {
      const delivered = await api.call('PUT', `/api/admin/orders/${id}`, {
        user: admin,
        json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'proof@wise.test', wisePassword: `pw-${image}`, wiseImage: image },
      });
      expect(delivered.status).toBe(200);
    }
    await customerDevice.engine.syncNow();
    expect(customerDevice.imagesAsked).toHaveLength(1);
    expect(customerDevice.imagesAsked[0]).toMatch(/^\/files\/order-proofs\/proof-7\.png\?/);
    expect((await customerDevice.db!.orders.get(order.id))?.wiseImage).toBe(customerDevice.imagesAsked[0]);

    await customerDevice.engine.syncNow();
    expect(customerDevice.imagesAsked).toHaveLength(1);

    // Staff see the order too, but only a customer keeps proofs ahead of time.
    const staffDevice = track(device(admin));
    await staffDevice.engine.syncNow();
    expect(await staffDevice.db!.orders.get(order.id)).toBeDefined();
    expect(staffDevice.imagesAsked).toEqual([]);
  });
});

describe('push', () => {
  it('keeps a queued order through three failed pushes and places it exactly once', async () => {
    const service = await createService('Wise premium');
    const customer = await api.createUser('user');
    const { engine, db, failNext } = track(device(customer));
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
    expect(await serverOrder(orderId)).toHaveLength(1);
    const local = await db!.orders.get(orderId);
    expect(local?.version).toBeGreaterThan(0);
    expect(local?.userEmail).toBe(customer.email);
  });

  it('marks a refused change failed with the reason, undoes it locally, and goes on with the next', async () => {
    const service = await createService('Editable statement');
    const customer = await api.createUser('user');
    const order = await orderOnServer(customer, service);
    const { engine, db } = track(device(customer));
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
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).status).toBe(403);
    await next.done;

    const entry = await db!.outbox.get(refused.id);
    expect(entry?.status).toBe('failed');
    expect(entry?.error).toBeTruthy();
    expect((await db!.orders.get(order.id))?.paymentStatus).toBe('pending');
    expect(await db!.outbox.where('status').equals('pending').count()).toBe(0);

    // Not retried on its own: another sync leaves it failed.
    await engine.syncNow();
    expect((await db!.outbox.get(refused.id))?.status).toBe('failed');
    expect((await serverOrder(order.id))[0]?.payment_status).toBe('pending');
  });

  it("keeps a queued change over a pulled row, then shows the server's row when the change conflicts", async () => {
    const service = await createService('Wise for agencies');
    const [customer, moderator] = await Promise.all([api.createUser('user'), api.createUser('moderator')]);
    const order = await orderOnServer(customer, service);
    const { engine, db, failNext } = track(device(moderator));
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

  it('sends two changes to one row in order, each on top of the other', async () => {
    const service = await createService('VPS large');
    const [customer, moderator] = await Promise.all([api.createUser('user'), api.createUser('moderator')]);
    const order = await orderOnServer(customer, service);
    const { engine, db } = track(device(moderator));
    await engine.syncNow();

    const first = setPaymentStatus(moderator.id, { orderId: order.id, paymentStatus: 'paid', version: order.version });
    const second = setOrderStatus(moderator.id, { orderId: order.id, orderStatus: 'processing', version: order.version });
    await Promise.all([first.saved, second.saved]);
    await engine.syncNow();
    await Promise.all([first.done, second.done]);
    const [row] = await serverOrder(order.id);
    expect(row).toMatchObject({ payment_status: 'paid', order_status: 'processing' });
    expect(await db!.orders.get(order.id)).toMatchObject({ paymentStatus: 'paid', orderStatus: 'processing', version: Number(row!.version) });
  });

  it('delivers an order from stock offline, and both rows follow the server once sent', async () => {
    const service = await createService('Wise verified');
    const customer = await api.createUser('user');
    const order = await orderOnServer(customer, service);
    const stock = await api.call<WiseStock>('POST', '/api/wise-stocks', {
      user: admin,
      json: { wiseName: 'Stock A', wiseEmail: 'stock-a@wise.test', wisePassword: 'Stock-pass-1', authImage: 'https://img.test/a.png', userName: 'Admin' },
    });
    const { engine, db } = track(device(admin));
    await engine.syncNow();

    const delivery = deliverOrder(admin.id, { orderId: order.id, version: order.version, stockId: stock.body.id });
    await delivery.saved;
    expect(await db!.orders.get(order.id)).toMatchObject({ orderStatus: 'delivered', wiseEmail: 'stock-a@wise.test' });
    expect(await db!.wiseStocks.get(stock.body.id)).toMatchObject({ status: 'sold', soldTo: customer.id });

    await engine.syncNow();
    await delivery.done;
    const [row] = await serverOrder(order.id);
    expect(row).toMatchObject({ order_status: 'delivered', payment_status: 'paid', stock_id: stock.body.id });
    const localStock = await db!.wiseStocks.get(stock.body.id);
    expect(localStock).toMatchObject({ status: 'sold', soldTo: customer.id, orderId: order.id });
    expect(localStock!.version).toBeGreaterThan(stock.body.version);
  });

  it('refreshes the session on a 401 and keeps the queue when that fails', async () => {
    const service = await createService('Proxy 12h');
    const customer = await api.createUser('user');
    let token = 'expired.token.value';
    let canRefresh = false;
    const { engine, db } = track(
      device(customer, {
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

    await expect(engine.syncNow()).rejects.toBeInstanceOf(SyncSessionError);
    expect(engine.getStatus().lastError).toMatch(/sign in again/i);
    expect(await db!.outbox.get(orderId)).toMatchObject({ status: 'pending' });

    canRefresh = true;
    await engine.syncNow();
    await handle.done;
    expect(await serverOrder(orderId)).toHaveLength(1);
    expect(await db!.outbox.count()).toBe(0);
  });
});

describe('logout', () => {
  it('leaves no user database behind, and a late sync does not bring it back', async () => {
    const customer = await api.createUser('user');
    const { engine, db } = track(device(customer));
    await engine.syncNow();
    expect(await db!.users.count()).toBe(1);
    expect(await Dexie.exists(userDbName(customer.id))).toBe(true);

    await wipeUserData(customer.id);
    expect(await Dexie.exists(userDbName(customer.id))).toBe(false);
    await engine.syncNow().catch(() => {});
    expect(await Dexie.exists(userDbName(customer.id))).toBe(false);
  });
});
