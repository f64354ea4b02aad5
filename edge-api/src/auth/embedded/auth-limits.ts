import type { Context, MiddlewareHandler } from 'hono';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createFailureBackoff, createFixedWindowLimiter, type RateLimiter, type RateLimitResult } from '../../lib/rate-limit.ts';
import { AuthFailure } from './auth-requests.ts';

/**
 * Per caller IP: password sign-ins (tokenPer5Min, 150), refreshes (refreshPer5Min, 600) and sign-ups
 * (signupPer5Min, 30) in 5 minutes. Wrong passwords: `accountFreeFailures` (5) in a row for one account
 * from one address (an IPv6 address counts by its /64), then a wait that doubles from 30 s up to 15 minutes;
 * from all addresses together the account waits past `accountAloneFreeFailures` (25), up to 5 minutes
 * (decision 161), but that wait holds only addresses that got this account's password wrong in the last
 * hour: an address with no wrong guess (the owner's) still signs in (decision 246).
 */
export interface AuthRateLimitSettings {
  tokenPer5Min?: number;
  refreshPer5Min?: number;
  signupPer5Min?: number;
  accountFreeFailures?: number;
  accountAloneFreeFailures?: number;
  /** Recovery mails per caller IP in 5 minutes (30). */
  mailPer5Min?: number;
  /** Sign-in links (signInWithOtp) per caller IP in 5 minutes (30). */
  signInMailPer5Min?: number;
  /** Mails to one address in an hour (5); whatever the count, one a minute at most. */
  mailsPerAddressPerHour?: number;
  /** Email-change mails one account may ask for in an hour (5). */
  emailChangesPerAccountPerHour?: number;
  /** Profile updates (PUT /user) per account in 5 minutes (30). */
  userUpdatesPer5Min?: number;
}

/** Wrong passwords, counted per account and address together, and per account alone with a looser cap. */
export interface PasswordGuesses {
  check(email: string, ip: string): Promise<RateLimitResult>;
  fail(email: string, ip: string): Promise<void>;
  succeed(email: string, ip: string): Promise<void>;
  /** Forgets every failure of the account, from every address (an admin set its password). */
  forget(email: string): Promise<void>;
}

export interface AuthLimits {
  signin: RateLimiter;
  refresh: RateLimiter;
  signup: RateLimiter;
  recoveryMail: RateLimiter;
  signInMail: RateLimiter;
  emailChangeMail: RateLimiter;
  userUpdates: RateLimiter;
  addressMinute: RateLimiter;
  addressHour: RateLimiter;
  guesses: PasswordGuesses;
}

const RATE_WINDOW_MS = 5 * 60_000;
const HOUR_MS = 60 * 60_000;
const MAIL_INTERVAL_SECONDS = 60;

/**
 * The address a guess is counted against: an IPv4 address as it is, an IPv6 one by its /64 (what one
 * host or home is given), so an attacker cannot make every guess come from a "new" address.
 */
export function guessAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function passwordGuesses(db: Kysely<Database>, clock: () => Date, settings: AuthRateLimitSettings): PasswordGuesses {
  const common = { db, baseDelayMs: 30_000, forgetAfterMs: HOUR_MS, clock };
  const pair = createFailureBackoff({ ...common, name: 'auth.account_address', freeFailures: settings.accountFreeFailures ?? 5, maxDelayMs: 15 * 60_000 });
  const alone = createFailureBackoff({ ...common, name: 'auth.account', freeFailures: settings.accountAloneFreeFailures ?? 25, maxDelayMs: 5 * 60_000 });
  const pairKey = (email: string, ip: string) => `${email}|${guessAddress(ip)}`;
  /** Whether this address got this account's password wrong in the last hour. */
  const hasFailed = async (email: string, ip: string) => {
    const since = clock().getTime() - HOUR_MS;
    const { rows } = await sql`select 1 from rate_limits where key = ${`auth.account_address:${pairKey(email, ip)}`} and window_start > ${since}`.execute(db);
    return rows.length > 0;
  };
  return {
    // The account's own wait (decision 246) holds only addresses that have guessed wrong for it: an
    // attacker's addresses keep it locked against themselves, one guess each, while the owner, from any
    // address with no wrong password for the account, still signs in.
    async check(email, ip) {
      const byPair = await pair.check(pairKey(email, ip));
      if (!byPair.allowed) return byPair;
      const byAccount = await alone.check(email);
      return byAccount.allowed || !(await hasFailed(email, ip)) ? { allowed: true } : byAccount;
    },
    async fail(email, ip) {
      await pair.fail(pairKey(email, ip));
      await alone.fail(email);
    },
    async succeed(email, ip) {
      await pair.succeed(pairKey(email, ip));
      await alone.succeed(email);
    },
    async forget(email) {
      const escaped = email.replace(/[\\%_]/g, (m) => `\\${m}`);
      await sql`delete from rate_limits where key = ${`auth.account:${email}`} or key like ${`auth.account_address:${escaped}|%`}`.execute(db);
    },
  };
}

export function createAuthLimits(db: Kysely<Database>, clock: () => Date, settings: AuthRateLimitSettings = {}): AuthLimits {
  const window = (name: string, limit: number, windowMs = RATE_WINDOW_MS) => createFixedWindowLimiter({ db, name, limit, windowMs, clock });
  return {
    signin: window('auth.signin', settings.tokenPer5Min ?? 150),
    refresh: window('auth.refresh', settings.refreshPer5Min ?? 600),
    signup: window('auth.signup', settings.signupPer5Min ?? 30),
    recoveryMail: window('auth.mail', settings.mailPer5Min ?? 30),
    signInMail: window('auth.otp', settings.signInMailPer5Min ?? 30),
    emailChangeMail: window('auth.email_change', settings.emailChangesPerAccountPerHour ?? 5, HOUR_MS),
    userUpdates: window('auth.user_update', settings.userUpdatesPer5Min ?? 30),
    addressMinute: window('auth.mail_minute', 1, MAIL_INTERVAL_SECONDS * 1000),
    addressHour: window('auth.mail_hour', settings.mailsPerAddressPerHour ?? 5, HOUR_MS),
    guesses: passwordGuesses(db, clock, settings),
  };
}

/** GoTrue's 429, with the wait in Retry-After. */
export function refuseFor(c: Context, retryAfterSeconds: number): AuthFailure {
  c.header('Retry-After', String(retryAfterSeconds));
  return new AuthFailure(429, 'over_request_rate_limit', 'Request rate limit reached');
}

/** Counts a hit on `key`; past the limit, the 429. */
export async function spend(c: Context, limiter: RateLimiter, key: string): Promise<void> {
  const result = await limiter.hit(key);
  if (!result.allowed) throw refuseFor(c, result.retryAfterSeconds);
}

export const limitedPerIp =
  (limiter: RateLimiter, clientIp: (c: Context) => string): MiddlewareHandler =>
  async (c, next) => {
    await spend(c, limiter, clientIp(c));
    await next();
  };

/** Per address, whoever asks: one mail a minute, a few an hour; the same answer whether the account exists or not. */
export async function limitMailsTo(c: Context, limits: AuthLimits, email: string): Promise<void> {
  const perMinute = await limits.addressMinute.hit(email);
  if (!perMinute.allowed) {
    c.header('Retry-After', String(perMinute.retryAfterSeconds));
    throw new AuthFailure(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${perMinute.retryAfterSeconds} seconds.`);
  }
  const perHour = await limits.addressHour.hit(email);
  if (!perHour.allowed) {
    c.header('Retry-After', String(perHour.retryAfterSeconds));
    throw new AuthFailure(429, 'over_email_send_rate_limit', 'Email rate limit exceeded');
  }
}
