import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { freshEmail, startAuthServer, supabaseClient, type AuthServer } from '../../testing/auth-server.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { offsetIntoNextWindow } from '../../testing/limit-window.ts';
import { mailboxMailer, readMailbox } from './mailer.ts';
import { linkIn, mailsTo as mailsToOn, openLink, waitForMail as waitForMailOn } from '../../testing/auth-mail.ts';
import { ANON_KEY } from '../../testing/auth-server.ts';

let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let server: AuthServer;
let clockOffsetMs = 0;
const OTHER_SITE = 'https://shop.example.test';

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db, { clock: () => new Date(Date.now() + clockOffsetMs), redirectOrigins: [OTHER_SITE] });
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

const client = () => supabaseClient(server.url);

async function signUp(password = 'correct horse') {
  const supabase = client();
  const email = freshEmail().toLowerCase();
  const { error } = await supabase.auth.signUp({ email, password, options: { data: { displayName: 'Ana Rahman' } } });
  expect(error).toBeNull();
  return { supabase, email, password };
}

const mailsTo = (address: string) => mailsToOn(server, address);
const waitForMail = (address: string, count = 1) => waitForMailOn(server, address, count);

async function sessionFrom(fragment: URLSearchParams): Promise<SupabaseClient> {
  const supabase = client();
  const { error } = await supabase.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
  expect(error).toBeNull();
  return supabase;
}

async function canSignIn(email: string, password: string): Promise<boolean> {
  const { error } = await client().auth.signInWithPassword({ email, password });
  return error === null;
}

describe('password recovery (resetPasswordForEmail)', () => {
  it('mails a one-hour link that signs in for a new password, once; the old password and the other sessions stop working', async () => {
    const { supabase: oldDevice, email } = await signUp('old password');
    const { data, error } = await client().auth.resetPasswordForEmail(email, { redirectTo: `${server.url}/reset-password` });
    expect(error).toBeNull();
    expect(data).toEqual({});

    const mail = await waitForMail(email);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain('within one hour');
    const link = linkIn(mail);
    expect(link.origin).toBe(server.url);
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(link.searchParams.get('redirect_to')).toBe(`${server.url}/reset-password`);
    // Only the link's hash is stored: the database holds nothing that opens it.
    const stored = await db.selectFrom('auth_one_time_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(link.searchParams.get('token')!);

    const { target, fragment } = await openLink(link);
    expect(`${target.origin}${target.pathname}`).toBe(`${server.url}/reset-password`);
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBe(3600);

    const recovering = await sessionFrom(fragment);
    const changed = await recovering.auth.updateUser({ password: 'brand new password' });
    expect(changed.error).toBeNull();
    expect(await canSignIn(email, 'brand new password')).toBe(true);
    expect(await canSignIn(email, 'old password')).toBe(false);
    // The device that knew the old password is signed out.
    const refreshed = await oldDevice.auth.refreshSession();
    expect(refreshed.error).not.toBeNull();

    // The same link a second time: the page is told, and no session comes with it.
    const again = await openLink(link);
    expect(again.fragment.get('access_token')).toBeNull();
    expect(again.fragment.get('error_code')).toBe('otp_expired');
    expect(again.fragment.get('error_description')).toBe('Email link is invalid or has expired');

    // Having set it, the recovery session needs the current password like any other.
    const second = await recovering.auth.updateUser({ password: 'third password' });
    expect(second.error).toMatchObject({ status: 400, code: 'current_password_required' });
  });

  it('lets a recovery link set the password without the current one for 15 minutes only', async () => {
    const { email } = await signUp('old password');
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const recovering = await sessionFrom((await openLink(linkIn(await waitForMail(email)))).fragment);
    clockOffsetMs = 15 * 60_000 + 1_000;
    const late = await recovering.auth.updateUser({ password: 'too late password' });
    expect(late.error).toMatchObject({ status: 401, code: 'reauthentication_needed' });
    expect(await canSignIn(email, 'old password')).toBe(true);
    clockOffsetMs = 0;
    expect((await recovering.auth.updateUser({ password: 'in time password' })).error).toBeNull();
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const email = freshEmail('nobody').toLowerCase();
    const { data, error } = await client().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    const known = await signUp();
    await client().auth.resetPasswordForEmail(known.email);
    await server.mailSettled();
    await waitForMail(known.email);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('sends one mail a minute per address, whoever asks and whether the account exists or not', async () => {
    clockOffsetMs = offsetIntoNextWindow(60_000);
    const { email } = await signUp();
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const second = await client().auth.resetPasswordForEmail(email.toUpperCase());
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    const unknown = freshEmail('ghost').toLowerCase();
    expect((await client().auth.resetPasswordForEmail(unknown)).error).toBeNull();
    expect((await client().auth.resetPasswordForEmail(unknown)).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    await server.mailSettled();
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("leaves the owner a way in when strangers spend the address's mail budget: the newest mailed link still signs in (decision 246)", async () => {
    const { email } = await signUp();
    const hour = 60 * 60_000;
    // A clock a second into an hour of its own, a minute and a second between requests, as the attacker did.
    clockOffsetMs = offsetIntoNextWindow(hour);
    for (let request = 0; request < 5; request += 1) {
      expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
      await waitForMail(email, request + 1);
      clockOffsetMs += 61_000;
    }
    expect((await client().auth.resetPasswordForEmail(email)).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect((await client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toMatchObject({ status: 429 });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(5);
    const { fragment } = await openLink(linkIn(mails.at(-1)!));
    const owner = await sessionFrom(fragment);
    expect((await owner.auth.getUser()).data.user?.email).toBe(email);
  });

  it('sends the tokens only to the site or an allowed origin, never to a page someone else names', async () => {
    const { email } = await signUp();
    await client().auth.resetPasswordForEmail(email, { redirectTo: 'https://attacker.example/steal' });
    const link = linkIn(await waitForMail(email));
    expect(link.searchParams.get('redirect_to')).toBe(`${server.url}/reset-password`);
    // A hand-edited link cannot send the tokens elsewhere either.
    link.searchParams.set('redirect_to', 'https://attacker.example/steal');
    const { target, fragment } = await openLink(link);
    expect(target.origin).toBe(server.url);
    expect(fragment.get('access_token')).toBeTruthy();

    const other = await signUp();
    await client().auth.resetPasswordForEmail(other.email, { redirectTo: `${OTHER_SITE}/reset-password` });
    expect(linkIn(await waitForMail(other.email)).searchParams.get('redirect_to')).toBe(`${OTHER_SITE}/reset-password`);
  });

  it('builds the link on the configured site, whatever Host header the request came with', async () => {
    const { email } = await signUp();
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ email });
      const sent = request(
        `${server.url}/auth/v1/recover`,
        {
          method: 'POST',
          headers: { host: 'attacker.example', apikey: ANON_KEY, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
    expect(status).toBe(200);
    const link = linkIn(await waitForMail(email));
    expect(link.origin).toBe(server.url);
    expect(new URL(link.searchParams.get('redirect_to')!).origin).toBe(server.url);
  });

  it('verifyOtp with the token_hash answers the session; a link older than an hour, or an older link, does not', async () => {
    const { email } = await signUp('first password');
    await client().auth.resetPasswordForEmail(email);
    const token = linkIn(await waitForMail(email)).searchParams.get('token')!;
    const supabase = client();
    const { data, error } = await supabase.auth.verifyOtp({ type: 'recovery', token_hash: token });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect((await supabase.auth.updateUser({ password: 'second password' })).error).toBeNull();

    clockOffsetMs = 2 * 60_000; // past the one-a-minute limit
    await client().auth.resetPasswordForEmail(email);
    const stale = linkIn(await waitForMail(email, 2)).searchParams.get('token')!;
    clockOffsetMs += 61 * 60_000;
    const late = await client().auth.verifyOtp({ type: 'recovery', token_hash: stale });
    expect(late.error).toMatchObject({ status: 403, code: 'otp_expired' });
    expect(late.data.session).toBeNull();

    await client().auth.resetPasswordForEmail(email);
    const replaced = linkIn(await waitForMail(email, 3)).searchParams.get('token')!;
    clockOffsetMs += 2 * 60_000;
    await client().auth.resetPasswordForEmail(email);
    await waitForMail(email, 4);
    const older = await client().auth.verifyOtp({ type: 'recovery', token_hash: replaced });
    expect(older.error).toMatchObject({ code: 'otp_expired' });
  });
});

describe('user updates (updateUser, signOut)', () => {
  it('changes the password only with the current one, and ends the other sessions', async () => {
    const { supabase, email } = await signUp('current password');
    const other = client();
    await other.auth.signInWithPassword({ email, password: 'current password' });

    const missing = await supabase.auth.updateUser({ password: 'new password 1' });
    expect(missing.error).toMatchObject({ status: 400, code: 'current_password_required' });
    const wrong = await supabase.auth.updateUser({ password: 'new password 1', current_password: 'not it' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_mismatch' });
    expect(await canSignIn(email, 'current password')).toBe(true);

    const right = await supabase.auth.updateUser({ password: 'new password 1', current_password: 'current password' });
    expect(right.error).toBeNull();
    expect(await canSignIn(email, 'new password 1')).toBe(true);
    expect((await other.auth.refreshSession()).error).not.toBeNull();
    expect((await supabase.auth.refreshSession()).error).toBeNull();
  });

  it('keeps the name and mobile in the metadata', async () => {
    const { supabase } = await signUp();
    const { data, error } = await supabase.auth.updateUser({ data: { displayName: 'Ana R.', mobile: '01800000000' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ displayName: 'Ana R.', mobile: '01800000000' });
  });

  it('changes the email only once the link mailed to the new address is opened', async () => {
    const { supabase, email, password } = await signUp();
    const newEmail = freshEmail('moved').toLowerCase();
    const { data, error } = await supabase.auth.updateUser({ email: newEmail }, { emailRedirectTo: `${server.url}/profile` });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: newEmail });
    expect(await canSignIn(email, password)).toBe(true);
    expect(await canSignIn(newEmail, password)).toBe(false);
    expect(await mailsTo(email)).toHaveLength(0);

    const mail = await waitForMail(newEmail);
    expect(mail.subject).toBe('Confirm your new email address');
    const link = linkIn(mail);
    expect(link.searchParams.get('type')).toBe('email_change');
    const { target, fragment } = await openLink(link);
    expect(target.pathname).toBe('/profile');
    expect(fragment.get('type')).toBe('email_change');
    const moved = await sessionFrom(fragment);
    expect((await moved.auth.getUser()).data.user).toMatchObject({ email: newEmail });

    expect(await canSignIn(newEmail, password)).toBe(true);
    expect(await canSignIn(email, password)).toBe(false);
    // The session that asked gets the new address with its next token.
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.data.user?.email).toBe(newEmail);
  });

  it('answers an address another account has exactly as a free one, mails its owner a notice without a link, and changes nothing', async () => {
    // Found by an attacker's pass: 422 email_exists told who is registered, before any limit.
    const { supabase, email } = await signUp();
    const taken = await signUp();
    const free = freshEmail('free').toLowerCase();
    const toTaken = await supabase.auth.updateUser({ email: taken.email.toUpperCase() });
    expect(toTaken.error).toBeNull();
    expect(toTaken.data.user).toMatchObject({ email, new_email: taken.email });
    const toFree = await supabase.auth.updateUser({ email: free });
    expect(toFree.error).toBeNull();
    expect(Object.keys(toTaken.data.user!).sort()).toEqual(Object.keys(toFree.data.user!).sort());

    const notice = await waitForMail(taken.email);
    expect(notice.subject).toBe('Someone tried to use your email address');
    expect(notice.text).not.toMatch(/http/);
    expect((await supabase.auth.getUser()).data.user?.email).toBe(email);
    expect(await canSignIn(taken.email, taken.password)).toBe(true);
    const bad = await supabase.auth.updateUser({ email: 'not an address' });
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('spends a per-account budget for email changes, apart from the recovery budget of the address it comes from', async () => {
    clockOffsetMs = offsetIntoNextWindow(60 * 60_000);
    const { supabase } = await signUp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const { error } = await supabase.auth.updateUser({ email: freshEmail('many').toLowerCase() });
      statuses.push(error ? (error.status ?? 0) : 200);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The budget is the account's: the same account on another device (another address) is refused too.
    const session = (await supabase.auth.getSession()).data.session!;
    const otherDevice = client();
    expect((await otherDevice.auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token })).error).toBeNull();
    expect((await otherDevice.auth.updateUser({ email: freshEmail('elsewhere').toLowerCase() })).error).toMatchObject({ status: 429 });
    // Recovery from the same device still works.
    const { email: other } = await signUp();
    expect((await supabase.auth.resetPasswordForEmail(other)).error).toBeNull();
  });

  it('refuses metadata other than the profile fields, or too long, and limits updates per account, changing nothing', async () => {
    clockOffsetMs = offsetIntoNextWindow(5 * 60_000);
    const { supabase } = await signUp();
    const unknown = await supabase.auth.updateUser({ data: { blob: 'x'.repeat(60_000) } });
    expect(unknown.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const long = await supabase.auth.updateUser({ data: { displayName: 'x'.repeat(121) } });
    expect(long.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const nested = await supabase.auth.updateUser({ data: { displayName: { first: 'Ana' } } });
    expect(nested.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await supabase.auth.getUser()).data.user?.user_metadata).toEqual({ displayName: 'Ana Rahman' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      const { error } = await supabase.auth.updateUser({ data: { mobile: `0170000${String(attempt).padStart(4, '0')}` } });
      statuses.push(error ? (error.status ?? 0) : 200);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(27);
    expect(statuses.at(-1)).toBe(429);
  });

  it("signOut({scope: 'others'}) ends every session but this one", async () => {
    const { supabase, email, password } = await signUp();
    const phone = client();
    await phone.auth.signInWithPassword({ email, password });
    const { error } = await supabase.auth.signOut({ scope: 'others' });
    expect(error).toBeNull();
    expect((await phone.auth.refreshSession()).error).not.toBeNull();
    expect((await supabase.auth.getUser()).error).toBeNull();
    expect((await supabase.auth.refreshSession()).error).toBeNull();
  });
});

describe('the local mailbox (no SMTP_URL)', () => {
  it('keeps each message as an owner-only file and names the file on the console, once, never the link or its token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailbox-test-'));
    try {
      const lines: string[] = [];
      const logger = { info: (message: string) => lines.push(message), warn: () => {}, error: () => {} };
      const mailer = await mailboxMailer(join(dir, 'mailbox'), { logger });
      await mailer.send({
        to: 'ana@example.test',
        subject: 'Reset your password',
        text: 'Open http://localhost/x?token=abc',
        link: 'http://localhost/x?token=abc',
      });
      const [mail] = await readMailbox(join(dir, 'mailbox'));
      expect(mail).toMatchObject({ to: 'ana@example.test', subject: 'Reset your password', text: 'Open http://localhost/x?token=abc\n' });
      expect((await stat(join(dir, 'mailbox'))).mode & 0o777).toBe(0o700);
      expect((await stat(mail!.file)).mode & 0o777).toBe(0o600);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(mail!.file);
      expect(lines[0]).not.toContain('token=abc');
      expect(lines[0]).not.toContain('ana@example.test');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
