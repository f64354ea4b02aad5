import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CredentialsCheck, Order } from '../contract/orders.ts';
import type { StockDuplicateCheck } from '../contract/wise-stocks.ts';
import { inProcessHarness, type TestUser } from '../testing/api-harness.ts';
import { nextWindowStart } from '../testing/limit-window.ts';
import { createOrderFixtures, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

// Decision 076: the duplicate checks are an oracle on delivered and stocked passwords, so each staff
// member may run only so many in 10 minutes, both check routes on one budget; and (decision 138) each
// delivery of lines or a server login draws its lines from a budget of its own before it is compared.

const LIMIT = 3;
const LINES = 5;
const WINDOW_MS = 600_000;

let api: Awaited<ReturnType<typeof inProcessHarness>>;
let admin: TestUser;
let moderator: TestUser;
let otherModerator: TestUser;
let customer: TestUser;
let orders: OrderFixtures;
const email = `limit-${random()}@wise.test`;
const password = `Limit-Pass-${random()}`;
// The API's clock (deps.clock reads Date) starts a second into a window of its own, so nothing here
// depends on when the test runs; only Date is faked, timers and the database run as ever.
const windowStart = nextWindowStart(WINDOW_MS);

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(windowStart + 1_000);
  api = await inProcessHarness({ rateLimits: { credentialChecksPer10Min: LIMIT, deliveredLinesPer10Min: LINES } });
  [admin, moderator, otherModerator, customer] = await Promise.all([
    api.createUser('admin'),
    api.createUser('moderator'),
    api.createUser('moderator'),
    api.createUser('user'),
  ]);
  orders = await createOrderFixtures(api, { admin, moderator, customer });
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
    expect(entries.map((entry) => (entry.details as { route: string }).route).sort()).toEqual([
      'GET /api/admin/credentials/check',
      'GET /api/wise-stocks/check',
    ]);
  });
});

describe('the budget of lines and server logins delivered per staff member', () => {
  // Each test has a staff member of its own, so they share the second window; the one after it is still
  // well within the life of the harness's sessions.
  const services = { lines: '', server: '' };
  beforeAll(async () => {
    for (const kind of ['lines', 'server'] as const) {
      const created = await api.call<{ id: string }>('POST', '/api/services', {
        user: admin,
        json: { title: `Limited ${kind}`, description: 'A service', category: 'Other', price: '5', deliveryTime: '1hour', deliveryKind: kind },
      });
      expect(created.status).toBe(201);
      services[kind] = created.body.id;
    }
  });

  const place = async (productId: string = services.lines) => {
    const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId } });
    expect(placed.status).toBe(201);
    return placed.body.order.id;
  };
  const deliver = (user: TestUser, orderId: string, json: Record<string, unknown>, headers?: Record<string, string>) =>
    api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${orderId}`, { user, json, headers });
  const server = (password: string) => ({ server: { host: 'vps.example.com', port: 22, user: 'root', password } });
  const deliveryOf = async (orderId: string) =>
    await api.db.selectFrom('orders').select(['delivery_kind', 'payment_status']).where('id', '=', orderId).executeTakeFirstOrThrow();
  const deliveredLinesEntries = (user: TestUser) =>
    api.db.selectFrom('audit_log').selectAll().where('action', '=', 'user.delivered_lines_limited').where('actor_id', '=', user.id).execute();
  /** A line delivered by another staff member, from their own budget: known to every later check. */
  const knownLine = async () => {
    const line = `10.0.0.1:${random()}`;
    expect((await deliver(await api.createUser('moderator'), await place(), { lines: [line] })).status).toBe(200);
    return line;
  };
  const expectLimited = (answer: Awaited<ReturnType<typeof deliver>>) => {
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe('rate_limited');
    expect(answer.headers.get('retry-after')).toBe('599');
    expect(JSON.stringify(answer.body)).not.toMatch(/already|stock|delivered/);
  };

  it('answers 429 past the budget alike for a secret that is known and one that is not, writes nothing, and records the refusal once', async () => {
    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    const staff = await api.createUser('moderator');
    const known = await knownLine();
    const knownPassword = `Server-${random()}`;
    expect((await deliver(await api.createUser('moderator'), await place(services.server), server(knownPassword))).status).toBe(200);
    // Five new lines spend the budget.
    expect((await deliver(staff, await place(), { lines: Array.from({ length: LINES }, (_, n) => `fresh-${n}-${random()}`) })).status).toBe(200);

    // A guess that is not known and one that is answer the same: a miss costs as much as a hit.
    const order = await place();
    const guess = `Guess-${random()}`;
    for (const lines of [[guess], [known], [known, guess]]) expectLimited(await deliver(staff, order, { lines, replace: true }));
    const serverOrder = await place(services.server);
    for (const password of [`Guess-${random()}`, knownPassword]) expectLimited(await deliver(staff, serverOrder, server(password)));
    for (const id of [order, serverOrder]) expect(await deliveryOf(id)).toEqual({ delivery_kind: null, payment_status: 'pending' });

    // Nothing else of the staff member's work is held: a typed account and the duplicate checks go on.
    const typed = await deliver(staff, await orders.placeOrder(), {
      paymentStatus: 'paid',
      orderStatus: 'delivered',
      wiseEmail: `typed-${random()}@wise.test`,
      wisePassword: `Typed-${random()}`,
    });
    expect(typed.status).toBe(200);
    expect((await orderCheck(staff)).status).toBe(200);

    const entries = await deliveredLinesEntries(staff);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_email: staff.email, entity: 'user', entity_id: staff.id });
    expect(entries[0]!.details).toEqual({ role: 'moderator', route: 'PUT /api/admin/orders/:id', limit: LINES, retryAfterSeconds: 599 });
    const logged = JSON.stringify(entries);
    for (const secret of [guess, known, knownPassword]) expect(logged).not.toContain(secret);
    expect(await limitedEntries(staff)).toHaveLength(0);
  });

  it('draws the distinct lines of a delivery that goes through, a server login as one, and refuses the one that would pass the budget', async () => {
    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    const staff = await api.createUser('moderator');
    const line = `fresh-${random()}`;
    // Three lines, one of them twice: 2 of 5. Sent again under its key, it is a replay and draws nothing.
    const keyed = { lines: [line, line, `fresh-${random()}`] };
    const order = await place();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    expect((await deliver(staff, order, keyed, headers)).status).toBe(200);
    expect((await deliver(staff, order, keyed, headers)).status).toBe(200);
    // A server login: 3 of 5.
    expect((await deliver(staff, await place(services.server), server(`Server-${random()}`))).status).toBe(200);
    // Two more: 5 of 5. One more would be 6: refused, and nothing written.
    expect((await deliver(staff, await place(), { lines: [`a-${random()}`, `b-${random()}`] })).status).toBe(200);
    const refused = await place();
    expectLimited(await deliver(staff, refused, { lines: [`c-${random()}`] }));
    expect(await deliveryOf(refused)).toEqual({ delivery_kind: null, payment_status: 'pending' });
  });

  it("no longer draws on the checks' budget when a delivery is refused as a duplicate", async () => {
    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    const staff = await api.createUser('moderator');
    const known = await knownLine();
    const order = await place();
    // Two refusals of two lines each: 4 lines of 5, and none of the 3 checks.
    for (let i = 0; i < 2; i += 1) {
      const refused = await deliver(staff, order, { lines: [known, `Guess-${random()}`] });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('duplicate_credentials');
    }
    for (let i = 0; i < LIMIT; i += 1) expect((await (i % 2 === 0 ? stockCheck(staff) : orderCheck(staff))).status).toBe(200);
    expect((await orderCheck(staff)).status).toBe(429);
  });

  it('takes a delivery larger than the whole budget in a window of its own, after checks as well', async () => {
    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    const staff = await api.createUser('moderator');
    const known = await knownLine();
    const many = () => Array.from({ length: 2 * LINES }, (_, n) => `many-${n}-${random()}`);
    // A check from an open modal first does not stand in its way: the budgets are apart.
    expect((await stockCheck(staff)).status).toBe(200);
    // Ten lines in a fresh window: compared, and refused for the one that is known (409, not 429).
    const order = await place();
    const refused = await deliver(staff, order, { lines: [known, ...many()] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('duplicate_credentials');
    expectLimited(await deliver(staff, order, { lines: many() }));

    // The next window takes ten new lines, and then nothing more.
    vi.setSystemTime(windowStart + 2 * WINDOW_MS + 1_000);
    expect((await deliver(staff, order, { lines: many() })).status).toBe(200);
    expectLimited(await deliver(staff, await place(), { lines: [`one-${random()}`] }));
  });
});
