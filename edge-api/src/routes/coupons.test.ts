import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coupon, CouponQuote } from '../contract/coupons.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import type { ErrorBody } from '../testing/order-fixtures.ts';
import { insertPricedService, placeOrderAs } from '../testing/sales-fixtures.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let serviceId: string;
let otherServiceId: string;

const insertService = (title: string, price: string) => insertPricedService(api, title, price);

let codes = 0;
/** An admin makes a coupon; unique codes so the tests stay apart. */
async function makeCoupon(fields: Record<string, unknown> = {}): Promise<Coupon> {
  const answer = await api.call<Coupon>('POST', '/api/admin/coupons', {
    user: admin,
    json: { code: `TEST-${++codes}-${crypto.randomUUID().slice(0, 6)}`, kind: 'percent', amount: '10', ...fields },
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

const order = (user: TestUser, json: Record<string, unknown>) => placeOrderAs(api, user, serviceId, json);
const quote = (user: TestUser, code: string, productId = serviceId) =>
  api.call<CouponQuote & ErrorBody>('POST', '/api/coupons/quote', { user, json: { code, productId } });
const usesOf = async (id: string) => (await api.db.selectFrom('coupons').select('uses').where('id', '=', id).executeTakeFirstOrThrow()).uses;

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
  serviceId = await insertService('Wise Personal', '15');
  otherServiceId = await insertService('Cloud VPS', '120.50');
});
afterAll(() => api.close());

describe('coupons', () => {
  it('are made, listed and changed by admins only', async () => {
    const coupon = await makeCoupon({ code: 'welcome-five', kind: 'fixed', amount: '5' });
    expect(coupon).toMatchObject({ code: 'WELCOME-FIVE', kind: 'fixed', amount: '5.00', uses: 0, enabled: true });
    expect((await api.call('GET', '/api/admin/coupons', { user: moderator })).status).toBe(403);
    expect((await api.call('POST', '/api/admin/coupons', { user: customer, json: { code: 'MINE', kind: 'percent', amount: '100' } })).status).toBe(403);
    const listed = await api.call<{ coupons: Coupon[] }>('GET', '/api/admin/coupons', { user: admin });
    expect(listed.body.coupons.map((c) => c.code)).toContain('WELCOME-FIVE');
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const changed = await api.call<Coupon>('PUT', `/api/admin/coupons/${coupon.id}`, {
      user: admin,
      json: { code: 'WELCOME-FIVE', kind: 'fixed', amount: '6', enabled: false },
    });
    expect(changed.body).toMatchObject({ amount: '6.00', enabled: false });
  });

  it('refuses a bad coupon with a reason per field, and a code already taken', async () => {
    const bad = await api.call<ErrorBody>('POST', '/api/admin/coupons', {
      user: admin,
      json: { code: 'x', kind: 'percent', amount: '150', startsAt: '2026-12-02T00:00:00Z', endsAt: '2026-12-01T00:00:00Z' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.map((d) => d.path).sort()).toEqual(['amount', 'code', 'endsAt']);
    expect((await api.call<{ coupons: Coupon[] }>('GET', '/api/admin/coupons', { user: admin })).body.coupons.map((c) => c.code)).not.toContain('X');
    const taken = await makeCoupon();
    const again = await api.call<ErrorBody>('POST', '/api/admin/coupons', {
      user: admin,
      json: { code: taken.code.toLowerCase(), kind: 'fixed', amount: '1' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.details).toEqual([{ path: 'code', message: 'another coupon has this code' }]);
  });

  it('quotes the new total before ordering, and the order is charged it, keeping the list price', async () => {
    const coupon = await makeCoupon({ kind: 'percent', amount: '15' });
    const preview = await quote(customer, ` ${coupon.code.toLowerCase()} `);
    expect(preview.body).toEqual({ code: coupon.code, listPrice: '15.00', discount: '2.25', price: '12.75' });
    expect(await usesOf(coupon.id)).toBe(0);
    const placed = await order(customer, { couponCode: coupon.code });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ price: '12.75', coupon: { code: coupon.code, listPrice: '15.00', discount: '2.25' } });
    expect(await usesOf(coupon.id)).toBe(1);
    // The replay of the same order takes no second use.
    expect((await order(customer, { id: placed.body.order.id, couponCode: coupon.code })).status).toBe(200);
    expect(await usesOf(coupon.id)).toBe(1);
  });

  it('refuses an order whose coupon does not apply, and places nothing', async () => {
    const past = await makeCoupon({ endsAt: '2026-01-01T00:00:00Z' });
    const later = await makeCoupon({ startsAt: '2099-01-01T00:00:00Z' });
    const off = await makeCoupon({ enabled: false });
    const elsewhere = await makeCoupon({ serviceIds: [otherServiceId] });
    const big = await makeCoupon({ minTotal: '100' });
    const cases: [string, string][] = [
      ['NO-SUCH-CODE', 'This coupon code is not valid.'],
      [off.code, 'This coupon code is not valid.'],
      [past.code, 'This coupon has expired.'],
      [later.code, 'This coupon cannot be used yet.'],
      [elsewhere.code, 'This coupon is not for this service.'],
      [big.code, 'This coupon needs an order of at least 100.00.'],
    ];
    for (const [code, message] of cases) {
      const id = crypto.randomUUID();
      const refused = await order(customer, { id, couponCode: code });
      expect(refused.status, code).toBe(400);
      expect(refused.body.error.details).toEqual([{ path: 'couponCode', message }]);
      expect(await api.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      expect((await quote(customer, code)).body.error.details).toEqual([{ path: 'couponCode', message }]);
    }
    expect((await quote(customer, big.code, otherServiceId)).body).toMatchObject({ listPrice: '120.50', price: '108.45' });
  });

  it('keeps a first-order coupon and a per-customer limit', async () => {
    const newcomer = await api.createUser('user');
    const first = await makeCoupon({ firstOrderOnly: true });
    const twice = await makeCoupon({ maxUsesPerCustomer: 2, kind: 'fixed', amount: '20' });
    expect((await order(newcomer, { couponCode: first.code })).body.order.price).toBe('13.50');
    expect((await order(newcomer, { couponCode: first.code })).body.error.details).toEqual([
      { path: 'couponCode', message: 'This coupon is for a first order only.' },
    ]);
    expect((await order(newcomer, { couponCode: twice.code })).body.order).toMatchObject({ price: '0.00', coupon: { discount: '15.00' } });
    expect((await order(newcomer, { couponCode: twice.code })).status).toBe(201);
    expect((await order(newcomer, { couponCode: twice.code })).body.error.details).toEqual([
      { path: 'couponCode', message: 'You have already used this coupon as often as it allows.' },
    ]);
  });

  it('gives its last use to exactly one of many customers ordering at the same moment', async () => {
    const last = await makeCoupon({ maxUses: 1 });
    const buyers = await Promise.all(Array.from({ length: 6 }, () => api.createUser('user')));
    const answers = await Promise.all(buyers.map((buyer) => order(buyer, { couponCode: last.code })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400))
      expect(refused.body.error.details).toEqual([{ path: 'couponCode', message: 'This coupon has been used up.' }]);
    expect(await usesOf(last.id)).toBe(1);
    expect(
      Number(
        (
          await api.db
            .selectFrom('coupon_uses')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('coupon_id', '=', last.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);
  });
});
