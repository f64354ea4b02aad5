import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
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
const needed: Record<Access, number> = { anyone: 0, account: 1, user: 2, staff: 3, admin: 4 };
/** The least of the callers a route admits: bad input is sent as that caller. */
const lowest: Record<Access, Caller> = { anyone: 'nobody', account: 'account', user: 'user', staff: 'moderator', admin: 'admin' };

const routesOfApp = () => [...new Set(createApp(api.deps).routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`))].sort();

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

/** What a request could have changed: the sync counter (bumped by every writing transaction) and the row counts. */
async function footprint() {
  const counts = await sql<Record<string, number>>`
    select (select version from sync_counter where id = 1) as version,
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
      else expect(status, `${caller} must be refused`).toBe(caller === 'nobody' ? 401 : 403);
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
