import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coupon } from '../contract/coupons.ts';
import type { Order } from '../contract/orders.ts';
import type { PriceQuote } from '../contract/pricing.ts';
import { priceFor } from '../operations/pricing.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import type { ErrorBody } from '../testing/order-fixtures.ts';
import { insertPricedService, placeOrderAs } from '../testing/sales-fixtures.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let reseller: TestUser;
let serviceId: string;
let textPriced: string;

const insertService = (title: string, price: string) => insertPricedService(api, title, price);

const order = (user: TestUser, json: Record<string, unknown>) => placeOrderAs(api, user, serviceId, json);
const rowOf = (id: string) =>
  api.db
    .selectFrom('orders')
    .select(['price', 'quantity', 'unit_price', 'price_rule', 'list_price', 'discount'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer, reseller] = await Promise.all([
    api.createUser('admin'),
    api.createUser('moderator'),
    api.createUser('user'),
    api.createUser('user'),
  ]);
  serviceId = await insertService('Gift Card', '10');
  textPriced = await insertService('Custom Work', 'Ask us');
  const tiers = await api.call('PUT', `/api/admin/pricing/services/${serviceId}/tiers`, {
    user: admin,
    json: {
      tiers: [
        { minQuantity: 5, unitPrice: '9' },
        { minQuantity: 10, unitPrice: '8.50' },
      ],
    },
  });
  expect(tiers.status).toBe(200);
});
afterAll(() => api.close());

describe('the pricing rule (decision 178)', () => {
  it('takes the lowest of list, tier and customer price, never stacked, a percentage rounded in the customer favour', () => {
    const tiers = [{ minQuantity: 5, unitCents: 900 }];
    expect(priceFor('10', 4, { tiers })).toMatchObject({ unitPrice: '10.00', total: '40.00', rule: { kind: 'list' } });
    expect(priceFor('10', 5, { tiers })).toMatchObject({ unitPrice: '9.00', total: '45.00', listTotal: '50.00', rule: { kind: 'tier', minQuantity: 5 } });
    expect(priceFor('10', 5, { tiers, customer: { unitCents: 950 } })).toMatchObject({ unitPrice: '9.00', rule: { kind: 'tier' } });
    expect(priceFor('10', 5, { tiers, customer: { unitCents: 800 } })).toMatchObject({ unitPrice: '8.00', rule: { kind: 'customer' } });
    expect(priceFor('9.99', 1, { tiers: [], customer: { percentOff: 15 } })).toMatchObject({ unitPrice: '8.49', rule: { kind: 'customer', percentOff: 15 } });
    expect(priceFor('Ask us', 1, { tiers })).toBeUndefined();
  });
});

describe('prices that reward regulars', () => {
  it('charges the quantity tier, and keeps the price an order was placed at when the tiers change', async () => {
    const four = await order(customer, { quantity: 4 });
    expect(four.status).toBe(201);
    expect(await rowOf(four.body.order.id)).toMatchObject({ price: '40.00', quantity: 4, unit_price: '10.00' });
    const ten = await order(customer, { quantity: 10 });
    expect(await rowOf(ten.body.order.id)).toMatchObject({ price: '85.00', quantity: 10, unit_price: '8.50' });
    expect(JSON.parse((await rowOf(ten.body.order.id)).price_rule!)).toEqual({ kind: 'tier', listUnit: '10.00', minQuantity: 10 });
    await api.call('PUT', `/api/admin/pricing/services/${serviceId}/tiers`, { user: admin, json: { tiers: [{ minQuantity: 5, unitPrice: '9' }] } });
    expect(await rowOf(ten.body.order.id)).toMatchObject({ price: '85.00', unit_price: '8.50' });
    const tenAgain = await order(customer, { quantity: 10 });
    expect(await rowOf(tenAgain.body.order.id)).toMatchObject({ price: '90.00', unit_price: '9.00' });
    await api.call('PUT', `/api/admin/pricing/services/${serviceId}/tiers`, {
      user: admin,
      json: {
        tiers: [
          { minQuantity: 5, unitPrice: '9' },
          { minQuantity: 10, unitPrice: '8.50' },
        ],
      },
    });
  });

  it("charges a reseller's own price (a service's unit price, else a percentage off everything) and nobody else", async () => {
    const set = await api.call<{ percentOff: number | null; services: unknown[] }>('PUT', `/api/admin/pricing/users/${reseller.id}`, {
      user: admin,
      json: { percentOff: 20, services: [] },
    });
    expect(set.body).toEqual({ percentOff: 20, services: [] });
    const one = await order(reseller, {});
    expect(await rowOf(one.body.order.id)).toMatchObject({ price: '8.00', unit_price: '8.00' });
    await api.call('PUT', `/api/admin/pricing/users/${reseller.id}`, { user: admin, json: { percentOff: 20, services: [{ serviceId, unitPrice: '7.25' }] } });
    const two = await order(reseller, { quantity: 2 });
    expect(await rowOf(two.body.order.id)).toMatchObject({ price: '14.50', unit_price: '7.25' });
    expect(JSON.parse((await rowOf(two.body.order.id)).price_rule!)).toMatchObject({ kind: 'customer', listUnit: '10.00' });
    const other = await order(customer, {});
    expect(await rowOf(other.body.order.id)).toMatchObject({ price: '10' });
  });

  it('applies a coupon to the total after the tier (a percentage on it, a minimum compared with it)', async () => {
    const made = await api.call<Coupon>('POST', '/api/admin/coupons', {
      user: admin,
      json: { code: `TIER-${crypto.randomUUID().slice(0, 6)}`, kind: 'percent', amount: '10', minTotal: '46' },
    });
    expect(made.status).toBe(201);
    // 5 × 9.00 = 45.00 after the tier: below the coupon's minimum of 46, though the list total is 50.
    const below = await order(customer, { quantity: 5, couponCode: made.body.code });
    expect(below.status).toBe(400);
    const placed = await order(customer, { quantity: 10, couponCode: made.body.code });
    expect(placed.status).toBe(201);
    expect(await rowOf(placed.body.order.id)).toMatchObject({ price: '76.50', list_price: '85.00', discount: '8.50', unit_price: '8.50', quantity: 10 });
  });

  it('shows staff the list price, the rule, the coupon and what was charged; the dashboard counts what was charged', async () => {
    const before = (await api.call<{ totalRevenue: number }>('GET', '/api/admin/orders/stats', { user: admin })).body.totalRevenue;
    const made = await api.call<Coupon>('POST', '/api/admin/coupons', {
      user: admin,
      json: { code: `STAFF-${crypto.randomUUID().slice(0, 6)}`, kind: 'fixed', amount: '5' },
    });
    const placed = await order(customer, { quantity: 5, couponCode: made.body.code });
    expect(placed.status).toBe(201);
    const seen = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: admin });
    const mine = seen.body.find((o) => o.id === placed.body.order.id)!;
    expect(mine).toMatchObject({
      price: '40.00',
      coupon: { code: made.body.code, listPrice: '45.00', discount: '5.00' },
      pricing: { quantity: 5, listUnit: '10.00', unitPrice: '9.00', rule: 'tier', minQuantity: 5 },
    });
    expect((await api.call('PUT', `/api/admin/orders/${placed.body.order.id}`, { user: admin, json: { paymentStatus: 'paid' } })).status).toBe(200);
    const after = (await api.call<{ totalRevenue: number }>('GET', '/api/admin/orders/stats', { user: admin })).body.totalRevenue;
    expect(Math.round((after - before) * 100)).toBe(4000);
  });

  it('quotes the unit price and total of a quantity before ordering, as the order is then charged (decision 232)', async () => {
    const ask = (user: TestUser | undefined, quantity: number, productId = serviceId) =>
      api.call<PriceQuote & ErrorBody>('POST', '/api/pricing/quote', { ...(user ? { user } : {}), json: { productId, quantity } });
    const tiers = [
      { minQuantity: 5, unitPrice: '9.00' },
      { minQuantity: 10, unitPrice: '8.50' },
    ];
    expect((await ask(customer, 4)).body).toEqual({
      soldByQuantity: true,
      tiers,
      quantity: 4,
      unitPrice: '10.00',
      total: '40.00',
      listTotal: '40.00',
      rule: 'list',
    });
    const ten = await ask(customer, 10);
    expect(ten.body).toMatchObject({ unitPrice: '8.50', total: '85.00', listTotal: '100.00', rule: 'tier', minQuantity: 10 });
    const placed = await order(customer, { quantity: 10 });
    expect((await rowOf(placed.body.order.id)).price).toBe(ten.body.total);
    // A signed-out visitor sees the tiers; the reseller their own price (7.25, set above).
    expect((await ask(undefined, 5)).body).toMatchObject({ unitPrice: '9.00', rule: 'tier' });
    expect((await ask(reseller, 2)).body).toMatchObject({ unitPrice: '7.25', total: '14.50', rule: 'customer' });
    expect((await ask(customer, 1, textPriced)).body).toMatchObject({ soldByQuantity: false, unitPrice: null, tiers: [] });
    expect((await ask(customer, 0)).status).toBe(400);
    expect((await ask(customer, 2, crypto.randomUUID())).status).toBe(404);
    // A coupon quoted for a quantity applies to that quantity's total, as placing the order does.
    const made = await api.call<Coupon>('POST', '/api/admin/coupons', {
      user: admin,
      json: { code: `QTY-${crypto.randomUUID().slice(0, 6)}`, kind: 'percent', amount: '10' },
    });
    const coupon = await api.call<ErrorBody & { listPrice: string; price: string }>('POST', '/api/coupons/quote', {
      user: customer,
      json: { code: made.body.code, productId: serviceId, quantity: 10 },
    });
    expect(coupon.body).toMatchObject({ listPrice: '85.00', price: '76.50' });
    const textCoupon = await api.call('POST', '/api/coupons/quote', { user: customer, json: { code: made.body.code, productId: textPriced, quantity: 2 } });
    expect(textCoupon.status).toBe(400);
  });

  it('sells a service without a plain price one at a time, and refuses a bad quantity', async () => {
    const many = await order(customer, { productId: textPriced, quantity: 2 });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toContain('quantity');
    expect((await order(customer, { productId: textPriced })).status).toBe(201);
    expect((await order(customer, { quantity: 0 })).status).toBe(400);
    expect((await order(customer, { quantity: 1.5 })).status).toBe(400);
  });

  it('lets only admins set tiers and customer prices, refusing bad ones and changing nothing', async () => {
    for (const user of [moderator, customer]) {
      expect((await api.call('PUT', `/api/admin/pricing/services/${serviceId}/tiers`, { user, json: { tiers: [] } })).status).toBe(403);
      expect((await api.call('PUT', `/api/admin/pricing/users/${customer.id}`, { user, json: { percentOff: 50, services: [] } })).status).toBe(403);
    }
    const dup = await api.call<ErrorBody>('PUT', `/api/admin/pricing/services/${serviceId}/tiers`, {
      user: admin,
      json: {
        tiers: [
          { minQuantity: 5, unitPrice: '1' },
          { minQuantity: 5, unitPrice: '2' },
        ],
      },
    });
    expect(dup.status).toBe(400);
    const read = await api.call<{ tiers: unknown[] }>('GET', `/api/admin/pricing/services/${serviceId}/tiers`, { user: admin });
    expect(read.body.tiers).toEqual([
      { minQuantity: 5, unitPrice: '9.00' },
      { minQuantity: 10, unitPrice: '8.50' },
    ]);
    expect((await api.call('PUT', `/api/admin/pricing/users/${crypto.randomUUID()}`, { user: admin, json: { percentOff: null, services: [] } })).status).toBe(
      404,
    );
  });
});
