import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import { nextVersion } from '../db/versions.ts';
import { createSecrets } from '../lib/secrets.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}
interface Placed {
  success: true;
  order: Order;
}

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let otherCustomer: TestUser;
let serviceId: string;

async function insertService(fields: { title: string; price: string; deliveryTime?: string }) {
  const id = crypto.randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id,
        title: fields.title,
        description: `${fields.title}, ready to use`,
        category: 'wise',
        features: JSON.stringify(['Verified']),
        popular: false,
        image: 'https://img.example/wise.png',
        price: fields.price,
        delivery_time: fields.deliveryTime ?? 'instant',
        payment_methods: JSON.stringify(['binance']),
        version: await nextVersion(trx),
      })
      .execute();
  });
  return id;
}

const orderCount = async () =>
  Number(
    (
      await api.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer, otherCustomer] = await Promise.all([
    api.createUser('admin'),
    api.createUser('moderator'),
    api.createUser('user'),
    api.createUser('user'),
  ]);
  serviceId = await insertService({ title: 'Wise Business Account', price: '$25.50 USD' });
});
afterAll(() => api.close());

describe('POST /api/orders', () => {
  it('copies title, price and the rest from the service and the customer from the token, whatever the body says', async () => {
    const placed = await api.call<Placed>('POST', '/api/orders', {
      user: customer,
      json: {
        productId: serviceId,
        title: 'Free stuff',
        price: '0',
        description: 'lies',
        userId: otherCustomer.id,
        userEmail: 'someone@else.test',
        userName: 'Someone Else',
        paymentStatus: 'paid',
        orderStatus: 'delivered',
        orderDate: '2001-01-01T00:00:00.000Z',
        wiseEmail: 'x@y.test',
      },
    });
    expect(placed.status).toBe(201);
    expect(placed.body.success).toBe(true);
    const order = placed.body.order;
    expect(order).toMatchObject({
      productId: serviceId,
      title: 'Wise Business Account',
      description: 'Wise Business Account, ready to use',
      category: 'wise',
      image: 'https://img.example/wise.png',
      price: '$25.50 USD',
      deliveryTime: 'instant',
      userId: customer.id,
      userEmail: customer.email,
      paymentStatus: 'pending',
      orderStatus: 'pending',
    });
    expect(order.userName).toMatch(/^user /);
    expect(order.wiseEmail).toBeUndefined();
    expect(Date.now() - Date.parse(order.orderDate)).toBeLessThan(60_000);
    const row = await api.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(row.price).toBe('$25.50 USD');
    expect(row.user_id).toBe(customer.id);
    expect(row.wise_email).toBeNull();
  });

  it('answers a replayed id with the existing order and creates nothing', async () => {
    const id = crypto.randomUUID();
    const first = await api.call<Placed>('POST', '/api/orders', { user: customer, json: { id, productId: serviceId } });
    expect(first.status).toBe(201);
    const before = await orderCount();
    const replay = await api.call<Placed>('POST', '/api/orders', { user: customer, json: { id, productId: serviceId, title: 'changed' } });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ success: true, order: first.body.order });
    expect(await orderCount()).toBe(before);
  });

  it('places exactly one order when the same id is sent several times at once', async () => {
    const id = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api.call<Placed>('POST', '/api/orders', { user: customer, json: { id, productId: serviceId } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.order.id))).toEqual(new Set([id]));
    const rows = await api.db.selectFrom('orders').select('id').where('id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses an id that is another customer's order with 409 and leaves that order alone", async () => {
    const id = crypto.randomUUID();
    await api.call('POST', '/api/orders', { user: customer, json: { id, productId: serviceId } });
    const taken = await api.call<ErrorBody>('POST', '/api/orders', { user: otherCustomer, json: { id, productId: serviceId } });
    expect(taken.status).toBe(409);
    const row = await api.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(customer.id);
  });

  it('answers 404 for an unknown or deleted service and 400 naming a malformed id or productId, creating nothing', async () => {
    const before = await orderCount();
    const unknown = await api.call<ErrorBody>('POST', '/api/orders', { user: customer, json: { productId: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    const gone = await insertService({ title: 'Gone', price: '5' });
    await api.db.updateTable('services').set({ deleted_at: new Date() }).where('id', '=', gone).execute();
    expect((await api.call('POST', '/api/orders', { user: customer, json: { productId: gone } })).status).toBe(404);

    const badProduct = await api.call<ErrorBody>('POST', '/api/orders', { user: customer, json: { productId: 'abc' } });
    expect(badProduct.status).toBe(400);
    expect(badProduct.body.error.details?.map((d) => d.path)).toContain('productId');
    const missingProduct = await api.call<ErrorBody>('POST', '/api/orders', { user: customer, json: {} });
    expect(missingProduct.status).toBe(400);
    expect(missingProduct.body.error.details?.map((d) => d.path)).toContain('productId');
    const badId = await api.call<ErrorBody>('POST', '/api/orders', { user: customer, json: { id: 'order-1', productId: serviceId } });
    expect(badId.status).toBe(400);
    expect(badId.body.error.details?.map((d) => d.path)).toContain('id');
    expect(await orderCount()).toBe(before);
  });

  it('answers 401 without a token and 403 for an account without a user record', async () => {
    const before = await orderCount();
    expect((await api.call('POST', '/api/orders', { json: { productId: serviceId } })).status).toBe(401);
    const ghost = await api.createAccount();
    expect((await api.call('POST', '/api/orders', { user: ghost, json: { productId: serviceId } })).status).toBe(403);
    expect(await orderCount()).toBe(before);
  });
});

describe('GET /api/orders/user/:userId', () => {
  it("lists a customer's own orders newest first, and nobody else's", async () => {
    const buyer = await api.createUser('user');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const placed = await api.call<Placed>('POST', '/api/orders', { user: buyer, json: { productId: serviceId } });
      ids.push(placed.body.order.id);
      await api.db
        .updateTable('orders')
        .set({ created_at: new Date(Date.UTC(2026, 0, 1 + i)) })
        .where('id', '=', placed.body.order.id)
        .execute();
    }
    await api.call('POST', '/api/orders', { user: otherCustomer, json: { productId: serviceId } });

    const mine = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(mine.status).toBe(200);
    expect(mine.body.map((o) => o.id)).toEqual([...ids].reverse());
  });

  it('pages a long history with a cursor: every order once, newest first, ties on the creation time included', async () => {
    const buyer = await api.createUser('user');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const placed = await api.call<Placed>('POST', '/api/orders', { user: buyer, json: { productId: serviceId } });
      ids.push(placed.body.order.id);
    }
    // Three orders share one creation time, to the microsecond.
    const same = new Date(Date.UTC(2026, 1, 1));
    await api.db.updateTable('orders').set({ created_at: same }).where('id', 'in', ids.slice(2, 5)).execute();
    const everything = (await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer })).body.map((o) => o.id);
    expect(everything).toHaveLength(7);

    const paged: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const answer: { status: number; body: Order[]; headers: Headers } = await api.call<Order[]>(
        'GET',
        `/api/orders/user/${buyer.id}?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        { user: buyer },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBeLessThanOrEqual(3);
      paged.push(...answer.body.map((o) => o.id));
      cursor = answer.headers.get('x-next-cursor');
      if (!cursor) break;
    }
    expect(paged).toEqual(everything);
  });

  it("lets staff read a customer's orders; another customer gets 403, no token 401, a malformed id 400", async () => {
    await api.call('POST', '/api/orders', { user: customer, json: { productId: serviceId } });
    const byModerator = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: moderator });
    expect(byModerator.status).toBe(200);
    expect(byModerator.body.length).toBeGreaterThan(0);
    expect(byModerator.body.every((o) => o.userId === customer.id)).toBe(true);
    expect((await api.call('GET', `/api/orders/user/${customer.id}`, { user: admin })).status).toBe(200);
    expect((await api.call('GET', `/api/orders/user/${customer.id}`, { user: otherCustomer })).status).toBe(403);
    expect((await api.call('GET', `/api/orders/user/${customer.id}`)).status).toBe(401);
    const bad = await api.call<ErrorBody>('GET', '/api/orders/user/me', { user: customer });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.map((d) => d.path)).toContain('userId');
  });

  it('shows the owner the credentials only once delivered; staff never get the password', async () => {
    const buyer = await api.createUser('user');
    const placed = await api.call<Placed>('POST', '/api/orders', { user: buyer, json: { productId: serviceId } });
    const id = placed.body.order.id;

    const before = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(before.body[0]).not.toHaveProperty('wiseEmail');
    expect(before.body[0]).not.toHaveProperty('wisePassword');

    const delivered = await api.call<Order>('PUT', `/api/admin/orders/${id}`, {
      user: moderator,
      json: {
        paymentStatus: 'paid',
        orderStatus: 'delivered',
        wiseEmail: 'delivered@wise.test',
        wisePassword: 'S3cret-pass!',
        wiseImage: 'order-proofs/proof-1.png',
      },
    });
    expect(delivered.status).toBe(200);

    const owner = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(owner.body[0]).toMatchObject({
      id,
      wiseEmail: 'delivered@wise.test',
      wisePassword: 'S3cret-pass!',
      orderStatus: 'delivered',
      paymentStatus: 'paid',
    });
    expect(owner.body[0]?.wiseImage).toMatch(/^\/files\/order-proofs\/proof-1\.png\?expires=\d+&sig=/);

    const staff = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: admin });
    expect(staff.body[0]).toMatchObject({ id, wiseEmail: 'delivered@wise.test' });
    expect(staff.body[0]?.wiseImage).toMatch(/^\/files\/order-proofs\/proof-1\.png\?/);
    expect(staff.body[0]).not.toHaveProperty('wisePassword');

    // Refunded afterwards: the customer no longer sees the account.
    await api.call('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'refunded' } });
    const refunded = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(refunded.body[0]).not.toHaveProperty('wisePassword');
  });

  it('passes an external proof image URL through unchanged', async () => {
    const buyer = await api.createUser('user');
    const placed = await api.call<Placed>('POST', '/api/orders', { user: buyer, json: { productId: serviceId } });
    await api.call('PUT', `/api/admin/orders/${placed.body.order.id}`, {
      user: admin,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'a@wise.test', wisePassword: 'pw', wiseImage: 'https://i.ibb.co/abc/proof.png' },
    });
    const owner = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(owner.body[0]?.wiseImage).toBe('https://i.ibb.co/abc/proof.png');
  });

  it("reports a delivered password it cannot read on that order only, and still lists the customer's orders", async () => {
    const buyer = await api.createUser('user');
    const readable = await api.call<Placed>('POST', '/api/orders', { user: buyer, json: { productId: serviceId } });
    const damaged = await api.call<Placed>('POST', '/api/orders', { user: buyer, json: { productId: serviceId } });
    for (const placed of [readable, damaged]) {
      await api.call('PUT', `/api/admin/orders/${placed.body.order.id}`, {
        user: admin,
        json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'both@wise.test', wisePassword: 'Readable#1' },
      });
    }
    // Sealed under a key this server does not have, as after a data key was lost or mixed up.
    const stranger = await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32)));
    await api.db
      .updateTable('orders')
      .set({ wise_password_enc: await stranger.encrypt('Lost#1') })
      .where('id', '=', damaged.body.order.id)
      .execute();

    const mine = await api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(mine.status).toBe(200);
    const byId = new Map(mine.body.map((order) => [order.id, order]));
    expect(byId.get(readable.body.order.id)).toMatchObject({ wiseEmail: 'both@wise.test', wisePassword: 'Readable#1' });
    expect(byId.get(readable.body.order.id)).not.toHaveProperty('wisePasswordUnreadable');
    expect(byId.get(damaged.body.order.id)).toMatchObject({ wiseEmail: 'both@wise.test', wisePasswordUnreadable: true });
    expect(byId.get(damaged.body.order.id)).not.toHaveProperty('wisePassword');
  });
});
