import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { nextVersion } from './db/versions.ts';
import { inProcessHarness, type TestUser } from './testing/api-harness.ts';
import { routeTable, type Access, type BadInput } from './testing/route-table.ts';

// The security tests every route shares (after Unkey's common tests): each route of createApp is in the
// route table with who may call it, is refused to everyone else, and refuses bad input changing nothing.
// In this process: the table is checked against the routes of createApp itself.

let api: Awaited<ReturnType<typeof inProcessHarness>>;
type Caller = 'nobody' | 'account' | 'user' | 'moderator' | 'admin';
const callers: Record<Exclude<Caller, 'nobody'>, { token: string; id: string }> = {} as never;

beforeAll(async () => {
  api = await inProcessHarness();
  callers.account = await api.createAccount();
  for (const role of ['user', 'moderator', 'admin'] as const) {
    const person: TestUser = await api.createUser(role);
    callers[role] = { id: person.id, token: person.token };
  }
});
afterAll(() => api.close());

const rank: Record<Caller, number> = { nobody: 0, account: 1, user: 2, moderator: 3, admin: 4 };
const needed: Record<Access, number> = { anyone: 0, account: 1, user: 2, staff: 3, admin: 4, key: 5 };
/** The least of the callers a route admits: bad input is sent as that caller. */
const lowest: Record<Access, Caller> = { anyone: 'nobody', account: 'account', user: 'user', staff: 'moderator', admin: 'admin', key: 'admin' };

const routesOfApp = () =>
  [
    ...new Set(
      createApp(api.deps)
        .routes.filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method} ${route.path}`),
    ),
  ].sort();

/** The route's path with its parameters filled: the caller's own id for a user id, any UUID otherwise. */
function pathFor(path: string, caller: Caller) {
  const own = caller === 'nobody' ? crypto.randomUUID() : callers[caller].id;
  return path.replace(/:(uid|userId)\b/g, own).replace(/:id\b/g, crypto.randomUUID());
}

function send(method: string, path: string, caller: Caller, input: BadInput = {}) {
  const headers: Record<string, string> = {};
  if (caller !== 'nobody') headers.authorization = `Bearer ${callers[caller].token}`;
  let body: string | undefined;
  if (input.json !== undefined || input.body !== undefined) {
    headers['content-type'] = input.type ?? 'application/json';
    body = input.body ?? JSON.stringify(input.json);
  }
  const target = (input.path ?? path) + (input.query !== undefined ? `?${input.query}` : '');
  return api.app.request(target, { method, headers, body });
}

/** What a request could have changed: the newest version of any synced row (every writing transaction stamps its rows with a new one) and the row counts. */
async function footprint() {
  const counts = await sql<Record<string, number>>`
    select greatest((select max(version) from users), (select max(version) from services), (select max(version) from orders),
                    (select max(version) from wise_stocks), (select max(version) from settings), (select max(version) from notifications),
                    (select max(version) from service_stocks)) as version,
           (select count(*) from users) as users, (select count(*) from services) as services,
           (select count(*) from orders) as orders, (select count(*) from wise_stocks) as stocks,
           (select count(*) from settings) as settings, (select count(*) from audit_log) as audit,
           (select count(*) from idempotency_keys) as keys`.execute(api.db);
  return counts.rows[0];
}

describe('the route table', () => {
  it('has a row for every route of the app, and no row for a route the app does not have', () => {
    expect(routesOfApp()).toEqual(Object.keys(routeTable).sort());
  });
});

describe.each(Object.entries(routeTable))('%s', (route, row) => {
  const [method, path] = route.split(' ') as [string, string];

  it(`admits ${row.access === 'anyone' ? 'anyone' : `only ${row.access}`}: 401 without a token, 403 below that`, async () => {
    for (const caller of Object.keys(rank) as Caller[]) {
      const status = (await send(method, pathFor(path, caller), caller)).status;
      if (rank[caller] >= needed[row.access]) expect([401, 403], `${caller} must be let through`).not.toContain(status);
      // A route for API keys refuses every session token as it refuses none (decision 173).
      else expect(status, `${caller} must be refused`).toBe(caller === 'nobody' || row.access === 'key' ? 401 : 403);
    }
  });

  it('answers 401 to a token it cannot verify', async () => {
    const response = await api.app.request(pathFor(path, 'nobody'), { method, headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl' } });
    expect(response.status).toBe(401);
  });

  // Routes that read no input (their row lists none) have nothing to refuse.
  if (row.badInputs.length === 0) return;
  it('answers 400 to bad input, and changes nothing', async () => {
    const caller = lowest[row.access];
    for (const input of row.badInputs) {
      const before = await footprint();
      const response = await send(method, pathFor(path, caller), caller, input);
      const label = JSON.stringify(input);
      expect(response.status, label).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, label).toBe('bad_request');
      expect(await footprint(), label).toEqual(before);
    }
  });
});

// The authorization matrix with data in it: two customers with delivered orders, a stock in the
// inventory. Every GET route, read by each caller (another customer included), answers the right status
// and never carries another user's data or a password the caller should not see.
describe('the authorization matrix over data', () => {
  const secrets = { own: 'OWN-ORDER-PASS-7Q', other: 'OTHER-ORDER-PASS-9Z', stock: 'STOCK-PASS-4K' };
  let other: { id: string; token: string; email: string };
  let userEmail: string;

  beforeAll(async () => {
    const person = await api.createUser('user', 'other');
    other = { id: person.id, token: person.token, email: person.email };
    userEmail = (await api.db.selectFrom('users').select('email').where('id', '=', callers.user.id).executeTakeFirstOrThrow()).email;
    const serviceId = crypto.randomUUID();
    await api.db.transaction().execute(async (trx) =>
      trx
        .insertInto('services')
        .values({
          id: serviceId,
          title: 'Matrix Wise',
          description: 'x',
          category: 'wise',
          features: JSON.stringify([]),
          popular: false,
          image: '',
          price: '10',
          delivery_time: 'instant',
          payment_methods: JSON.stringify(['binance']),
          version: await nextVersion(trx),
        })
        .execute(),
    );
    const asAdmin = { authorization: `Bearer ${callers.admin.token}`, 'content-type': 'application/json' };
    for (const [token, password] of [
      [callers.user.token, secrets.own],
      [other.token, secrets.other],
    ] as const) {
      const placed = await api.app.request('/api/orders', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ productId: serviceId }),
      });
      const { order } = (await placed.json()) as { order: { id: string } };
      const delivered = await api.app.request(`/api/admin/orders/${order.id}`, {
        method: 'PUT',
        headers: asAdmin,
        body: JSON.stringify({ wiseEmail: 'matrix@wise.test', wisePassword: password }),
      });
      expect(delivered.status).toBe(200);
    }
    const stock = await api.app.request('/api/wise-stocks', {
      method: 'POST',
      headers: asAdmin,
      body: JSON.stringify({
        wiseName: 'Matrix',
        wiseEmail: 'stock@wise.test',
        wisePassword: secrets.stock,
        authImage: 'https://img.example/a.png',
        userName: 'Keeper',
      }),
    });
    expect(stock.status).toBe(201);
  });

  type Reader = Caller | 'other';
  const readers: Reader[] = ['nobody', 'account', 'user', 'other', 'moderator', 'admin'];
  const tokenOf = (reader: Reader) => (reader === 'nobody' ? undefined : reader === 'other' ? other.token : callers[reader].token);
  const idOf = (reader: Reader) => (reader === 'nobody' ? crypto.randomUUID() : reader === 'other' ? other.id : callers[reader].id);

  /** What `reader` must never find in any answer. */
  function forbiddenFor(reader: Reader): string[] {
    const hidden = [];
    if (reader !== 'admin') hidden.push(secrets.stock);
    if (reader !== 'user') hidden.push(secrets.own);
    if (reader !== 'other') hidden.push(secrets.other);
    if (reader === 'user') hidden.push(other.email);
    if (reader === 'other') hidden.push(userEmail);
    if (reader === 'nobody' || reader === 'account') hidden.push(userEmail, other.email);
    return hidden;
  }

  const getRoutes = () => Object.keys(routeTable).filter((route) => route.startsWith('GET '));

  it.each(readers)("%s reads no other user's data and no password it should not, on any GET route", async (reader) => {
    const paths = getRoutes().map((route) =>
      route
        .slice(4)
        .replace(/:(uid|userId)\b/g, idOf(reader))
        .replace(/:id\b/g, crypto.randomUUID()),
    );
    paths.push('/api/sync?scope=private', '/api/sync?scope=public', '/api/admin/orders?limit=100', `/api/admin/orders/export.csv`);
    for (const path of paths) {
      const token = tokenOf(reader);
      const answer = await api.app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(answer.status, `${reader} ${path}`).toBeLessThan(500);
      const body = await answer.text();
      for (const secret of forbiddenFor(reader)) expect(body.includes(secret), `${reader} ${path} carries ${secret}`).toBe(false);
    }
  });

  it("a customer is refused another customer's profile and orders (403), and reads their own delivered password", async () => {
    const as = (token: string, path: string) => api.app.request(path, { headers: { authorization: `Bearer ${token}` } });
    expect((await as(callers.user.token, `/api/users/${other.id}`)).status).toBe(403);
    expect((await as(callers.user.token, `/api/orders/user/${other.id}`)).status).toBe(403);
    expect((await as(other.token, `/api/orders/user/${callers.user.id}`)).status).toBe(403);
    const own = await as(callers.user.token, `/api/orders/user/${callers.user.id}`);
    expect(await own.text()).toContain(secrets.own);
  });
});
