import { beforeAll, describe, expect, it } from 'vitest';
import { WISE_PASSWORD_MAX } from '../contract/fields.ts';
import type { CredentialsCheck } from '../contract/orders.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { errorPaths as paths, orderTestBench, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
beforeAll(() => ({ api, admin, moderator, customer, orders } = bench));

describe('GET /api/admin/credentials/check', () => {
  const emailA = `Dup.A-${random()}@Wise.test`;
  const passwordA = `Pw-A-${random()}`;
  const emailB = `dup.b-${random()}@wise.test`;
  const passwordB = `Pw-B-${random()}`;
  let orderA: string;
  let orderB: string;

  beforeAll(async () => {
    orderA = await orders.placeOrder();
    orderB = await orders.placeOrder();
    expect((await orders.deliverTyped(orderA, emailA, passwordA)).status).toBe(200);
    expect((await orders.deliverTyped(orderB, emailB, passwordB)).status).toBe(200);
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
    expect((await check({ email: `  ${emailA.toUpperCase()} `, password: 'brand-new' })).body).toEqual({
      exactMatch: false,
      emailExists: true,
      passwordExists: false,
    });
    expect((await check({ email: emailB.toUpperCase() })).body).toEqual({ exactMatch: false, emailExists: true, passwordExists: false });
  });

  it('matches the password exactly', async () => {
    expect((await check({ email: 'fresh@wise.test', password: passwordA })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: true });
    expect((await check({ email: 'fresh@wise.test', password: passwordA.toUpperCase() })).body.passwordExists).toBe(false);
    expect((await check({ email: 'fresh@wise.test', password: 'unused' })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
  });

  it('ignores the order being delivered and orders that are no longer paid', async () => {
    expect((await check({ email: emailA, password: passwordA, excludeOrderId: orderA })).body).toEqual({
      exactMatch: false,
      emailExists: false,
      passwordExists: false,
    });
    await api.call('PUT', `/api/admin/orders/${orderB}`, { user: admin, json: { paymentStatus: 'refunded' } });
    expect((await check({ email: emailB, password: passwordB })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
  });

  it('takes a password as long as a Wise stock may hold, in the check and in a delivery', async () => {
    const longest = `Long-${random()}-`.padEnd(WISE_PASSWORD_MAX, 'x');
    expect((await check({ password: longest })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
    expect((await orders.deliverTyped(await orders.placeOrder(), `long-${random()}@wise.test`, longest)).status).toBe(200);
    expect((await check({ password: longest })).body.passwordExists).toBe(true);
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
