import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { linkIn, mailsTo, openLink, waitForMail } from '../../testing/auth-mail.ts';
import { ANON_KEY, freshEmail, startAuthServer, supabaseClient, type AuthServer } from '../../testing/auth-server.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { createAuthUser } from './auth-store.ts';

let db: Kysely<Database>;
let closeDb: () => Promise<void>;
/** AUTH_CONFIRM_SIGNUPS on. */
let server: AuthServer;
const ADMIN = 'owner-to-be@example.test';
let clockOffsetMs = 0;

/** The embedded auth with sign-ups confirmed by mail, on a real port, as the shared test server but for the setting. */
const startConfirmingServer = (): Promise<AuthServer> =>
  startAuthServer(db, { clock: () => new Date(Date.now() + clockOffsetMs), unconfirmedEmails: [ADMIN], confirmSignups: true });

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startConfirmingServer();
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

let ipCounter = 0;

/** POST /auth/v1/signup as supabase-js sends it, from an address of its own; the raw answer. */
async function postSignUp(email: string, password = 'correct horse', on = server) {
  const response = await fetch(`${on.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, authorization: `Bearer ${ANON_KEY}`, 'content-type': 'application/json', 'x-test-client-ip': `10.9.0.${++ipCounter}` },
    body: JSON.stringify({ email, password, data: { displayName: 'Ana Rahman', mobile: '01700000000' } }),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

/** Every key path of a JSON value with the type found there: what a caller could tell two answers apart by. */
function shapeOf(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return [`${path}: array(${value.length})`, ...value.flatMap((item, i) => shapeOf(item, `${path}[${i}]`))];
  if (value !== null && typeof value === 'object')
    return Object.keys(value).flatMap((key) => shapeOf((value as Record<string, unknown>)[key], `${path}.${key}`));
  return [`${path}: ${value === null ? 'null' : typeof value}`];
}

/** The answer with what must differ (the id) and what moves with the clock (the times) taken out. */
function withoutIdAndTimes(body: Record<string, unknown>): string {
  const id = String(body.id);
  return JSON.stringify(body)
    .replaceAll(id, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
}

const registered = async (password = 'owner password') => {
  const email = freshEmail('owner').toLowerCase();
  await createAuthUser(db, { email, password });
  return email;
};

const accountsWith = async (email: string) => (await db.selectFrom('auth_users').select('id').where('email', '=', email).execute()).length;

describe('sign-up with AUTH_CONFIRM_SIGNUPS', () => {
  it('answers a taken address exactly as a free one: status, keys, types and values but the id and the times', async () => {
    const free = freshEmail('new').toLowerCase();
    const taken = await registered();
    const [first, second] = [await postSignUp(free), await postSignUp(taken)];
    expect(first.status).toBe(200);
    expect(second.status).toBe(first.status);
    expect(second.type).toBe(first.type);
    expect(shapeOf(second.body)).toEqual(shapeOf(first.body));
    expect(withoutIdAndTimes(second.body).replaceAll(taken, '<email>')).toBe(withoutIdAndTimes(first.body).replaceAll(free, '<email>'));
    // No session, nothing confirmed, one unverified identity (Supabase's tell, an empty list, is not copied).
    expect(first.body).not.toHaveProperty('access_token');
    expect(first.body).not.toHaveProperty('email_confirmed_at');
    expect(first.body.confirmation_sent_at).toEqual(expect.any(String));
    expect(first.body.identities).toHaveLength(1);
    // The taken address's answer is a stranger's: a fresh id, no account made, the owner's untouched.
    const owner = await db.selectFrom('auth_users').selectAll().where('email', '=', taken).executeTakeFirstOrThrow();
    expect(second.body.id).not.toBe(owner.id);
    expect(await db.selectFrom('auth_users').select('id').where('id', '=', String(second.body.id)).execute()).toEqual([]);
    expect(await accountsWith(taken)).toBe(1);
    expect((await supabaseClient(server.url).auth.signInWithPassword({ email: taken, password: 'owner password' })).error).toBeNull();
    // The free address's account exists, unconfirmed, under the id answered.
    const made = await db.selectFrom('auth_users').selectAll().where('email', '=', free).executeTakeFirstOrThrow();
    expect(made.id).toBe(first.body.id);
    expect(made.email_confirmed_at).toBeNull();
  });

  it('mails the owner of a taken address a notice without a link, once however often a stranger tries', async () => {
    const taken = await registered();
    expect((await postSignUp(taken)).status).toBe(200);
    const notice = await waitForMail(server, taken);
    expect(notice.subject).toBe('Someone tried to register with your email address');
    expect(notice.text).toContain('Nothing has changed');
    expect(notice.text).not.toMatch(/https?:\/\//);
    // The address's mail budget (one a minute) holds a second try, as it holds a free address's.
    const again = await postSignUp(taken);
    expect(again).toMatchObject({ status: 429, body: { code: 'over_email_send_rate_limit' } });
    const free = freshEmail('new').toLowerCase();
    expect((await postSignUp(free)).status).toBe(200);
    expect(await postSignUp(free)).toMatchObject({ status: 429, body: { code: 'over_email_send_rate_limit' } });
    await server.mailSettled();
    expect(await mailsTo(server, taken)).toHaveLength(1);
  });

  it('mails a free address a link that confirms it and signs in, keeping the password; until then sign-in is refused', async () => {
    const email = freshEmail('new').toLowerCase();
    const supabase = supabaseClient(server.url);
    const { data, error } = await supabase.auth.signUp({ email, password: 'correct horse', options: { data: { displayName: 'Ana Rahman' } } });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);

    const refused = await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'correct horse' });
    expect(refused.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
    const wrong = await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'wrong horse' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });

    const mail = await waitForMail(server, email);
    expect(mail.subject).toBe('Confirm your account');
    const link = linkIn(mail);
    expect(link.searchParams.get('type')).toBe('signup');
    const { target, fragment } = await openLink(link);
    expect(`${target.origin}${target.pathname}`).toBe(`${server.url}/`);
    expect(fragment.get('type')).toBe('signup');
    const signedIn = supabaseClient(server.url);
    const set = await signedIn.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect(set.error).toBeNull();
    const { data: me } = await signedIn.auth.getUser();
    expect(me.user).toMatchObject({ id: data.user!.id, email, user_metadata: { displayName: 'Ana Rahman' } });
    expect(me.user?.email_confirmed_at).toEqual(expect.any(String));

    expect((await supabaseClient(server.url).auth.signInWithPassword({ email, password: 'correct horse' })).error).toBeNull();
    expect((await openLink(link)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('takes no sign-in link for a confirmation: the type cannot keep a password the link would replace', async () => {
    const email = freshEmail('new').toLowerCase();
    expect((await postSignUp(email)).status).toBe(200);
    await waitForMail(server, email);
    // A minute later, a sign-in link (with its code) for the same unconfirmed account replaces the confirmation.
    clockOffsetMs = 61_000;
    expect((await supabaseClient(server.url).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const signIn = linkIn(await waitForMail(server, email, 2));
    signIn.searchParams.set('type', 'signup');
    expect((await openLink(signIn)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('leaves an ADMIN_EMAILS sign-up unconfirmed, answered alike, with no link to confirm it', async () => {
    const answer = await postSignUp(ADMIN);
    const free = await postSignUp(freshEmail('new').toLowerCase());
    expect(shapeOf(answer.body)).toEqual(shapeOf(free.body));
    const made = await db.selectFrom('auth_users').selectAll().where('email', '=', ADMIN).executeTakeFirstOrThrow();
    expect(made.email_confirmed_at).toBeNull();
    await server.mailSettled();
    expect(await mailsTo(server, ADMIN)).toEqual([]);
  });

  it('says so in the settings', async () => {
    const settings = await (await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: ANON_KEY } })).json();
    expect(settings).toMatchObject({ mailer_autoconfirm: false });
  });
});

describe('sign-up without the setting (the default)', () => {
  it("signs a free address in at once and answers a taken one user_already_exists, mailing nobody (the specification's registration)", async () => {
    const plain = await startAuthServer(db);
    try {
      const email = freshEmail('new').toLowerCase();
      const first = await postSignUp(email, 'correct horse', plain);
      expect(first.status).toBe(200);
      expect(first.body.access_token).toEqual(expect.any(String));
      const second = await postSignUp(email, 'correct horse', plain);
      expect(second).toMatchObject({ status: 422, body: { code: 'user_already_exists' } });
      await plain.mailSettled();
      expect(await mailsTo(plain, email)).toEqual([]);
      const settings = await (await fetch(`${plain.url}/auth/v1/settings`, { headers: { apikey: ANON_KEY } })).json();
      expect(settings).toMatchObject({ mailer_autoconfirm: true });
    } finally {
      await plain.close();
    }
  });
});
