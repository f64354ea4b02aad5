import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StockDuplicateCheck, WiseStock } from '../contract/wise-stocks.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { createOrderFixtures, random, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let fx: OrderFixtures;

type Refusal = { error: { code: string; message: string; details: StockDuplicateCheck } };

const newStock = (wiseEmail: string, wisePassword: string, extra: Record<string, unknown> = {}) => ({
  wiseName: 'Karim Uddin',
  wiseEmail,
  wisePassword,
  authImage: 'https://img.example/auth.jpg',
  userName: 'Stock Keeper',
  ...extra,
});

const add = (json: Record<string, unknown>) => api.call<WiseStock & Refusal>('POST', '/api/wise-stocks', { user: admin, json });
const check = (query: string) => api.call<StockDuplicateCheck>('GET', `/api/wise-stocks/check?${query}`, { user: moderator });
const stocksWith = async (email: string) =>
  (
    await api.db
      .selectFrom('wise_stocks')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(sql`lower(wise_email)`, '=', email.toLowerCase())
      .executeTakeFirstOrThrow()
  ).n;

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
  fx = await createOrderFixtures(api, { admin, moderator, customer });
});
afterAll(() => api.close());

describe('adding a Wise stock whose credentials are known already', () => {
  it('refuses an email already in stock (case aside) with 409 duplicate_credentials, saying where, and adds nothing', async () => {
    const email = `dup-${random()}@wise.test`;
    expect((await add(newStock(email, `First#${random()}`))).status).toBe(201);
    const refused = await add(newStock(email.toUpperCase(), `Other#${random()}`));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('duplicate_credentials');
    expect(refused.body.error.details).toEqual({
      exactMatch: false,
      emailExists: true,
      passwordExists: false,
      exactIn: [],
      emailIn: ['stock'],
      passwordIn: [],
    });
    expect(await stocksWith(email)).toBe(1);
  });

  it('refuses a password already in stock, found through the blind index', async () => {
    const password = `Shared#${random()}`;
    expect((await add(newStock(`a-${random()}@wise.test`, password))).status).toBe(201);
    const email = `b-${random()}@wise.test`;
    const refused = await add(newStock(email, password));
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({ exactMatch: false, emailExists: false, passwordExists: true, passwordIn: ['stock'] });
    expect(await stocksWith(email)).toBe(0);
  });

  it('refuses credentials already delivered to a paid order, and says the exact pair is there', async () => {
    const email = `sold-${random()}@wise.test`;
    const password = `Delivered#${random()}`;
    const orderId = await fx.placeOrder();
    expect((await fx.deliverTyped(orderId, email, password)).status).toBe(200);

    const refused = await add(newStock(`  ${email.toUpperCase()} `, password));
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual({
      exactMatch: true,
      emailExists: true,
      passwordExists: true,
      exactIn: ['order'],
      emailIn: ['order'],
      passwordIn: ['order'],
    });
    expect(await stocksWith(email)).toBe(0);
  });

  it('adds a duplicate when the admin overrides explicitly, and the audit log records the override', async () => {
    const email = `again-${random()}@wise.test`;
    const password = `Again#${random()}`;
    expect((await add(newStock(email, password))).status).toBe(201);
    const added = await add(newStock(email, password, { overrideDuplicates: true }));
    expect(added.status).toBe(201);
    expect(await stocksWith(email)).toBe(2);
    const [entry] = await fx.auditRows(added.body.id);
    expect(entry!.action).toBe('wise_stock.create');
    expect(JSON.stringify(entry!.details)).toContain('overrodeDuplicates');
    expect(JSON.stringify(entry!.details)).not.toContain(password);
  });

  it('ignores deleted stock and unpaid or deleted orders', async () => {
    const email = `gone-${random()}@wise.test`;
    const password = `Gone#${random()}`;
    const first = await add(newStock(email, password));
    expect((await api.call('DELETE', `/api/wise-stocks/${first.body.id}`, { user: admin })).status).toBe(204);
    const orderId = await fx.placeOrder();
    expect((await fx.deliverTyped(orderId, email, password)).status).toBe(200);
    expect((await api.call('DELETE', `/api/admin/orders/${orderId}`, { user: admin })).status).toBe(204);
    expect((await add(newStock(email, password))).status).toBe(201);
  });

  it('lets only one of two simultaneous additions of the same credentials in', async () => {
    const email = `race-${random()}@wise.test`;
    const password = `Race#${random()}`;
    const answers = await Promise.all([add(newStock(email, password)), add(newStock(email, password)), add(newStock(email, password))]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await stocksWith(email)).toBe(1);
  });

  it('answers a replayed create (same client id) with its stock, not with a duplicate refusal', async () => {
    const id = crypto.randomUUID();
    const body = newStock(`replay-${random()}@wise.test`, `Replay#${random()}`, { id });
    expect((await add(body)).status).toBe(201);
    const replay = await add(body);
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(id);
  });
});

describe('GET /api/wise-stocks/check', () => {
  it('tells staff whether an email or a password is in stock or delivered, while they type', async () => {
    const email = `typed-${random()}@wise.test`;
    const password = `Typed#${random()}`;
    expect((await check(`email=${encodeURIComponent(email)}`)).body).toMatchObject({ emailExists: false, passwordExists: false });
    expect((await add(newStock(email, password))).status).toBe(201);
    const both = await check(`email=${encodeURIComponent(email.toUpperCase())}&password=${encodeURIComponent(password)}`);
    expect(both.status).toBe(200);
    expect(both.body).toEqual({ exactMatch: true, emailExists: true, passwordExists: true, exactIn: ['stock'], emailIn: ['stock'], passwordIn: ['stock'] });
    expect((await check(`password=${encodeURIComponent(password)}`)).body).toMatchObject({ exactMatch: false, emailExists: false, passwordExists: true });
  });

  it('is for staff only', async () => {
    expect((await api.call('GET', '/api/wise-stocks/check?email=a%40b.test', { user: customer })).status).toBe(403);
    expect((await api.call('GET', '/api/wise-stocks/check?email=a%40b.test')).status).toBe(401);
  });
});
