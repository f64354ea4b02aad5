import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiOrder, ApiService, CreatedApiKey } from '../contract/partners.ts';
import type { Order } from '../contract/orders.ts';
import { nextVersion } from '../db/versions.ts';
import { createApiHarness, remoteApi, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import type { ErrorBody } from '../testing/order-fixtures.ts';

let api: ApiHarness;
let admin: TestUser;
let reseller: TestUser;
let plain: TestUser;

async function insertService(harness: ApiHarness, title: string, price: string) {
  const id = crypto.randomUUID();
  await harness.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id,
        title,
        description: title,
        category: 'wise',
        features: '[]',
        price,
        delivery_time: 'instant',
        payment_methods: '[]',
        version: await nextVersion(trx),
      })
      .execute();
  });
  return id;
}

async function keyFor(harness: ApiHarness, boss: TestUser, owner: TestUser) {
  const made = await harness.call<CreatedApiKey>('POST', '/api/admin/api-keys', {
    user: boss,
    json: { userId: owner.id, name: 'Reseller bot', scopes: ['services:read', 'orders:write', 'orders:read'] },
  });
  expect(made.status).toBe(201);
  return { authorization: `Bearer ${made.body.secret}` };
}

beforeAll(async () => {
  api = await createApiHarness();
  admin = await api.createUser('admin');
  reseller = await api.createUser('user', 'reseller');
  plain = await api.createUser('user', 'plain');
});
afterAll(() => api?.close());

describe("GET /api/v1/services: the key's account's own prices (decision 224)", () => {
  it("lists the reseller's price and tiers, and an order through the key is charged exactly those", async () => {
    const tiered = await insertService(api, 'Gift Card', '10');
    const discounted = await insertService(api, 'Gift Card Plus', '20');
    const asked = await insertService(api, 'Custom Work', 'Ask us');
    const tiers = { minQuantity: 5, unitPrice: '9' };
    expect(
      (await api.call('PUT', `/api/admin/pricing/services/${tiered}/tiers`, { user: admin, json: { tiers: [tiers, { minQuantity: 10, unitPrice: '7' }] } }))
        .status,
    ).toBe(200);
    // The reseller: 8.50 a unit for the gift card (below the 5+ tier, above the 10+ tier), 15 % off everything else.
    const prices = await api.call('PUT', `/api/admin/pricing/users/${reseller.id}`, {
      user: admin,
      json: { percentOff: 15, services: [{ serviceId: tiered, unitPrice: '8.50' }] },
    });
    expect(prices.status).toBe(200);

    const headers = await keyFor(api, admin, reseller);
    const listed = await api.call<ApiService[]>('GET', '/api/v1/services', { headers });
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.map((s) => [s.id, s]));
    expect(byId.get(tiered)).toMatchObject({ price: '8.50', listPrice: '10', tiers: [{ minQuantity: 10, unitPrice: '7.00' }] });
    expect(byId.get(discounted)).toMatchObject({ price: '17.00', listPrice: '20', tiers: [] });
    expect(byId.get(asked)).toMatchObject({ price: 'Ask us', listPrice: 'Ask us', tiers: [] });

    // Someone else's key sees the list prices and the shop's tiers.
    const theirs = await api.call<ApiService[]>('GET', '/api/v1/services', { headers: await keyFor(api, admin, plain) });
    expect(theirs.body.find((s) => s.id === tiered)).toMatchObject({
      price: '10',
      tiers: [
        { minQuantity: 5, unitPrice: '9.00' },
        { minQuantity: 10, unitPrice: '7.00' },
      ],
    });
    expect(theirs.body.find((s) => s.id === discounted)).toMatchObject({ price: '20', tiers: [] });

    const place = (json: Record<string, unknown>) => api.call<ApiOrder>('POST', '/api/v1/orders', { headers, json });
    const one = await place({ productId: tiered });
    expect(one.status).toBe(201);
    expect(one.body.price).toBe(byId.get(tiered)!.price);
    const ten = await place({ productId: tiered, quantity: 10 });
    expect(ten.body.price).toBe('70.00');
    const other = await place({ productId: discounted });
    expect(other.body.price).toBe(byId.get(discounted)!.price);
    const row = await api.db.selectFrom('orders').select(['unit_price', 'price_rule']).where('id', '=', other.body.id).executeTakeFirstOrThrow();
    expect(row.unit_price).toBe('17.00');
  });
});

// The limit of a remote entry is its own: a test cannot lower it there.
describe.skipIf(remoteApi !== undefined)('the per-account order limit (decision 224)', () => {
  it('counts orders from the app and from an API key together, and answers 429 with Retry-After past it', async () => {
    const limited = await createApiHarness({ rateLimits: { ordersPer10Min: 2 } });
    try {
      const boss = await limited.createUser('admin');
      const owner = await limited.createUser('user', 'limited');
      const serviceId = await insertService(limited, 'Gift Card', '10');
      const headers = await keyFor(limited, boss, owner);
      const fromApp = await limited.call<{ order: Order }>('POST', '/api/orders', { user: owner, json: { productId: serviceId } });
      expect(fromApp.status).toBe(201);
      expect((await limited.call('POST', '/api/v1/orders', { headers, json: { productId: serviceId } })).status).toBe(201);
      const over = await limited.call<ErrorBody>('POST', '/api/v1/orders', { headers, json: { productId: serviceId } });
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('rate_limited');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await limited.call('POST', '/api/orders', { user: owner, json: { productId: serviceId } })).status).toBe(429);
      const placed = await limited.db.selectFrom('orders').select('id').where('user_id', '=', owner.id).execute();
      expect(placed).toHaveLength(2);
      // Reading is not limited by it.
      expect((await limited.call('GET', '/api/v1/orders', { headers })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
