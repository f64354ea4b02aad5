import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { linkIn, mailsTo, openLink, waitForMail } from '../../testing/auth-mail.ts';
import { freshEmail, startAuthServer, supabaseClient, type AuthServer } from '../../testing/auth-server.ts';
import { openTestDatabase } from '../../testing/test-database.ts';

let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let server: AuthServer;
const OWNER = 'owner-of-the-shop@example.test';

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db, { unconfirmedEmails: [OWNER] });
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

const client = () => supabaseClient(server.url);
const codeIn = (text: string) => /enter this code there: (\d{6})/.exec(text)![1]!;

async function signUp(email = freshEmail().toLowerCase(), password = 'correct horse') {
  const { error } = await client().auth.signUp({ email, password });
  expect(error).toBeNull();
  return email;
}

describe('sign-in by mail (signInWithOtp, verifyOtp)', () => {
  it('mails a link that signs in once, landing on My Orders, and a code that signs in another device once', async () => {
    const email = await signUp();
    const { data, error } = await client().auth.signInWithOtp({ email });
    expect(error).toBeNull();
    expect(data).toMatchObject({ user: null, session: null });
    const mail = await waitForMail(server, email);
    expect(mail.subject).toBe('Your sign-in link');
    const link = linkIn(mail);
    expect(link.searchParams.get('type')).toBe('magiclink');
    const stored = await db.selectFrom('auth_one_time_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(link.searchParams.get('token')!);
    expect(JSON.stringify(stored)).not.toContain(codeIn(mail.text));

    const { target, fragment } = await openLink(link);
    expect(target.pathname).toBe('/my-orders');
    expect(fragment.get('access_token')).toBeTruthy();
    expect(fragment.get('type')).toBe('magiclink');
    expect((await openLink(link)).fragment.get('error_code')).toBe('otp_expired');

    expect((await client().auth.signInWithOtp({ email })).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });

  it('signs in with the code on another device, once; five wrong codes end the link', async () => {
    const email = await signUp();
    const device = client();
    expect((await device.auth.signInWithOtp({ email })).error).toBeNull();
    const code = codeIn((await waitForMail(server, email)).text);
    const signedIn = await device.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session?.user.email).toBe(email);
    expect((await device.auth.getUser()).data.user?.email).toBe(email);
    expect((await client().auth.verifyOtp({ email, token: code, type: 'email' })).error).toMatchObject({ status: 403, code: 'otp_expired' });

    const other = await signUp();
    expect((await client().auth.signInWithOtp({ email: other })).error).toBeNull();
    const right = codeIn((await waitForMail(server, other)).text);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await client().auth.verifyOtp({ email: other, token: wrong, type: 'email' })).error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    expect((await client().auth.verifyOtp({ email: other, token: right, type: 'email' })).error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('answers every address alike; makes an account for a new one unless told not to, confirmed by its link', async () => {
    const newcomer = freshEmail('new').toLowerCase();
    const stranger = freshEmail('stranger').toLowerCase();
    const made = await client().auth.signInWithOtp({ email: newcomer, options: { data: { displayName: 'New Buyer' } } });
    const refused = await client().auth.signInWithOtp({ email: stranger, options: { shouldCreateUser: false } });
    expect(made.error).toBeNull();
    expect(refused.error).toBeNull();
    expect(refused.data).toEqual(made.data);
    const mail = await waitForMail(server, newcomer);
    const account = await db.selectFrom('auth_users').selectAll().where('email', '=', newcomer).executeTakeFirstOrThrow();
    expect(account.email_confirmed_at).toBeNull();
    expect(account.user_metadata).toEqual({ displayName: 'New Buyer' });
    const device = client();
    expect((await device.auth.verifyOtp({ email: newcomer, token: codeIn(mail.text), type: 'email' })).error).toBeNull();
    const confirmed = await db.selectFrom('auth_users').select('email_confirmed_at').where('email', '=', newcomer).executeTakeFirstOrThrow();
    expect(confirmed.email_confirmed_at).not.toBeNull();

    await server.mailSettled();
    expect(await mailsTo(server, stranger)).toHaveLength(0);
    expect(await db.selectFrom('auth_users').select('id').where('email', '=', stranger).executeTakeFirst()).toBeUndefined();
  });

  it('takes an address back from whoever signed up with it first: their password stops working once its owner opens a link', async () => {
    const squatter = client();
    expect((await squatter.auth.signUp({ email: OWNER, password: 'squatter password' })).error).toBeNull();
    expect((await client().auth.signInWithOtp({ email: OWNER })).error).toBeNull();
    const { fragment } = await openLink(linkIn(await waitForMail(server, OWNER)));
    expect(fragment.get('access_token')).toBeTruthy();
    expect((await client().auth.signInWithPassword({ email: OWNER, password: 'squatter password' })).error).toMatchObject({ code: 'invalid_credentials' });
  });
});
