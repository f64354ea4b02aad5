import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { ANON_KEY, freshEmail, SERVICE_ROLE_KEY, startAuthServer, supabaseClient, type AuthServer } from '../testing/auth-server.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { teeToTestLog } from '../testing/test-logs.ts';

// `npm run admin` with SUPABASE_URL: the script itself, run as the owner runs it, against a running
// embedded auth server that speaks GoTrue's admin API (the same endpoints Supabase Auth has), with the
// user record written to this file's database.
const ROOT = join(import.meta.dirname, '../../..');
let db: Kysely<Database>;
let schema: string;
let databaseUrl: string;
let closeDb: () => Promise<void>;
let server: AuthServer;
const listed = freshEmail('listed-owner').toLowerCase();

beforeAll(async () => {
  ({ db, schema, databaseUrl, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db, { unconfirmedEmails: [listed] });
});
afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

function runAdmin(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const key = Buffer.alloc(32, 7).toString('base64');
  // Asynchronous: the auth server answering the script runs in this process.
  const child = spawn(process.execPath, [join(ROOT, 'scripts/admin.ts'), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url.href,
      SUPABASE_URL: server.url,
      SUPABASE_ANON_KEY: ANON_KEY,
      SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
      CREDENTIALS_KEY: key,
      BLIND_INDEX_KEY: key,
    },
  });
  teeToTestLog(child, 'admin-script');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stdout, stderr })));
}

const record = (id: string) => db.selectFrom('users').select(['user_role', 'deleted_at']).where('id', '=', id).executeTakeFirst();
const audits = (id: string) => db.selectFrom('audit_log').select(['action']).where('entity_id', '=', id).execute();

describe('npm run admin with SUPABASE_URL', () => {
  it('creates the account in the auth server, confirmed, and an admin record with an audit row', async () => {
    const email = freshEmail('owner');
    const run = await runAdmin(['--email', email, '--password', 'owner-password-1', '--name', 'Shop Owner']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${email.toLowerCase()} is an admin (account created in Supabase Auth; user record created)`);

    const signedIn = await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'owner-password-1' });
    expect(signedIn.error).toBeNull();
    const id = signedIn.data.user!.id;
    expect(signedIn.data.user!.email_confirmed_at).toBeTruthy();
    expect(await record(id)).toEqual({ user_role: 'admin', deleted_at: null });
    expect(await audits(id)).toEqual([{ action: 'user.admin_from_shell' }]);
  });

  it('takes back an address a squatter registered: new password, confirmed, every squatter session ended, record promoted', async () => {
    const email = freshEmail('taken');
    const squatter = supabaseClient(server.url);
    const signedUp = await squatter.auth.signUp({ email, password: 'squatter-pass' });
    expect(signedUp.error).toBeNull();
    const id = signedUp.data.user!.id;
    const session = signedUp.data.session!;
    const laptop = await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'squatter-pass' });
    expect(laptop.error).toBeNull();
    await db.insertInto('users').values({ id, email: email.toLowerCase(), display_name: 'Squatter', mobile: '', user_role: 'user', version: 1 }).execute();

    const run = await runAdmin(['--email', email, '--password', 'owner-password-2']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('existing account in Supabase Auth: password set, address confirmed, every session ended; user record promoted');

    // The squatter's access tokens and refresh tokens, on both devices, are dead; its password too.
    for (const token of [session.access_token, laptop.data.session!.access_token]) {
      const user = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: ANON_KEY, authorization: `Bearer ${token}` } });
      expect(user.status).toBe(403);
    }
    for (const refresh of [session.refresh_token, laptop.data.session!.refresh_token]) {
      expect((await supabaseClient(server.url).auth.refreshSession({ refresh_token: refresh })).error).toMatchObject({ code: 'refresh_token_not_found' });
    }
    expect((await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'squatter-pass' })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'owner-password-2' })).error).toBeNull();
    expect(await record(id)).toMatchObject({ user_role: 'admin' });
    expect(await audits(id)).toEqual([{ action: 'user.admin_from_shell' }]);
  });

  it('confirms an ADMIN_EMAILS sign-up left unconfirmed, so the owner can sign in', async () => {
    expect((await supabaseClient(server.url).auth.signUp({ email: listed, password: 'someone-else' })).error).toBeNull();
    expect((await supabaseClient(server.url).auth.signInWithPassword({ email: listed, password: 'someone-else' })).error).toMatchObject({
      code: 'email_not_confirmed',
    });
    const run = await runAdmin(['--email', listed, '--password', 'owner-password-3']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('user record created');
    const signedIn = await supabaseClient(server.url).auth.signInWithPassword({ email: listed, password: 'owner-password-3' });
    expect(signedIn.error).toBeNull();
    expect(await record(signedIn.data.user!.id)).toMatchObject({ user_role: 'admin' });
  });

  it('a password Supabase refuses changes nothing and says why', async () => {
    const email = freshEmail('short');
    const run = await runAdmin(['--email', email, '--password', 'abc']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Supabase Auth refused to create the account: 422');
    const listedUsers = await fetch(`${server.url}/auth/v1/admin/users?filter=${encodeURIComponent(email.toLowerCase())}`, {
      headers: { apikey: SERVICE_ROLE_KEY, authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    });
    expect(((await listedUsers.json()) as { users: unknown[] }).users).toEqual([]);
  });
});

describe("the embedded auth's GoTrue admin endpoints", () => {
  const admin = { apikey: SERVICE_ROLE_KEY, authorization: `Bearer ${SERVICE_ROLE_KEY}`, 'content-type': 'application/json' };

  it('refuse the anon key on list, create and update', async () => {
    const asAnon = { apikey: ANON_KEY, authorization: `Bearer ${ANON_KEY}`, 'content-type': 'application/json' };
    expect((await fetch(`${server.url}/auth/v1/admin/users`, { headers: asAnon })).status).toBe(403);
    const create = await fetch(`${server.url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: asAnon,
      body: JSON.stringify({ email: freshEmail(), password: 'long enough', email_confirm: true }),
    });
    expect(create.status).toBe(403);
    const update = await fetch(`${server.url}/auth/v1/admin/users/${crypto.randomUUID()}`, {
      method: 'PUT',
      headers: asAnon,
      body: JSON.stringify({ password: 'long enough' }),
    });
    expect(update.status).toBe(403);
  });

  it('work through supabase-js admin: create confirmed, list with a filter, update the password', async () => {
    const supabase = supabaseClient(server.url, SERVICE_ROLE_KEY);
    const email = freshEmail('made');
    const made = await supabase.auth.admin.createUser({ email, password: 'first password', email_confirm: true });
    expect(made.error).toBeNull();
    expect(made.data.user!.email_confirmed_at).toBeTruthy();
    expect((await supabase.auth.admin.createUser({ email, password: 'first password' })).error).toMatchObject({ status: 422, code: 'email_exists' });
    const page = await fetch(`${server.url}/auth/v1/admin/users?filter=${encodeURIComponent(email.toLowerCase())}&per_page=5`, { headers: admin });
    expect(((await page.json()) as { users: { id: string }[] }).users.map((u) => u.id)).toEqual([made.data.user!.id]);
    expect((await supabase.auth.admin.listUsers({ page: 1, perPage: 2 })).data.users).toHaveLength(2);
    const updated = await supabase.auth.admin.updateUserById(made.data.user!.id, { password: 'second password' });
    expect(updated.error).toBeNull();
    expect((await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'second password' })).error).toBeNull();
    expect((await supabase.auth.admin.updateUserById(crypto.randomUUID(), { password: 'x password' })).error).toMatchObject({ status: 404 });
    const bad = await fetch(`${server.url}/auth/v1/admin/users?per_page=-1`, { headers: admin });
    expect(bad.status).toBe(400);
  });
});
