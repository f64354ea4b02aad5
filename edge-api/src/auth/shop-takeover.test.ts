import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../contract/users.ts';
import type { Database } from '../db/schema.ts';
import { makeOwnerAdmin } from './embedded/owner-admin.ts';
import { apiWithEmbeddedAuth } from '../testing/api-with-auth.ts';
import { freshEmail, startAuthServer, supabaseClient, type AuthServer } from '../testing/auth-server.ts';
import { openTestDatabase } from '../testing/test-database.ts';

// ADMIN_EMAILS on the embedded auth: whoever signs up first with a listed address must not get the shop.
let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let server: AuthServer;
let api: Hono;
const ownerEmail = freshEmail('owner').toLowerCase();

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db, { unconfirmedEmails: [ownerEmail] });
  api = await apiWithEmbeddedAuth(db, server, { adminEmails: [ownerEmail] });
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

const register = (token: string, id: string, email: string) =>
  api.request('/api/users', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uid: id, email, displayName: 'Someone', mobile: '01712345678' }),
  });

describe('taking the shop through ADMIN_EMAILS', () => {
  it('a sign-up with a listed address gets no session and cannot sign in; the owner takes the address back with makeOwnerAdmin', async () => {
    const attacker = supabaseClient(server.url);
    const signUp = await attacker.auth.signUp({ email: ownerEmail, password: 'attacker-password' });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();
    expect(signUp.data.user!.email_confirmed_at).toBeFalsy();
    const signIn = await attacker.auth.signInWithPassword({ email: ownerEmail, password: 'attacker-password' });
    expect(signIn.error?.code).toBe('email_not_confirmed');
    expect(signIn.data.session).toBeNull();

    const result = await makeOwnerAdmin(db, { email: ownerEmail.toUpperCase(), password: 'the owner password' });
    expect(result).toMatchObject({ email: ownerEmail, account: 'repaired', record: 'created' });
    expect((await attacker.auth.signInWithPassword({ email: ownerEmail, password: 'attacker-password' })).error?.code).toBe('invalid_credentials');

    const owner = supabaseClient(server.url);
    const session = (await owner.auth.signInWithPassword({ email: ownerEmail, password: 'the owner password' })).data.session!;
    const me = await api.request(`/api/users/${session.user.id}`, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as User).userRole).toBe('admin');
  });

  it('an unlisted sign-up is confirmed at once and registers as a customer', async () => {
    const client = supabaseClient(server.url);
    const email = freshEmail('customer').toLowerCase();
    const { data } = await client.auth.signUp({ email, password: 'correct horse' });
    expect(data.user!.email_confirmed_at).toBeTruthy();
    const created = await register(data.session!.access_token, data.user!.id, email);
    expect(created.status).toBe(201);
    expect(((await created.json()) as User).userRole).toBe('user');
  });

  it('makeOwnerAdmin promotes an existing customer, ending their sessions, and refuses a weak password', async () => {
    const client = supabaseClient(server.url);
    const email = freshEmail('promoted').toLowerCase();
    const { data } = await client.auth.signUp({ email, password: 'correct horse' });
    expect((await register(data.session!.access_token, data.user!.id, email)).status).toBe(201);
    await expect(makeOwnerAdmin(db, { email, password: '123' })).rejects.toThrow(/at least 6/);
    expect(await makeOwnerAdmin(db, { email, password: 'a new owner password' })).toMatchObject({ account: 'repaired', record: 'promoted' });
    expect((await api.request(`/api/users/${data.user!.id}`, { headers: { authorization: `Bearer ${data.session!.access_token}` } })).status).toBe(401);
    const again = await makeOwnerAdmin(db, { email, password: 'a new owner password 2' });
    expect(again.record).toBe('already admin');
    const audit = await db.selectFrom('audit_log').select('action').where('entity_id', '=', data.user!.id).execute();
    expect(audit.map((row) => row.action)).toContain('user.admin_from_shell');
  });

  it('makeOwnerAdmin creates a missing account, confirmed, with its admin record', async () => {
    const email = freshEmail('fresh').toLowerCase();
    const result = await makeOwnerAdmin(db, { email, password: 'fresh owner password' });
    expect(result).toMatchObject({ account: 'created', record: 'created' });
    const session = (await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'fresh owner password' })).data.session!;
    const me = await api.request(`/api/users/${result.userId}`, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(((await me.json()) as User).userRole).toBe('admin');
  });
});
