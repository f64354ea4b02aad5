import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CredentialsCheck, Order } from '../contract/orders.ts';
import type { StockDuplicateCheck } from '../contract/wise-stocks.ts';
import { inProcessHarness, type TestUser } from '../testing/api-harness.ts';
import { createOrderFixtures, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Decision 076: the duplicate checks are an oracle on delivered and stocked passwords, so each staff
// member may run only so many in 10 minutes, both check routes on one budget.

const LIMIT = 3;
const WINDOW_MS = 600_000;

let api: Awaited<ReturnType<typeof inProcessHarness>>;
let admin: TestUser;
let moderator: TestUser;
let otherModerator: TestUser;
let customer: TestUser;
const email = `limit-${random()}@wise.test`;
const password = `Limit-Pass-${random()}`;
// The API's clock (deps.clock reads Date) starts a second into a window of its own, so nothing here
// depends on when the test runs; only Date is faked, timers and the database run as ever.
const windowStart = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(windowStart + 1_000);
  api = await inProcessHarness({ rateLimits: { credentialChecksPer10Min: LIMIT } });
  [admin, moderator, otherModerator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('moderator'), api.createUser('user')]);
  const orders = await createOrderFixtures(api, { admin, moderator, customer });
  expect((await orders.deliverTyped(await orders.placeOrder(), email, password)).status).toBe(200);
});
afterEach(() => {
  // Each test leaves the clock where it found it: a second into the first window.
  vi.setSystemTime(windowStart + 1_000);
});
afterAll(async () => {
  vi.useRealTimers();
  await api.close();
});

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
const orderCheck = (user: TestUser, params: Record<string, string> = { email, password }) =>
  api.call<CredentialsCheck & ErrorBody>('GET', `/api/admin/credentials/check?${query(params)}`, { user });
const stockCheck = (user: TestUser, params: Record<string, string> = { email, password }) =>
  api.call<StockDuplicateCheck & ErrorBody>('GET', `/api/wise-stocks/check?${query(params)}`, { user });
const limitedEntries = (user: TestUser) =>
  api.db.selectFrom('audit_log').selectAll().where('action', '=', 'user.credential_checks_limited').where('actor_id', '=', user.id).execute();

describe('the limit on duplicate checks per staff member', () => {
  it('answers 429 rate_limited with Retry-After past the limit on either route, and records the refusal once, without what was asked', async () => {
    // Both routes draw on one budget: two of one, one of the other, and the limit is reached.
    expect((await stockCheck(moderator)).body).toMatchObject({ exactMatch: true, emailExists: true, passwordExists: true });
    expect((await orderCheck(moderator)).body).toEqual({ exactMatch: true, emailExists: true, passwordExists: true });
    expect((await stockCheck(moderator, { password: 'not-it' })).body).toMatchObject({ passwordExists: false });

    for (const refused of [await stockCheck(moderator), await orderCheck(moderator), await orderCheck(moderator, { password: `Guess-${random()}` })]) {
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      // The window ends 599 seconds after this clock's time.
      expect(refused.headers.get('retry-after')).toBe('599');
      // Nothing of the check is answered.
      expect(refused.body).not.toHaveProperty('passwordExists');
      expect(refused.body).not.toHaveProperty('exactMatch');
    }

    // One audit entry for the window however often it is refused: who, their role, which route.
    const entries = await limitedEntries(moderator);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_email: moderator.email, entity: 'user', entity_id: moderator.id });
    expect(entries[0]!.details).toEqual({ role: 'moderator', route: 'GET /api/wise-stocks/check', limit: LIMIT, retryAfterSeconds: 599 });
    const logged = JSON.stringify(entries);
    expect(logged).not.toContain(password);
    expect(logged).not.toContain(email);
    expect(logged).not.toContain('Guess-');
  });

  it('leaves other staff members their own budget', async () => {
    expect((await orderCheck(moderator)).status).toBe(429);
    for (let i = 0; i < LIMIT; i += 1) {
      const answer = await (i % 2 === 0 ? orderCheck(otherModerator) : stockCheck(otherModerator));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ exactMatch: true, passwordExists: true });
    }
    expect((await stockCheck(admin)).body).toMatchObject({ exactMatch: true });
    expect(await limitedEntries(admin)).toHaveLength(0);
  });

  it('answers again once the window is over, counting no request refused for its input', async () => {
    expect((await stockCheck(moderator)).status).toBe(429);

    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    // Without an email or a password: 400, and not counted.
    for (let i = 0; i < LIMIT; i += 1) expect((await stockCheck(moderator, {})).status).toBe(400);
    expect((await stockCheck(moderator)).body).toMatchObject({ exactMatch: true, emailExists: true, passwordExists: true });
    expect((await orderCheck(moderator, { password })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: true });
    expect((await orderCheck(moderator, { password: 'not-it' })).body).toEqual({ exactMatch: false, emailExists: false, passwordExists: false });
    const refused = await orderCheck(moderator);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('599');
    // A new window, a new audit entry, naming the route refused this time.
    const entries = await limitedEntries(moderator);
    expect(entries.map((entry) => (entry.details as { route: string }).route).sort()).toEqual(['GET /api/admin/credentials/check', 'GET /api/wise-stocks/check']);
  });

  it('counts a delivery refused as a duplicate as a check of each of its lines, and answers 429 past the limit without saying whether', async () => {
    const lines = await api.call<{ id: string }>('POST', '/api/services', {
      user: admin,
      json: { title: 'Proxy Lines', description: 'Residential', category: 'Other', price: '5', deliveryTime: '1hour', deliveryKind: 'lines' },
    });
    expect(lines.status).toBe(201);
    const place = async () => (await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: lines.body.id } })).body.order.id;
    const deliver = (orderId: string, json: Record<string, unknown>) =>
      api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${orderId}`, { user: otherModerator, json });
    vi.setSystemTime(windowStart + 2 * WINDOW_MS + 1_000);

    // Delivered: written and audited, not counted.
    const known = `10.0.0.1:${random()}`;
    expect((await deliver(await place(), { lines: [known] })).status).toBe(200);
    // A known line beside a guess: refused, nothing written, and both lines are counted (2 of 3).
    const order = await place();
    const refused = await deliver(order, { lines: [known, `Guess-${random()}`] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('duplicate_credentials');
    // Two more would pass the limit: 429, and the answer does not say whether they are known.
    const limited = await deliver(order, { lines: [known, `Guess-${random()}`] });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('599');
    expect(JSON.stringify(limited.body)).not.toMatch(/already|lines/);
    expect((await api.db.selectFrom('orders').select('delivery_kind').where('id', '=', order).executeTakeFirstOrThrow()).delivery_kind).toBeNull();
    // The checks draw on the same budget; a delivery that goes through still does.
    expect((await stockCheck(otherModerator)).status).toBe(429);
    expect((await deliver(order, { lines: [`10.0.0.2:${random()}`] })).status).toBe(200);
    const entries = await limitedEntries(otherModerator);
    expect(entries.map((entry) => (entry.details as { route: string }).route)).toContain('PUT /api/admin/orders/:id');
  });
});
