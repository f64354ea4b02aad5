import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import { apiWithEmbeddedAuth } from '../testing/api-with-auth.ts';
import { freshEmail, startAuthServer, supabaseClient, type AuthServer } from '../testing/auth-server.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { cachedSessionCheck, type SessionCheck } from './session-check.ts';

// The API and the embedded auth server on one database, wired as the Node entry wires them: an access
// token whose session has ended is refused by the API, not only by the auth server.
let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let server: AuthServer;
let api: Hono;
let clockOffsetMs = 0;

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db, { clock: () => new Date(Date.now() + clockOffsetMs) });
  api = await apiWithEmbeddedAuth(db, server);
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

/** A customer with a user record, signed in on `devices` devices; the clients hold the sessions. */
async function customer(devices = 1) {
  const email = freshEmail('ended');
  const password = 'correct horse';
  const first = supabaseClient(server.url);
  const { data, error } = await first.auth.signUp({ email, password });
  expect(error).toBeNull();
  const id = data.user!.id;
  await db.transaction().execute(async (trx) =>
    trx
      .insertInto('users')
      .values({ id, email: email.toLowerCase(), display_name: 'Ended', mobile: '01700000000', user_role: 'user', version: await nextVersion(trx) })
      .execute(),
  );
  const clients = [first];
  for (let i = 1; i < devices; i += 1) {
    const other = supabaseClient(server.url);
    expect((await other.auth.signInWithPassword({ email, password })).error).toBeNull();
    clients.push(other);
  }
  return { id, clients };
}

async function tokenOf(client: ReturnType<typeof supabaseClient>): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session!.access_token;
}

const readProfile = (id: string, token: string) => api.request(`/api/users/${id}`, { headers: { authorization: `Bearer ${token}` } });

describe('the API refuses the access token of an ended session', () => {
  it('after sign-out', async () => {
    const { id, clients } = await customer();
    const token = await tokenOf(clients[0]!);
    expect((await readProfile(id, token)).status).toBe(200);
    expect((await clients[0]!.auth.signOut()).error).toBeNull();
    const refused = await readProfile(id, token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it("after a password change on another device, but not the device's own that changed it", async () => {
    const { id, clients } = await customer(2);
    const [stolen, owner] = [await tokenOf(clients[0]!), await tokenOf(clients[1]!)];
    expect((await clients[1]!.auth.updateUser({ password: 'a new password', current_password: 'correct horse' })).error).toBeNull();
    expect((await readProfile(id, stolen)).status).toBe(401);
    expect((await readProfile(id, owner)).status).toBe(200);
  });

  it('after a refresh token reuse revoked the session', async () => {
    const { id, clients } = await customer();
    const { data } = await clients[0]!.auth.getSession();
    const { access_token: token, refresh_token: first } = data.session!;
    expect((await clients[0]!.auth.refreshSession()).error).toBeNull();
    clockOffsetMs = 60_000;
    const reuse = await fetch(`${server.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: 'sb_publishable_test_anon_key', 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: first }),
    });
    expect(reuse.status).toBe(400);
    expect((await readProfile(id, token)).status).toBe(401);
  });

  it('after the account was deleted on the auth server', async () => {
    const { id, clients } = await customer();
    const token = await tokenOf(clients[0]!);
    await server.auth.deleteUser(id);
    expect((await readProfile(id, token)).status).toBe(401);
  });
});

describe('cachedSessionCheck', () => {
  it('believes a live session for the TTL only, and never remembers an ended one', async () => {
    let now = 0;
    let alive = true;
    let asked = 0;
    const check: SessionCheck = async () => {
      asked += 1;
      return alive;
    };
    const cached = cachedSessionCheck(check, { ttlMs: 5_000, clock: () => now });
    const claims = { sub: 'u', sessionId: 's' };
    expect(await cached(claims, 't')).toBe(true);
    alive = false;
    now = 4_999;
    expect(await cached(claims, 't')).toBe(true);
    expect(asked).toBe(1);
    now = 5_000;
    expect(await cached(claims, 't')).toBe(false);
    alive = true;
    expect(await cached(claims, 't')).toBe(true);
    expect(asked).toBe(3);
  });
});
