import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderPage, AuditEntry, CredentialsCheck, Order, OrderStats } from '../contract.ts';
import type { OrderStatus, PaymentStatus, StockStatus } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let serviceId: string;
/** Every password this file delivers or stocks: none may ever show up in plain text at rest. */
const passwordsUsed: string[] = [];

const random = () => crypto.randomUUID().slice(0, 8);
const paths = (body: ErrorBody) => body.error.details?.map((d) => d.path) ?? [];

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
  serviceId = crypto.randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id: serviceId,
        title: 'Wise Personal Account',
        description: 'Verified',
        category: 'wise',
        features: '[]',
        popular: true,
        image: '',
        price: '$30 USD',
        delivery_time: '1hour',
        payment_methods: '[]',
        version: await nextVersion(trx),
      })
      .execute();
  });
});
afterAll(() => api.close());

interface OrderSeed {
  user: { id: string; email: string; name: string };
  title?: string;
  price?: string;
  paymentStatus?: PaymentStatus;
  orderStatus?: OrderStatus;
  createdAt?: Date;
  deleted?: boolean;
}

/** An order written straight into the database, for lists whose contents and dates the test controls. */
async function seedOrder(seed: OrderSeed) {
  const id = crypto.randomUUID();
  const at = seed.createdAt ?? new Date();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('orders')
      .values({
        id,
        product_id: serviceId,
        title: seed.title ?? 'Wise Personal Account',
        description: '',
        category: 'wise',
        image: '',
        price: seed.price ?? '$30 USD',
        delivery_time: '1hour',
        user_id: seed.user.id,
        user_email: seed.user.email,
        user_name: seed.user.name,
        payment_status: seed.paymentStatus ?? 'pending',
        order_status: seed.orderStatus ?? 'pending',
        order_date: at,
        created_at: at,
        updated_at: at,
        deleted_at: seed.deleted ? new Date() : null,
        version: await nextVersion(trx),
      })
      .execute();
  });
  return id;
}

async function placeOrder(user: TestUser = customer) {
  const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user, json: { productId: serviceId } });
  expect(placed.status).toBe(201);
  return placed.body.order.id;
}

async function seedStock(email: string, password: string, status: StockStatus = 'available') {
  passwordsUsed.push(password);
  const id = crypto.randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('wise_stocks')
      .values({
        id,
        wise_name: 'Karim Stock',
        wise_email: email,
        wise_password_enc: await api.deps.secrets.encrypt(password),
        wise_password_index: await api.deps.secrets.blindIndex(password),
        auth_image: 'stock-images/auth-1.png',
        doc_img1: '',
        doc_img2: '',
        user_name: 'Demo Admin',
        user_email: admin.email,
        added_by: admin.id,
        service_name: 'WiseStock',
        status,
        sold_to: null,
        order_id: null,
        notes: '',
        version: await nextVersion(trx),
      })
      .execute();
  });
  return id;
}

function deliverTyped(orderId: string, wiseEmail: string, wisePassword: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  passwordsUsed.push(wisePassword);
  return api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${orderId}`, {
    user: moderator,
    json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail, wisePassword, ...extra },
    headers,
  });
}

const orderRow = (id: string) => api.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const stockRow = (id: string) => api.db.selectFrom('wise_stocks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const auditRows = (entityId: string) => api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', entityId).execute();

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
    const ids: string[] = [];
    for (const seed of seeds) ids.push(await seedOrder(seed));

    const stats = await api.call<OrderStats>('GET', '/api/admin/orders/stats', { user: moderator });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ totalOrders: 7, totalRevenue: 1276.25, activeCustomers: 2, pendingPayments: 1, delivered: 3 });
    expect(stats.body.recentOrders.map((o) => o.id)).toEqual(ids.slice(0, 5));

    const today = new Date().toISOString().slice(0, 10);
    const { daily } = stats.body;
    expect(daily).toHaveLength(30);
    expect(daily[29]?.date).toBe(today);
    expect(daily[0]?.date).toBe(new Date(Date.parse(today) - 29 * 24 * hour).toISOString().slice(0, 10));
    for (let i = 1; i < 30; i++) expect(Date.parse(daily[i]!.date) - Date.parse(daily[i - 1]!.date)).toBe(24 * hour);
    const expected = new Map<string, { orders: number; revenue: number }>();
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
        await seedOrder({
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
    expect(first.body).toMatchObject({ total: 25, page: 1, limit: 10 });
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
    const namesakeOrder = await seedOrder({ user: namesake, title: 'Proxy', createdAt: new Date(Date.UTC(2025, 4, 1)) });
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

  it('is for staff only, and shows staff the delivered email but never the password', async () => {
    expect((await list(`search=${titleMark}`, admin)).status).toBe(200);
    expect((await list(`search=${titleMark}`, customer)).status).toBe(403);
    expect((await api.call('GET', '/api/admin/orders')).status).toBe(401);

    const id = await placeOrder();
    await deliverTyped(id, 'listed@wise.test', 'list-pass-1');
    const found = await list(`search=${id}`);
    expect(found.body.orders[0]).toMatchObject({ id, wiseEmail: 'listed@wise.test' });
    expect(found.body.orders[0]).not.toHaveProperty('wisePassword');
  });
});

describe('GET /api/admin/orders/:id', () => {
  it('answers one order to staff; 403 to customers, 401 without a token, 404 unknown', async () => {
    const id = await placeOrder();
    expect((await api.call<Order>('GET', `/api/admin/orders/${id}`, { user: moderator })).body.id).toBe(id);
    expect((await api.call('GET', `/api/admin/orders/${id}`, { user: customer })).status).toBe(403);
    expect((await api.call('GET', `/api/admin/orders/${id}`)).status).toBe(401);
    expect((await api.call('GET', `/api/admin/orders/${crypto.randomUUID()}`, { user: admin })).status).toBe(404);
  });
});

describe('PUT /api/admin/orders/:id', () => {
  it('sets the order status and the payment status, each with an audit row', async () => {
    const id = await placeOrder();
    const processing = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' } });
    expect(processing.status).toBe(200);
    expect(processing.body).toMatchObject({ id, orderStatus: 'processing', paymentStatus: 'pending' });

    const failed = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'failed', version: processing.body.version } });
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
      { productId: serviceId, price: '$30 USD' },
    ]);
    expect(trail.body[0]).toMatchObject({ action: 'order.update', actorId: admin.id, actorEmail: admin.email, entity: 'order', entityId: id });
  });

  it('answers 409 on a stale version and changes nothing', async () => {
    const id = await placeOrder();
    const before = await orderRow(id);
    await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' } });
    const stale = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'cancelled', version: before.version } });
    expect(stale.status).toBe(409);
    expect((await orderRow(id)).order_status).toBe('processing');
  });

  it('answers 400 naming the field for malformed bodies, and leaves the order as it was', async () => {
    const id = await placeOrder();
    const before = await orderRow(id);
    const cases: [Record<string, unknown>, string][] = [
      [{ orderStatus: 'shipped' }, 'orderStatus'],
      [{ paymentStatus: 'free' }, 'paymentStatus'],
      [{}, 'orderStatus'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test' }, 'wisePassword'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wisePassword: 'pw' }, 'wiseEmail'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'not-an-email', wisePassword: 'pw' }, 'wiseEmail'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: '' }, 'wisePassword'],
      [{ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: 'x'.repeat(201) }, 'wisePassword'],
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
    expect(await orderRow(id)).toEqual(before);
    expect((await api.call('PUT', '/api/admin/orders/nope', { user: admin, json: { orderStatus: 'processing' } })).status).toBe(400);
    expect((await api.call('PUT', `/api/admin/orders/${crypto.randomUUID()}`, { user: admin, json: { orderStatus: 'processing' } })).status).toBe(404);
  });

  it('answers 403 to customers, even for their own order, and 401 without a token', async () => {
    const id = await placeOrder();
    expect((await api.call('PUT', `/api/admin/orders/${id}`, { user: customer, json: { paymentStatus: 'paid' } })).status).toBe(403);
    expect((await api.call('PUT', `/api/admin/orders/${id}`, { json: { paymentStatus: 'paid' } })).status).toBe(401);
    expect((await orderRow(id)).payment_status).toBe('pending');
  });

  it('delivers typed credentials: paid and delivered, password sealed at rest, audit without the password', async () => {
    const id = await placeOrder();
    const password = `Typed-${random()}-pass`;
    const delivered = await deliverTyped(id, '  Typed.User@Wise.test ', password, { wiseImage: 'order-proofs/proof-9.jpg' });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ id, paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'Typed.User@Wise.test', stockId: null });
    expect(delivered.body).not.toHaveProperty('wisePassword');
    expect(delivered.body.wiseImage).toMatch(/^\/files\/order-proofs\/proof-9\.jpg\?expires=/);

    const row = await orderRow(id);
    expect(row.wise_image).toBe('order-proofs/proof-9.jpg');
    expect(row.wise_password_enc).not.toContain(password);
    expect(await api.deps.secrets.decrypt(row.wise_password_enc!)).toBe(password);
    expect(row.wise_password_index).toBe(await api.deps.secrets.blindIndex(password));
    expect(row.wise_email_index).toBe(await api.deps.secrets.blindIndex('typed.user@wise.test'));

    const trail = await auditRows(id);
    const deliver = trail.find((entry) => entry.action === 'order.deliver');
    expect(deliver?.details).toMatchObject({ delivered: 'typed', wiseEmail: 'Typed.User@Wise.test', proofImage: true, to: { paymentStatus: 'paid', orderStatus: 'delivered' } });
    expect(JSON.stringify(trail)).not.toContain(password);

    const owner = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(owner.body.find((o) => o.id === id)?.wisePassword).toBe(password);
  });

  it('answers a replayed Idempotency-Key with the first answer and applies the change once', async () => {
    const id = await placeOrder();
    const key = { 'Idempotency-Key': `set-status-${random()}` };
    const first = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' }, headers: key });
    expect(first.status).toBe(200);
    await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'completed' } });

    const replay = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' }, headers: key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect((await orderRow(id)).order_status).toBe('completed');
    expect((await auditRows(id)).filter((e) => e.action === 'order.update')).toHaveLength(2);

    // The same key on another order is another mutation.
    const other = await placeOrder();
    const elsewhere = await api.call<Order>('PUT', `/api/admin/orders/${other}`, { user: moderator, json: { orderStatus: 'processing' }, headers: key });
    expect(elsewhere.body.id).toBe(other);
    expect((await orderRow(other)).order_status).toBe('processing');

    const blank = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' }, headers: { 'Idempotency-Key': 'k'.repeat(201) } });
    expect(blank.status).toBe(400);
    expect(paths(blank.body)).toContain('idempotency-key');
  });

  it('delivers once when the same keyed delivery arrives several times at once', async () => {
    const id = await placeOrder();
    const headers = { 'Idempotency-Key': `deliver-${random()}` };
    const password = `Race-key-${random()}`;
    const answers = await Promise.all(Array.from({ length: 3 }, () => deliverTyped(id, 'keyed@wise.test', password, {}, headers)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[1]?.body).toEqual(answers[0]?.body);
    expect(answers[2]?.body).toEqual(answers[0]?.body);
    expect((await auditRows(id)).filter((e) => e.action === 'order.deliver')).toHaveLength(1);
  });

  it('delivers an available stock: the stock is sold to the customer and its account copied into the order', async () => {
    const id = await placeOrder();
    const password = `Stock-${random()}-pw`;
    const stockId = await seedStock('Stocked@Wise.test', password);
    const stockBefore = await stockRow(stockId);

    const delivered = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId } });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ id, paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'Stocked@Wise.test', stockId });
    expect(delivered.body).not.toHaveProperty('wisePassword');
    expect(delivered.body.wiseImage).toMatch(/^\/files\/stock-images\/auth-1\.png\?expires=/);

    const stock = await stockRow(stockId);
    expect(stock).toMatchObject({ status: 'sold', sold_to: customer.id, order_id: id });
    expect(stock.version).toBeGreaterThan(stockBefore.version);
    expect(stock.version).toBe((await orderRow(id)).version);
    const row = await orderRow(id);
    expect(row.wise_email_index).toBe(await api.deps.secrets.blindIndex('stocked@wise.test'));
    expect(row.wise_password_index).toBe(await api.deps.secrets.blindIndex(password));

    const owner = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(owner.body.find((o) => o.id === id)).toMatchObject({ wiseEmail: 'Stocked@Wise.test', wisePassword: password });

    const stockTrail = await auditRows(stockId);
    expect(stockTrail.map((e) => e.action)).toEqual(['wise_stock.sold']);
    expect(JSON.stringify([...stockTrail, ...(await auditRows(id))])).not.toContain(password);

    // The same stock again, to another order: refused, and that order stays as it was.
    const other = await placeOrder();
    const again = await api.call<ErrorBody>('PUT', `/api/admin/orders/${other}`, { user: admin, json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('stock_unavailable');
    expect(await orderRow(other)).toMatchObject({ payment_status: 'pending', order_status: 'pending', wise_email: null, stock_id: null });
  });

  it('refuses a stock that is not available or does not exist with 409 stock_unavailable', async () => {
    const id = await placeOrder();
    const suspended = await seedStock('suspended@wise.test', `Susp-${random()}`, 'suspended');
    const gone = await seedStock('gone@wise.test', `Gone-${random()}`);
    await api.db.updateTable('wise_stocks').set({ deleted_at: new Date() }).where('id', '=', gone).execute();
    for (const stockId of [suspended, gone, crypto.randomUUID()]) {
      const refused = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId } });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('stock_unavailable');
    }
    expect((await stockRow(suspended)).status).toBe('suspended');
    expect((await orderRow(id)).payment_status).toBe('pending');
  });

  it('sells one stock exactly once when ten deliveries of it race to ten orders', async () => {
    const buyers = await Promise.all(Array.from({ length: 10 }, () => api.createUser('user')));
    const orderIds = await Promise.all(buyers.map((buyer) => placeOrder(buyer)));
    const stockId = await seedStock('contested@wise.test', `Contested-${random()}`);

    const answers = await Promise.all(
      orderIds.map((id, i) =>
        api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${id}`, {
          user: i % 2 === 0 ? admin : moderator,
          json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
        }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    const losers = answers.filter((a) => a.status !== 200);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(9);
    expect(losers.every((a) => a.status === 409 && a.body.error.code === 'stock_unavailable')).toBe(true);

    const winner = winners[0]!.body;
    const stock = await stockRow(stockId);
    expect(stock).toMatchObject({ status: 'sold', order_id: winner.id, sold_to: winner.userId });
    const holders = await api.db.selectFrom('orders').select('id').where('stock_id', '=', stockId).execute();
    expect(holders.map((h) => h.id)).toEqual([winner.id]);
    const untouched = await api.db.selectFrom('orders').selectAll().where('id', 'in', orderIds).where('id', '<>', winner.id).execute();
    expect(untouched.every((o) => o.payment_status === 'pending' && o.wise_email === null)).toBe(true);
    expect((await auditRows(stockId)).filter((e) => e.action === 'wise_stock.sold')).toHaveLength(1);
  });
});

describe('DELETE /api/admin/orders/:id', () => {
  it('soft-deletes for admins only, with an audit row', async () => {
    const id = await placeOrder();
    const before = await orderRow(id);
    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: moderator })).status).toBe(403);
    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: customer })).status).toBe(403);
    expect((await api.call('DELETE', `/api/admin/orders/${id}`)).status).toBe(401);
    expect((await orderRow(id)).deleted_at).toBeNull();

    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: admin })).status).toBe(204);
    const row = await orderRow(id);
    expect(row.deleted_at).not.toBeNull();
    expect(row.version).toBeGreaterThan(before.version);
    expect((await api.call<AdminOrderPage>('GET', `/api/admin/orders?search=${id}`, { user: admin })).body.total).toBe(0);
    expect((await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer })).body.map((o) => o.id)).not.toContain(id);
    expect((await auditRows(id)).map((e) => e.action)).toContain('order.delete');
    expect((await api.call('DELETE', `/api/admin/orders/${id}`, { user: admin })).status).toBe(404);
    expect((await api.call('DELETE', '/api/admin/orders/nope', { user: admin })).status).toBe(400);
  });
});

describe('GET /api/admin/credentials/check', () => {
  const emailA = `Dup.A-${random()}@Wise.test`;
  const passwordA = `Pw-A-${random()}`;
  const emailB = `dup.b-${random()}@wise.test`;
  const passwordB = `Pw-B-${random()}`;
  let orderA: string;
  let orderB: string;

  beforeAll(async () => {
    orderA = await placeOrder();
    orderB = await placeOrder();
    expect((await deliverTyped(orderA, emailA, passwordA)).status).toBe(200);
    expect((await deliverTyped(orderB, emailB, passwordB)).status).toBe(200);
  });

  const check = (params: Record<string, string>, user: TestUser = moderator) =>
    api.call<CredentialsCheck & ErrorBody>('GET', `/api/admin/credentials/check?${new URLSearchParams(params)}`, { user });

  it('finds the exact pair in one order', async () => {
    expect((await check({ email: emailA, password: passwordA })).body).toEqual({ exactMatch: true, emailExists: true, passwordExists: true });
  });

  it('tells when the email and the password exist, but in different orders', async () => {
    expect((await check({ email: emailA, password: passwordB })).body).toEqual({ exactMatch: false, emailExists: true, passwordExists: true });
  });

  it('matches the email whatever its case and surrounding spaces', async () => {
    expect((await check({ email: `  ${emailA.toUpperCase()} `, password: 'brand-new' })).body).toEqual({ exactMatch: false, emailExists: true, passwordExists: false });
    expect((await check({ email: emailB.toUpperCase() })).body).toEqual({ exactMatch: false, emailExists: true, passwordExists: false });
  });

  it('matches the password exactly', async () => {
    expect((await check({ email: 'fresh@wise.test', password: passwordA })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: true });
    expect((await check({ email: 'fresh@wise.test', password: passwordA.toUpperCase() })).body.passwordExists).toBe(false);
    expect((await check({ email: 'fresh@wise.test', password: 'unused' })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
  });

  it('ignores the order being delivered and orders that are no longer paid', async () => {
    expect((await check({ email: emailA, password: passwordA, excludeOrderId: orderA })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
    await api.call('PUT', `/api/admin/orders/${orderB}`, { user: admin, json: { paymentStatus: 'refunded' } });
    expect((await check({ email: emailB, password: passwordB })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
  });

  it('is for staff only, and needs an email or a password', async () => {
    expect((await check({ email: emailA }, admin)).status).toBe(200);
    expect((await check({ email: emailA }, customer)).status).toBe(403);
    expect((await api.call('GET', `/api/admin/credentials/check?email=${emailA}`)).status).toBe(401);
    const empty = await check({});
    expect(empty.status).toBe(400);
    expect(paths(empty.body)).toContain('email');
    const badExclude = await check({ email: emailA, excludeOrderId: 'x' });
    expect(badExclude.status).toBe(400);
    expect(paths(badExclude.body)).toContain('excludeOrderId');
  });
});

describe('GET /api/admin/audit', () => {
  it('answers the trail of one order newest first, to admins only', async () => {
    const id = await placeOrder();
    await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' } });
    await api.call('PUT', `/api/admin/orders/${id}`, { user: admin, json: { orderStatus: 'completed' } });
    const trail = await api.call<AuditEntry[]>('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: admin });
    expect(trail.status).toBe(200);
    expect(trail.body.map((e) => [e.action, e.actorId])).toEqual([
      ['order.update', admin.id],
      ['order.update', moderator.id],
      ['order.create', customer.id],
    ]);
    expect(trail.body.every((e) => e.entity === 'order' && e.entityId === id && typeof e.createdAt === 'string')).toBe(true);

    expect((await api.call('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: moderator })).status).toBe(403);
    expect((await api.call('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: customer })).status).toBe(403);
    expect((await api.call('GET', `/api/admin/audit?entity=order&entityId=${id}`)).status).toBe(401);
    const bad = await api.call<ErrorBody>('GET', `/api/admin/audit?entity=orders&entityId=${id}`, { user: admin });
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toContain('entity');
  });
});

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('GET /api/admin/orders/export.csv', () => {
  it('downloads the filtered orders as CSV, escaped, formulas defused, without any password', async () => {
    const mark = `Csv${random()}`;
    const buyer = { id: crypto.randomUUID(), email: `+csv-${random()}@shop.test`, name: '=HYPERLINK("http://evil.test","click")' };
    const tricky = await seedOrder({ user: buyer, title: `Pro, "Plus"\nEdition ${mark}`, price: '-5 USD', paymentStatus: 'pending' });
    const plain = await seedOrder({ user: buyer, title: `Plain ${mark}`, price: '$30 USD', paymentStatus: 'pending' });
    const password = `Csv-secret-${random()}`;
    await api.db.updateTable('orders').set({ payment_status: 'paid' }).where('id', '=', plain).execute();
    const delivered = await deliverTyped(plain, 'lead@wise.test', password);
    expect(delivered.status).toBe(200);

    const exported = await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}`, { user: moderator });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect(exported.body).not.toContain(password);

    const [header, ...rows] = parseCsv(exported.body);
    expect(header).toEqual(['id', 'orderDate', 'title', 'category', 'price', 'userName', 'userEmail', 'paymentStatus', 'orderStatus', 'wiseEmail']);
    expect(rows.map((r) => r[0]).sort()).toEqual([tricky, plain].sort());
    const trickyRow = rows.find((r) => r[0] === tricky)!;
    expect(trickyRow[2]).toBe(`Pro, "Plus"\nEdition ${mark}`);
    expect(trickyRow[4]).toBe("'-5 USD");
    expect(trickyRow[5]).toBe(`'${buyer.name}`);
    expect(trickyRow[6]).toBe(`'${buyer.email}`);
    const plainRow = rows.find((r) => r[0] === plain)!;
    expect(plainRow.slice(7)).toEqual(['paid', 'delivered', 'lead@wise.test']);
    expect(rows.every((r) => r.length === 10)).toBe(true);

    const onlyPending = parseCsv((await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}&paymentStatus=pending`, { user: admin })).body);
    expect(onlyPending.slice(1).map((r) => r[0])).toEqual([tricky]);
  });

  it('exports every matching row across batches, in list order, even when many share a timestamp', async () => {
    const mark = `Bulk${random()}`;
    const buyer = await api.createUser('user');
    await api.db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      await sql`
        insert into orders (id, product_id, title, price, user_id, user_email, user_name, version, created_at, order_date)
        select gen_random_uuid(), ${serviceId}, ${`Bulk ${mark} `}::text || g, '1', ${buyer.id}, ${buyer.email}, 'Bulk Buyer', ${version},
               timestamptz '2024-03-01 00:00:00+00' + (g / 7) * interval '1.000001 second', now()
        from generate_series(1, 4321) g`.execute(trx);
    });
    const expected = await api.db
      .selectFrom('orders')
      .select('id')
      .where('title', 'like', `Bulk ${mark} %`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'asc')
      .execute();
    const exported = await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}`, { user: admin });
    const ids = parseCsv(exported.body).slice(1).map((r) => r[0]);
    expect(ids).toHaveLength(4321);
    expect(ids).toEqual(expected.map((r) => r.id));
  });

  it('is for staff only and checks its filters', async () => {
    expect((await api.call('GET', '/api/admin/orders/export.csv', { user: customer })).status).toBe(403);
    expect((await api.call('GET', '/api/admin/orders/export.csv')).status).toBe(401);
    const bad = await api.call<ErrorBody>('GET', '/api/admin/orders/export.csv?status=lost', { user: admin });
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toContain('status');
  });
});

describe('secrets at rest', () => {
  it('keeps every delivered and stocked password out of orders, audit log and idempotency records in plain text', async () => {
    expect(passwordsUsed.length).toBeGreaterThan(5);
    const dump = JSON.stringify([
      (await sql`select * from orders`.execute(api.db)).rows,
      (await sql`select * from audit_log`.execute(api.db)).rows,
      (await sql`select * from idempotency_keys`.execute(api.db)).rows,
    ]);
    for (const password of passwordsUsed) expect(dump).not.toContain(password);
  });
});
