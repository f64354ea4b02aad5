import { AuthWeakPasswordError, type Session, type User } from '@supabase/supabase-js';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader } from 'jose';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { ANON_KEY, freshEmail, SERVICE_ROLE_KEY, startAuthServer, supabaseClient, type AuthServer } from '../../testing/auth-server.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { createTokenVerifier } from '../verifier.ts';

let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let server: AuthServer;
let clockOffsetMs = 0;

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db, { clock: () => new Date(Date.now() + clockOffsetMs) });
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

const client = (key?: string, ip?: string) => supabaseClient(server.url, key, ip);

/** A new account signed up through supabase-js; returns the client holding its session. */
async function signUp(password = 'correct horse') {
  const supabase = client();
  const email = freshEmail();
  const { data, error } = await supabase.auth.signUp({ email, password, options: { data: { displayName: 'Ana Rahman', mobile: '01712345678' } } });
  expect(error).toBeNull();
  return { supabase, email: email.toLowerCase(), password, session: data.session as Session };
}

describe('sign-up', () => {
  it('creates a confirmed account with its metadata and answers a session whose access token the API accepts', async () => {
    const supabase = client();
    const email = freshEmail('ana');
    const { data, error } = await supabase.auth.signUp({
      email,
      password: 'correct horse',
      options: { data: { displayName: 'Ana Rahman', mobile: '01712345678' } },
    });
    expect(error).toBeNull();
    const { session, user } = data;
    expect(session).not.toBeNull();
    expect(session!.token_type).toBe('bearer');
    expect(session!.expires_in).toBe(3600);
    expect(session!.refresh_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(user).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email: email.toLowerCase(),
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { displayName: 'Ana Rahman', mobile: '01712345678' },
      is_anonymous: false,
    });
    expect(user!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user!.email_confirmed_at).toBeTruthy();
    expect(user!.identities).toHaveLength(1);

    const verify = createTokenVerifier({ issuer: server.issuer, keys: createLocalJWKSet(server.auth.jwks()) });
    const claims = await verify(session!.access_token);
    expect(claims.sub).toBe(user!.id);
    expect(claims.email).toBe(email.toLowerCase());
    expect(claims.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const header = decodeProtectedHeader(session!.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: server.auth.jwks().keys[0]!.kid });
    const payload = decodeJwt(session!.access_token);
    expect(payload).toMatchObject({
      iss: server.issuer,
      aud: 'authenticated',
      sub: user!.id,
      email: email.toLowerCase(),
      role: 'authenticated',
      aal: 'aal1',
      session_id: claims.sessionId,
      user_metadata: { displayName: 'Ana Rahman', mobile: '01712345678' },
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(session!.expires_at).toBe(payload.exp);
  });

  it('refuses an email that is already registered, whatever its case', async () => {
    const { email } = await signUp();
    const { data, error } = await client().auth.signUp({ email: email.toUpperCase(), password: 'another password' });
    expect(error).toMatchObject({ status: 422, code: 'user_already_exists' });
    expect(data.session).toBeNull();
    const rows = await db.selectFrom('auth_users').select('id').where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses passwords shorter than 6 or longer than 72 characters as weak, creating nothing', async () => {
    for (const password of ['12345', 'x'.repeat(73)]) {
      const email = freshEmail('weak');
      const { data, error } = await client().auth.signUp({ email, password });
      expect(error).toBeInstanceOf(AuthWeakPasswordError);
      expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
      expect(data.session).toBeNull();
      const rows = await db.selectFrom('auth_users').select('id').where('email', '=', email.toLowerCase()).execute();
      expect(rows).toHaveLength(0);
    }
    const sixChars = await client().auth.signUp({ email: freshEmail('six'), password: '123456' });
    expect(sixChars.error).toBeNull();
  });

  it('refuses NUL characters and unpaired surrogates anywhere in the body with 400, on sign-up and sign-in, creating nothing', async () => {
    const call = (path: string, body: unknown) =>
      fetch(`${server.url}/auth/v1${path}`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, 'content-type': 'application/json', 'x-test-client-ip': '10.9.9.9' },
        body: JSON.stringify(body),
      });
    const email = freshEmail('nul').toLowerCase();
    for (const body of [
      { email: `a\u0000${email}`, password: 'correct horse' },
      { email, password: 'correct\u0000horse' },
      { email, password: 'correct horse', data: { displayName: 'lone \ud800' } },
    ]) {
      const answer = await call('/signup', body);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe('validation_failed');
    }
    expect((await call('/token?grant_type=password', { email, password: 'x\udc00' })).status).toBe(400);
    expect(await db.selectFrom('auth_users').select('id').where('email', 'like', `%${email}`).executeTakeFirst()).toBeUndefined();
  });

  it('refuses a body nested deeper than 32 levels with 400 (a NUL below the text check, or past what JSON.stringify writes), changing nothing', async () => {
    // Found by the attack campaign: PUT /user with metadata 80 levels deep ending in a NUL reached
    // Postgres (500, stack in the log), and 5,000 levels overflowed JSON.stringify (500).
    const { session, email } = await signUp();
    const nest = (depth: number, leaf: string) => `${'{"k":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`;
    const put = (body: string) =>
      fetch(`${server.url}/auth/v1/user`, {
        method: 'PUT',
        headers: { apikey: ANON_KEY, authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
        body,
      });
    for (const body of [`{"data":${nest(80, 'nul \u0000 here')}}`, `{"data":${nest(80, 'lone \ud800')}}`, `{"data":${nest(5000, 'x')}}`]) {
      const answer = await put(body);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 'validation_failed' });
    }
    const signUpDeep = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'content-type': 'application/json', 'x-test-client-ip': '10.9.9.8' },
      body: `{"email":"deep-${crypto.randomUUID().slice(0, 6)}@example.test","password":"correct horse","data":${nest(70, '\u0000')}}`,
    });
    expect(signUpDeep.status).toBe(400);
    const row = await db.selectFrom('auth_users').select('user_metadata').where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.user_metadata)).not.toContain('"k"');
    // Thirty levels pass the depth check, and are refused as no profile field.
    const shallower = await put(`{"data":${nest(30, 'deep but fine')}}`);
    expect(shallower.status).toBe(400);
    expect(await shallower.json()).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('not a profile field') });
  });

  it('refuses a malformed email with validation_failed', async () => {
    const { error } = await client().auth.signUp({ email: 'not-an-email', password: 'correct horse' });
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

describe('sign-in with password', () => {
  it('opens a new session with the right password, whatever the case of the email', async () => {
    const { email, password, session: signUpSession } = await signUp();
    const { data, error } = await client().auth.signInWithPassword({ email: email.toUpperCase(), password });
    expect(error).toBeNull();
    const { user, session } = data as { user: User; session: Session };
    expect(user.email).toBe(email);
    expect(user.last_sign_in_at).toBeTruthy();
    expect(decodeJwt(session.access_token).session_id).not.toBe(decodeJwt(signUpSession.access_token).session_id);
    expect(session.refresh_token).not.toBe(signUpSession.refresh_token);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const { email } = await signUp();
    const wrong = await client().auth.signInWithPassword({ email, password: 'wrong password' });
    const unknown = await client().auth.signInWithPassword({ email: freshEmail('nobody'), password: 'wrong password' });
    for (const { data, error } of [wrong, unknown]) {
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    }
  });
});

describe('refresh tokens', () => {
  it('rotate on each refresh; a reused one revokes the whole session, even its newest token', async () => {
    const { supabase, session } = await signUp();
    const first = session.refresh_token;
    const refreshed = await supabase.auth.refreshSession({ refresh_token: first });
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!.refresh_token;
    expect(second).not.toBe(first);
    expect(decodeJwt(refreshed.data.session!.access_token).session_id).toBe(decodeJwt(session.access_token).session_id);

    clockOffsetMs = 11_000; // past the grace interval for concurrent refreshes
    const reused = await client().auth.refreshSession({ refresh_token: first });
    expect(reused.data.session).toBeNull();
    expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });

    const newest = await client().auth.refreshSession({ refresh_token: second });
    expect(newest.data.session).toBeNull();
    expect(newest.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const user = await client().auth.getUser(refreshed.data.session!.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
  });

  it('forgive a reuse within 10 seconds of the rotation (two tabs refreshing at once) with the active token, not a new one', async () => {
    const { session } = await signUp();
    const tabA = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    const tabB = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(tabA.error).toBeNull();
    expect(tabB.error).toBeNull();
    expect(tabB.data.session!.refresh_token).toBe(tabA.data.session!.refresh_token);
    // Two rotations on: the first token still leads to the one active token of the session.
    const tabC = await client().auth.refreshSession({ refresh_token: tabA.data.session!.refresh_token });
    expect(tabC.error).toBeNull();
    const late = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(late.data.session!.refresh_token).toBe(tabC.data.session!.refresh_token);
    const active = await db
      .selectFrom('auth_refresh_tokens')
      .select('token_hash')
      .where('session_id', '=', decodeJwt(session.access_token).session_id as string)
      .where('revoked', '=', false)
      .execute();
    expect(active).toHaveLength(1);
  });

  it('leave the other sessions of the user alone when one is revoked for reuse', async () => {
    const { email, password, session } = await signUp();
    const other = await client().auth.signInWithPassword({ email, password });
    await client().auth.refreshSession({ refresh_token: session.refresh_token });
    clockOffsetMs = 11_000;
    await client().auth.refreshSession({ refresh_token: session.refresh_token });
    const stillThere = await client().auth.refreshSession({ refresh_token: other.data.session!.refresh_token });
    expect(stillThere.error).toBeNull();
  });

  it('answer refresh_token_not_found for a token never issued', async () => {
    const { error } = await client().auth.refreshSession({ refresh_token: 'made-up-token' });
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });
});

describe('the signed-in user', () => {
  it('reads itself and merges metadata shallowly, null deleting a key', async () => {
    const { supabase, session } = await signUp();
    const read = await supabase.auth.getUser();
    expect(read.error).toBeNull();
    expect(read.data.user!.id).toBe(session.user.id);
    expect(read.data.user!.user_metadata).toEqual({ displayName: 'Ana Rahman', mobile: '01712345678' });

    const updated = await supabase.auth.updateUser({ data: { displayName: 'Ana R.', mobile: null } });
    expect(updated.error).toBeNull();
    expect(updated.data.user!.user_metadata).toEqual({ displayName: 'Ana R.' });
    expect((await supabase.auth.getUser()).data.user!.user_metadata).toEqual({ displayName: 'Ana R.' });

    const refreshed = await supabase.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).user_metadata).toEqual({ displayName: 'Ana R.' });
  });

  it('changes its password, which ends every other session but keeps this one', async () => {
    const { supabase, email, password } = await signUp();
    const otherDevice = await client().auth.signInWithPassword({ email, password });

    const same = await supabase.auth.updateUser({ password, current_password: password });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
    const changed = await supabase.auth.updateUser({ password: 'a brand new password', current_password: password });
    expect(changed.error).toBeNull();

    expect((await supabase.auth.getUser()).error).toBeNull();
    expect((await supabase.auth.refreshSession()).error).toBeNull();
    const other = await client().auth.refreshSession({ refresh_token: otherDevice.data.session!.refresh_token });
    expect(other.error).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await client().auth.getUser(otherDevice.data.session!.access_token)).error?.name).toBe('AuthSessionMissingError');

    expect((await client().auth.signInWithPassword({ email, password })).error).toMatchObject({ code: 'invalid_credentials' });
    expect((await client().auth.signInWithPassword({ email, password: 'a brand new password' })).error).toBeNull();
  });

  it('is refused an expired access token', async () => {
    const { session } = await signUp();
    clockOffsetMs = 3601_000;
    const { data, error } = await client().auth.getUser(session.access_token);
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ status: 403, code: 'bad_jwt' });
  });

  it('is refused with the anon key as bearer', async () => {
    const { data, error } = await client().auth.getUser(ANON_KEY);
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ status: 401, code: 'no_authorization' });
  });
});

describe('sign-out', () => {
  it('revokes the session: its refresh token and access token stop working', async () => {
    const { supabase, session } = await signUp();
    const { error } = await supabase.auth.signOut();
    expect(error).toBeNull();
    const refreshed = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    expect((await client().auth.getUser(session.access_token)).error?.name).toBe('AuthSessionMissingError');
  });

  it('with scope local ends only this device, global ends them all', async () => {
    const { supabase, email, password } = await signUp();
    const laptop = supabaseClient(server.url);
    const phone = supabaseClient(server.url);
    await laptop.auth.signInWithPassword({ email, password });
    const phoneSession = (await phone.auth.signInWithPassword({ email, password })).data.session!;

    expect((await supabase.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await laptop.auth.getUser()).error).toBeNull();

    expect((await laptop.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect((await client().auth.refreshSession({ refresh_token: phoneSession.refresh_token })).error).toMatchObject({ code: 'refresh_token_not_found' });
  });
});

describe('admin', () => {
  it('deletes a user with the service-role key, and refuses the anon key', async () => {
    const { email, password, session } = await signUp();
    const userId = session.user.id;

    const refused = await client(ANON_KEY).auth.admin.deleteUser(userId);
    expect(refused.error).toMatchObject({ status: 403, code: 'not_admin' });
    expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull();

    const deleted = await client(SERVICE_ROLE_KEY).auth.admin.deleteUser(userId);
    expect(deleted.error).toBeNull();
    expect(deleted.data.user!.id).toBe(userId);

    expect((await client().auth.signInWithPassword({ email, password })).error).toMatchObject({ code: 'invalid_credentials' });
    expect((await client().auth.refreshSession({ refresh_token: session.refresh_token })).error).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await client(SERVICE_ROLE_KEY).auth.admin.deleteUser(userId)).error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  it('deleteUser() removes the account for the API, and a missing one is not an error', async () => {
    const { email, password, session } = await signUp();
    await server.auth.deleteUser(session.user.id);
    await server.auth.deleteUser(session.user.id);
    await server.auth.deleteUser('not-a-uuid');
    expect((await client().auth.signInWithPassword({ email, password })).error).toMatchObject({ code: 'invalid_credentials' });
  });
});

describe('rate limits', () => {
  it('answer 429 over_request_rate_limit past the per-IP limit on /token and /signup, until the window ends', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const limited = await startAuthServer(db, { clock: () => new Date(now), rateLimits: { tokenPer5Min: 3, signupPer5Min: 2 } });
    try {
      const from = (ip: string) => supabaseClient(limited.url, ANON_KEY, ip);
      const email = freshEmail('limited');
      expect((await from('192.0.2.1').auth.signUp({ email, password: 'correct horse' })).error).toBeNull();
      expect((await from('192.0.2.1').auth.signUp({ email: freshEmail(), password: 'correct horse' })).error).toBeNull();
      const tooManySignUps = await from('192.0.2.1').auth.signUp({ email: freshEmail(), password: 'correct horse' });
      expect(tooManySignUps.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

      for (let attempt = 0; attempt < 3; attempt++) {
        const { error } = await from('192.0.2.1').auth.signInWithPassword({ email, password: 'guess' + attempt });
        expect(error).toMatchObject({ code: 'invalid_credentials' });
      }
      const blocked = await from('192.0.2.1').auth.signInWithPassword({ email, password: 'correct horse' });
      expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      const raw = await fetch(`${limited.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, 'x-test-client-ip': '192.0.2.1' },
        body: JSON.stringify({ email, password: 'correct horse' }),
      });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBe(5 * 60);

      expect((await from('192.0.2.2').auth.signInWithPassword({ email, password: 'correct horse' })).error).toBeNull();

      now += 5 * 60_000;
      expect((await from('192.0.2.1').auth.signInWithPassword({ email, password: 'correct horse' })).error).toBeNull();
    } finally {
      await limited.close();
    }
  });
});

describe('per-account backoff', () => {
  it('waits by the sixth wrong password for one account from one address, doubling, while the owner elsewhere still signs in', async () => {
    let now = Date.parse('2026-11-22T12:00:00Z');
    const limited = await startAuthServer(db, { clock: () => new Date(now) });
    try {
      const signIn = signInOn(limited);
      const email = freshEmail('victim');
      expect((await supabaseClient(limited.url).auth.signUp({ email, password: 'correct horse' })).error).toBeNull();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 10; attempt += 1) statuses.push((await signIn('198.51.100.7', email, `guess ${attempt}`)).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
      const locked = await signIn('198.51.100.7', email, 'correct horse');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBe(30);
      // Found by an attacker's pass: a stranger's guesses locked the owner out from everywhere.
      expect((await signIn('203.0.113.1', email, 'correct horse')).status).toBe(200);

      now += 30_000;
      expect((await signIn('198.51.100.7', email, 'wrong again')).status).toBe(400);
      const longer = await signIn('198.51.100.7', email, 'correct horse');
      expect(Number(longer.headers.get('retry-after'))).toBe(60);
      now += 60_000;
      expect((await signIn('198.51.100.7', email, 'correct horse')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('past 25 wrong passwords from many addresses, holds those addresses, not the owner from an address with no wrong password (decision 246)', async () => {
    let now = Date.parse('2026-11-22T12:00:00Z');
    const limited = await startAuthServer(db, { clock: () => new Date(now) });
    try {
      const signIn = signInOn(limited);
      const email = freshEmail('spread');
      const { data } = await supabaseClient(limited.url).auth.signUp({ email, password: 'correct horse' });
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 25; attempt += 1) statuses.push((await signIn(`198.51.100.${attempt}`, email, `guess ${attempt}`)).status);
      expect(statuses.every((status) => status === 400)).toBe(true);
      // The attacker's addresses wait, even with the right password; a new one gets one guess, then waits too.
      const waited = await signIn('198.51.100.3', email, 'correct horse');
      expect(waited.status).toBe(429);
      expect(Number(waited.headers.get('retry-after'))).toBeLessThanOrEqual(300);
      expect((await signIn('198.51.100.200', email, 'one more guess')).status).toBe(400);
      expect((await signIn('198.51.100.200', email, 'and another')).status).toBe(429);
      // A new IPv6 address in the same /64 is the same address.
      expect((await signIn('2001:db8:1:2::1', email, 'v6 guess')).status).toBe(400);
      expect((await signIn('2001:db8:1:2:0:0:0:ffff', email, 'v6 again')).status).toBe(429);
      // The owner, from an address that never got the password wrong, signs in however long this goes on.
      for (let round = 0; round < 12; round += 1) {
        now += 5 * 60_000;
        expect((await signIn(`198.51.100.${round % 25}`, email, `round ${round}`)).status).toBe(400);
      }
      expect((await signIn('203.0.113.9', email, 'correct horse')).status).toBe(200);
      for (let attempt = 0; attempt < 25; attempt += 1) await signIn(`192.0.2.${attempt}`, email, `again ${attempt}`);
      expect((await signIn('192.0.2.1', email, 'correct horse')).status).toBe(429);
      // The owner's `npm run admin` reset goes through the admin endpoint: it ends the wait.
      const reset = await fetch(`${limited.url}/auth/v1/admin/users/${data.user!.id}`, {
        method: 'PUT',
        headers: { apikey: SERVICE_ROLE_KEY, authorization: `Bearer ${SERVICE_ROLE_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'reset by owner' }),
      });
      expect(reset.status).toBe(200);
      expect((await signIn('192.0.2.1', email, 'reset by owner')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

const signInOn = (server: AuthServer) => (ip: string, email: string, password: string) =>
  fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'x-test-client-ip': ip, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

describe('wire details', () => {
  it('errors carry the API version header, readable cross-origin', async () => {
    const response = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01', origin: 'http://shop.test' },
      body: JSON.stringify({ email: freshEmail(), password: 'whatever' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
  });

  it('publishes the public key only, cacheable for ten minutes', async () => {
    const response = await fetch(`${server.url}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: server.auth.jwks().keys[0]!.kid });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('refuses calls without a known API key', async () => {
    const missing = await fetch(`${server.url}/auth/v1/token?grant_type=password`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);
    const wrong = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: 'sb_publishable_someone_else' } });
    expect(wrong.status).toBe(401);
  });
});
