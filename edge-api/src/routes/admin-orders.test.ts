import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../contract/audit.ts';
import { needsAttention, orderAttentions } from '../contract/order-attention.ts';
import { WISE_PASSWORD_MAX } from '../contract/fields.ts';
import type { AdminOrderPage, Order, OrderStats, OrderStatus, PaymentStatus } from '../contract/orders.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { errorPaths as paths, orderTestBench, random, type ErrorBody, type OrderFixtures, type OrderSeed } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
beforeAll(() => ({ api, admin, moderator, customer, orders } = bench));

// First in the file: the stats cover every order, so they are checked while only these orders exist.
describe('GET /api/admin/orders/stats', () => {
  it('counts orders, paid revenue from the leading number of each price, customers, and 30 full days', async () => {
    const hour = 3_600_000;
    const now = Date.now();
    const c1 = { id: crypto.randomUUID(), email: 'c1@shop.test', name: 'C One' };
    const c2 = { id: crypto.randomUUID(), email: 'c2@shop.test', name: 'C Two' };
    const c3 = { id: crypto.randomUUID(), email: 'c3@shop.test', name: 'C Three' };
    const seeds: OrderSeed[] = [
      { user: c1, price: '$25.50 USD', paymentStatus: 'paid', orderStatus: 'delivered', createdAt: new Date(now - 1 * hour) },
      { user: c1, price: '10', paymentStatus: 'paid', orderStatus: 'processing', createdAt: new Date(now - 2 * hour) },
      { user: c2, price: 'ask us', paymentStatus: 'paid', orderStatus: 'completed', createdAt: new Date(now - 3 * hour) },
      { user: c2, price: '$100', paymentStatus: 'pending', orderStatus: 'pending', createdAt: new Date(now - 4 * hour) },
      { user: c2, price: '1,200.75 BDT', paymentStatus: 'paid', orderStatus: 'delivered', createdAt: new Date(now - 50 * hour) },
      { user: c1, price: '$5', paymentStatus: 'failed', orderStatus: 'cancelled', createdAt: new Date(now - 120 * hour) },
      { user: c1, price: '$40', paymentStatus: 'paid', orderStatus: 'delivered', createdAt: new Date(now - 40 * 24 * hour) },
      { user: c3, price: '$999', paymentStatus: 'paid', orderStatus: 'delivered', createdAt: new Date(now - 1 * hour), deleted: true },
    ];
    // Against what the database already holds (a shared one, when the suite runs against a running entry).
    const before = (await api.call<OrderStats>('GET', '/api/admin/orders/stats', { user: moderator })).body;
    const ids: string[] = [];
    for (const seed of seeds) ids.push(await orders.seedOrder(seed));

    const stats = await api.call<OrderStats>('GET', '/api/admin/orders/stats', { user: moderator });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      totalOrders: before.totalOrders + 7,
      totalRevenue: Math.round((before.totalRevenue + 1276.25) * 100) / 100,
      activeCustomers: before.activeCustomers + 2,
      pendingPayments: before.pendingPayments + 1,
      delivered: before.delivered + 3,
    });
    // The five newest of what was there and what was added (the deleted one not among them).
    const candidates = [
      ...before.recentOrders.map((order) => ({ id: order.id, at: Date.parse(order.createdAt) })),
      ...seeds.slice(0, 7).map((seed, i) => ({ id: ids[i]!, at: seed.createdAt!.getTime() })),
    ];
    candidates.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : 1));
    expect(stats.body.recentOrders.map((o) => o.id)).toEqual(candidates.slice(0, 5).map((c) => c.id));

    const today = new Date().toISOString().slice(0, 10);
    const { daily } = stats.body;
    expect(daily).toHaveLength(30);
    expect(daily[29]?.date).toBe(today);
    expect(daily[0]?.date).toBe(new Date(Date.parse(today) - 29 * 24 * hour).toISOString().slice(0, 10));
    for (let i = 1; i < 30; i++) expect(Date.parse(daily[i]!.date) - Date.parse(daily[i - 1]!.date)).toBe(24 * hour);
    const expected = new Map<string, { orders: number; revenue: number }>(before.daily.map((day) => [day.date, { orders: day.orders, revenue: day.revenue }]));
    for (const seed of seeds.slice(0, 6)) {
      const day = seed.createdAt!.toISOString().slice(0, 10);
      const entry = expected.get(day) ?? { orders: 0, revenue: 0 };
      entry.orders += 1;
      if (seed.paymentStatus === 'paid') entry.revenue += { '$25.50 USD': 25.5, '10': 10, '1,200.75 BDT': 1200.75 }[seed.price!] ?? 0;
      expected.set(day, entry);
    }
    for (const day of daily) {
      const want = expected.get(day.date) ?? { orders: 0, revenue: 0 };
      expect(day).toEqual({ date: day.date, orders: want.orders, revenue: Math.round(want.revenue * 100) / 100 });
    }
  });

  it('is for staff only', async () => {
    expect((await api.call('GET', '/api/admin/orders/stats', { user: admin })).status).toBe(200);
    expect((await api.call('GET', '/api/admin/orders/stats', { user: customer })).status).toBe(403);
    expect((await api.call('GET', '/api/admin/orders/stats')).status).toBe(401);
  });
});

describe('GET /api/admin/orders', () => {
  const titleMark = `Ttl${random()}`;
  const emailMark = `mail${random()}`;
  const nameMark = `Nm${random()}`;
  const ids: string[] = [];
  const statusOf = (i: number): OrderStatus => (['pending', 'processing', 'completed', 'delivered', 'cancelled'] as const)[i % 5]!;
  const paymentOf = (i: number): PaymentStatus => (['pending', 'paid', 'failed', 'refunded'] as const)[i % 4]!;

  beforeAll(async () => {
    const regular = { id: crypto.randomUUID(), email: 'regular@shop.test', name: 'Regular Buyer' };
    const special = { id: crypto.randomUUID(), email: `${emailMark}@Mail.test`, name: `Farida ${nameMark}` };
    // 25 orders, newest first in `ids`; four belong to the special customer.
    for (let i = 0; i < 25; i++) {
      ids.push(
        await orders.seedOrder({
          user: i % 6 === 0 ? special : regular,
          title: `Wise ${titleMark} #${i}`,
          paymentStatus: paymentOf(i),
          orderStatus: statusOf(i),
          createdAt: new Date(Date.UTC(2025, 5, 1) - i * 60_000),
        }),
      );
    }
  });

  const list = (query: string, user: TestUser = moderator) => api.call<AdminOrderPage & ErrorBody>('GET', `/api/admin/orders?${query}`, { user });

  it('pages newest first with page 1 and limit 10 by default, and the total', async () => {
    const first = await list(`search=${titleMark}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, limit: 10 });
    // A count slower than its 10 ms (a loaded machine) gives way to the lower bound the page proves
    // (decision 008); otherwise the total is exact.
    if (first.body.totalIsLowerBound) expect(first.body.total).toBe(11);
    else expect(first.body.total).toBe(25);
    expect(first.body.orders.map((o) => o.id)).toEqual(ids.slice(0, 10));
    const second = await list(`search=${titleMark}&page=2&limit=10`);
    expect(second.body.orders.map((o) => o.id)).toEqual(ids.slice(10, 20));
    const third = await list(`search=${titleMark}&page=3&limit=10`);
    expect(third.body.orders.map((o) => o.id)).toEqual(ids.slice(20));
    const big = await list(`search=${titleMark}&limit=25`);
    expect(big.body.orders).toHaveLength(25);
    expect(big.body.limit).toBe(25);
    const beyond = await list(`search=${titleMark}&page=9`);
    expect(beyond.body).toMatchObject({ orders: [], total: 25, page: 9 });
  });

  it('filters by status and payment status, alone and together', async () => {
    const delivered = await list(`search=${titleMark}&status=delivered&limit=100`);
    const expectDelivered = ids.filter((_, i) => statusOf(i) === 'delivered');
    expect(delivered.body.total).toBe(expectDelivered.length);
    expect(delivered.body.orders.map((o) => o.id)).toEqual(expectDelivered);

    const refunded = await list(`search=${titleMark}&paymentStatus=refunded&limit=100`);
    expect(refunded.body.orders.map((o) => o.id)).toEqual(ids.filter((_, i) => paymentOf(i) === 'refunded'));

    const both = await list(`search=${titleMark}&status=pending&paymentStatus=pending&limit=100`);
    expect(both.body.orders.map((o) => o.id)).toEqual(ids.filter((_, i) => statusOf(i) === 'pending' && paymentOf(i) === 'pending'));
    expect(both.body.orders.every((o) => o.orderStatus === 'pending' && o.paymentStatus === 'pending')).toBe(true);
  });

  it('searches case-insensitively by id fragment, title, customer email and customer name', async () => {
    const target = ids[7]!;
    const byId = await list(`search=${target.slice(9, 23).toUpperCase()}`);
    expect(byId.body.orders.map((o) => o.id)).toEqual([target]);

    const byTitle = await list(`search=${encodeURIComponent(`${titleMark} #13`.toUpperCase())}`);
    expect(byTitle.body.orders.map((o) => o.id)).toEqual([ids[13]]);

    const special = ids.filter((_, i) => i % 6 === 0);
    const byEmail = await list(`search=${emailMark.toUpperCase()}@mail`);
    expect(byEmail.body.total).toBe(special.length);
    expect(byEmail.body.orders.map((o) => o.id)).toEqual(special);

    const byName = await list(`search=${encodeURIComponent(`farida ${nameMark.toLowerCase()}`)}`);
    expect(byName.body.orders.map((o) => o.id)).toEqual(special);

    const wildcard = await list('search=%25');
    expect(wildcard.body.total).toBe(0);
    const underscore = await list(`search=${titleMark}_`);
    expect(underscore.body.total).toBe(0);
  });

  it('finds by a whole email only the orders that contain all of it, not a namesake at another domain', async () => {
    const namesake = { id: crypto.randomUUID(), email: `${emailMark}@other.test`, name: 'Another Person' };
    const namesakeOrder = await orders.seedOrder({ user: namesake, title: 'Proxy', createdAt: new Date(Date.UTC(2025, 4, 1)) });
    const special = ids.filter((_, i) => i % 6 === 0);

    const whole = await list(`search=${encodeURIComponent(`${emailMark}@mail.test`)}&limit=100`);
    expect(whole.body.total).toBe(special.length);
    expect(whole.body.orders.map((o) => o.id)).toEqual(special);

    const other = await list(`search=${encodeURIComponent(`${emailMark.toUpperCase()}@OTHER.test`)}`);
    expect(other.body.orders.map((o) => o.id)).toEqual([namesakeOrder]);

    const localPart = await list(`search=${encodeURIComponent(`${emailMark}@`)}&limit=100`);
    expect(localPart.body.orders.map((o) => o.id)).toEqual([...special, namesakeOrder]);

    const wildcardDomain = await list(`search=${encodeURIComponent(`${emailMark}@%.test`)}`);
    expect(wildcardDomain.body.total).toBe(0);
  });

  it('answers 400 naming the parameter for a bad page, limit or status', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=two', 'page'],
      ['limit=7', 'limit'],
      ['limit=1000', 'limit'],
      ['status=shipped', 'status'],
      ['paymentStatus=free', 'paymentStatus'],
    ] as const) {
      const bad = await list(query);
      expect(bad.status, query).toBe(400);
      expect(paths(bad.body), query).toContain(field);
    }
  });

  it("filters by the bell's rules (attention=delivery|payment-check) exactly as the device counts, and refuses other values", async () => {
    const mark = `Bell${random()}`;
    const buyer = { id: crypto.randomUUID(), email: 'bell@shop.test', name: 'Bell Buyer' };
    const seeds: [OrderStatus, PaymentStatus, { wiseEmail?: string; proof?: boolean }][] = [
      ['pending', 'pending', { proof: true }],
      ['processing', 'pending', { proof: true }],
      ['pending', 'pending', {}],
      ['cancelled', 'pending', { proof: true }],
      ['pending', 'failed', { proof: true }],
      ['pending', 'paid', {}],
      ['processing', 'paid', {}],
      ['processing', 'paid', { wiseEmail: 'sold@wise.test' }],
      ['delivered', 'paid', { wiseEmail: 'sold2@wise.test' }],
      ['completed', 'paid', {}],
      ['cancelled', 'paid', {}],
    ];
    for (const [i, [orderStatus, paymentStatus, extra]] of seeds.entries()) {
      const id = await orders.seedOrder({
        user: buyer,
        title: `${mark} #${i}`,
        orderStatus,
        paymentStatus,
        createdAt: new Date(Date.UTC(2025, 4, 1) - i * 60_000),
      });
      if (extra.wiseEmail || extra.proof) {
        await api.db
          .updateTable('orders')
          .set({ ...(extra.wiseEmail ? { wise_email: extra.wiseEmail } : {}), ...(extra.proof ? { payment_reference: `tx-${i}`, proof_at: new Date() } : {}) })
          .where('id', '=', id)
          .execute();
      }
    }
    const all = await list(`search=${mark}&limit=100`);
    expect(all.body.total).toBe(seeds.length);
    for (const attention of orderAttentions) {
      const found = await list(`search=${mark}&attention=${attention}&limit=100`);
      expect(found.status, attention).toBe(200);
      const expected = all.body.orders.filter((o) => needsAttention(o, attention)).map((o) => o.id);
      expect(expected, attention).toHaveLength(2);
      expect(
        found.body.orders.map((o) => o.id),
        attention,
      ).toEqual(expected);
    }
    const bad = await list('attention=paid');
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toContain('attention');
  });

  it('is for staff only, and shows staff the delivered email but never the password', async () => {
    expect((await list(`search=${titleMark}`, admin)).status).toBe(200);
    expect((await list(`search=${titleMark}`, customer)).status).toBe(403);
    expect((await api.call('GET', '/api/admin/orders')).status).toBe(401);

    const id = await orders.placeOrder();
    await orders.deliverTyped(id, 'listed@wise.test', 'list-pass-1');
    const found = await list(`search=${id}`);
    expect(found.body.orders[0]).toMatchObject({ id, wiseEmail: 'listed@wise.test' });
    expect(found.body.orders[0]).not.toHaveProperty('wisePassword');
  });
});

describe('GET /api/admin/orders/:id', () => {
  it('answers one order to staff; 403 to customers, 401 without a token, 404 unknown', async () => {
    const id = await orders.placeOrder();
    expect((await api.call<Order>('GET', `/api/admin/orders/${id}`, { user: moderator })).body.id).toBe(id);
    expect((await api.call('GET', `/api/admin/orders/${id}`, { user: customer })).status).toBe(403);
    expect((await api.call('GET', `/api/admin/orders/${id}`)).status).toBe(401);
    expect((await api.call('GET', `/api/admin/orders/${crypto.randomUUID()}`, { user: admin })).status).toBe(404);
  });
});

describe('PUT /api/admin/orders/:id', () => {
  it('refuses a staff member any change to their own order (403 own_account), changing nothing; another may', async () => {
    for (const staff of [moderator, admin]) {
      const id = await orders.placeOrder(staff);
      const changes = [
        { paymentStatus: 'paid' },
        { paymentStatus: 'refunded' },
        { orderStatus: 'delivered' },
        { orderStatus: 'completed' },
        { orderStatus: 'processing' },
        { wiseEmail: 'own@wise.test', wisePassword: 'own-pass-1' },
      ];
      for (const json of changes) {
        const refused = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: staff, json });
        expect(refused.status, JSON.stringify(json)).toBe(403);
        expect(refused.body.error.code).toBe('own_account');
      }
      expect(await orders.orderRow(id)).toMatchObject({ payment_status: 'pending', order_status: 'pending', wise_email: null });
      const other = staff === admin ? moderator : admin;
      expect((await api.call('PUT', `/api/admin/orders/${id}`, { user: other, json: { paymentStatus: 'paid' } })).status).toBe(200);
    }
  });

  it('sets the order status and the payment status, each with an audit row', async () => {
    const id = await orders.placeOrder();
    const processing = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' } });
    expect(processing.status).toBe(200);
    expect(processing.body).toMatchObject({ id, orderStatus: 'processing', paymentStatus: 'pending' });

    const failed = await api.call<Order>('PUT', `/api/admin/orders/${id}`, {
      user: admin,
      json: { paymentStatus: 'failed', version: processing.body.version },
    });
    expect(failed.body).toMatchObject({ orderStatus: 'processing', paymentStatus: 'failed' });
    expect(failed.body.version).toBeGreaterThan(processing.body.version);

    const paid = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'paid' } });
    expect(paid.body).toMatchObject({ orderStatus: 'processing', paymentStatus: 'paid' });
    expect(paid.body).not.toHaveProperty('wiseEmail');

    const trail = await api.call<AuditEntry[]>('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: admin });
    expect(trail.status).toBe(200);
    expect(trail.body.map((e) => e.details)).toEqual([
      { from: { paymentStatus: 'failed', orderStatus: 'processing' }, to: { paymentStatus: 'paid', orderStatus: 'processing' } },
      { from: { paymentStatus: 'pending', orderStatus: 'processing' }, to: { paymentStatus: 'failed', orderStatus: 'processing' } },
      { from: { paymentStatus: 'pending', orderStatus: 'pending' }, to: { paymentStatus: 'pending', orderStatus: 'processing' } },
      { productId: orders.serviceId, price: '$30 USD' },
    ]);
    expect(trail.body[0]).toMatchObject({ action: 'order.update', actorId: admin.id, actorEmail: admin.email, entity: 'order', entityId: id });
  });

  it('answers 409 on a stale version and changes nothing', async () => {
    const id = await orders.placeOrder();
    const before = await orders.orderRow(id);
    await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' } });
    const stale = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'cancelled', version: before.version } });
    expect(stale.status).toBe(409);
    expect((await orders.orderRow(id)).order_status).toBe('processing');
  });

  it('answers 400 naming the field for malformed bodies, and leaves the order as it was', async () => {
    const id = await orders.placeOrder();
    const before = await orders.orderRow(id);
    const cases: [Record<string, unknown>, string][] = [
      [{ orderStatus: 'shipped' }, 'orderStatus'],
      [{ paymentStatus: 'free' }, 'paymentStatus'],
      [{}, 'orderStatus'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test' }, 'wisePassword'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wisePassword: 'pw' }, 'wiseEmail'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'not-an-email', wisePassword: 'pw' }, 'wiseEmail'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: '' }, 'wisePassword'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: 'x'.repeat(WISE_PASSWORD_MAX + 1) }, 'wisePassword'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: 'pw', wiseImage: '../../etc/passwd' }, 'wiseImage'],
      [{ paymentStatus: 'refunded', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: 'pw' }, 'paymentStatus'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', stockId: 'stock-1' }, 'stockId'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', stockId: crypto.randomUUID(), wiseEmail: 'a@wise.test', wisePassword: 'pw' }, 'stockId'],
      [{ orderStatus: 'processing', version: 'one' }, 'version'],
    ];
    for (const [json, field] of cases) {
      const bad = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: admin, json });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      expect(paths(bad.body), JSON.stringify(json)).toContain(field);
    }
    expect(await orders.orderRow(id)).toEqual(before);
    expect((await api.call('PUT', '/api/admin/orders/nope', { user: admin, json: { orderStatus: 'processing' } })).status).toBe(400);
    expect((await api.call('PUT', `/api/admin/orders/${crypto.randomUUID()}`, { user: admin, json: { orderStatus: 'processing' } })).status).toBe(404);
  });

  it('answers 403 to customers, even for their own order, and 401 without a token', async () => {
    const id = await orders.placeOrder();
    expect((await api.call('PUT', `/api/admin/orders/${id}`, { user: customer, json: { paymentStatus: 'paid' } })).status).toBe(403);
    expect((await api.call('PUT', `/api/admin/orders/${id}`, { json: { paymentStatus: 'paid' } })).status).toBe(401);
    expect((await orders.orderRow(id)).payment_status).toBe('pending');
  });

  it('answers a replayed Idempotency-Key with the first answer and applies the change once', async () => {
    const id = await orders.placeOrder();
    const key = { 'Idempotency-Key': `set-status-${random()}` };
    const first = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' }, headers: key });
    expect(first.status).toBe(200);
    await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'completed' } });

    const replay = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' }, headers: key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect((await orders.orderRow(id)).order_status).toBe('completed');
    expect((await orders.auditRows(id)).filter((e) => e.action === 'order.update')).toHaveLength(2);

    // The same key on another order is another mutation.
    const other = await orders.placeOrder();
    const elsewhere = await api.call<Order>('PUT', `/api/admin/orders/${other}`, { user: moderator, json: { orderStatus: 'processing' }, headers: key });
    expect(elsewhere.body.id).toBe(other);
    expect((await orders.orderRow(other)).order_status).toBe('processing');

    const blank = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, {
      user: moderator,
      json: { orderStatus: 'processing' },
      headers: { 'Idempotency-Key': 'k'.repeat(201) },
    });
    expect(blank.status).toBe(400);
    expect(paths(blank.body)).toContain('idempotency-key');
  });
});

describe('DELETE /api/admin/orders/:id', () => {
  it('soft-deletes for admins only, with an audit row', async () => {
    const id = await orders.placeOrder();
    const before = await orders.orderRow(id);
    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: moderator })).status).toBe(403);
    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: customer })).status).toBe(403);
    expect((await api.call('DELETE', `/api/admin/orders/${id}`)).status).toBe(401);
    expect((await orders.orderRow(id)).deleted_at).toBeNull();

    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: admin })).status).toBe(204);
    const row = await orders.orderRow(id);
    expect(row.deleted_at).not.toBeNull();
    expect(row.version).toBeGreaterThan(before.version);
    expect((await api.call<AdminOrderPage>('GET', `/api/admin/orders?search=${id}`, { user: admin })).body.total).toBe(0);
    expect((await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer })).body.map((o) => o.id)).not.toContain(id);
    expect((await orders.auditRows(id)).map((e) => e.action)).toContain('order.delete');
    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: admin })).status).toBe(404);
    expect((await api.call('DELETE', '/api/admin/orders/nope', { user: admin })).status).toBe(400);
  });
});
