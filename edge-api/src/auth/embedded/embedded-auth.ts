import bcrypt from 'bcryptjs';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../db/faults.ts';
import type { Logger } from '../../lib/logger.ts';
import { signAccessToken, type SigningKey } from '../signing-key.ts';
import {
  BCRYPT_COST,
  confirmEmail,
  deleteAuthUser,
  deleteOneTimeTokens,
  endSessions,
  findAuthUserByEmail,
  findAuthUserById,
  findSessionMethod,
  hashRefreshToken,
  insertAuthUser,
  lockAuthUser,
  newRefreshToken,
  recordSignIn,
  rotateRefreshToken,
  saveOneTimeToken,
  setSessionMethod,
  startSession,
  takeOneTimeToken,
  updateAuthUser,
  type AuthUserRow,
  type LinkPurpose,
  type SessionMethod,
} from './auth-store.ts';
import {
  AuthFailure,
  bearerToken,
  checkNewPassword,
  invalidCredentials,
  mergeMetadata,
  metadataObject,
  normalizeEmail,
  readJsonObject,
  sameSecret,
  validationFailed,
} from './auth-requests.ts';
import { toAuthUser } from './auth-user.ts';
import type { Mailer } from './mailer.ts';
import { mountAdminUsers } from './admin-users.ts';
import { createFailureBackoff, createFixedWindowLimiter, type RateLimiter } from '../../lib/rate-limit.ts';

export interface EmbeddedAuthOptions {
  db: Kysely<Database>;
  key: SigningKey;
  /** The `iss` of the access tokens, e.g. 'http://localhost:8787/auth/v1'. */
  issuer: string;
  /** The publishable key the PWA sends as `apikey`; a bearer equal to it means "no user". */
  anonKey: string;
  /** Secret; the bearer /admin/* calls need. */
  serviceRoleKey: string;
  /** The caller's IP, for the rate limits. */
  clientIp: (c: Context) => string;
  clock?: () => Date;
  logger: Logger;
  accessTokenSeconds?: number;
  /**
   * ADMIN_EMAILS: a sign-up with one of these addresses is left unconfirmed (no session, and no sign-in
   * until the owner's `npm run admin` confirms it), since the API makes a confirmed one an admin and
   * this server cannot send mail to prove the address.
   */
  unconfirmedEmails?: string[];
  /**
   * Stand-in only: also accept HS256 access tokens signed with this secret on /user and /logout, as a
   * Supabase project on the legacy JWT secret does (this server itself only ever signs ES256).
   */
  legacyJwtSecret?: string;
  /**
   * Per caller IP: password sign-ins (tokenPer5Min, 150), refreshes (refreshPer5Min, 600) and sign-ups
   * (signupPer5Min, 30) in 5 minutes; per account: `accountFreeFailures` (5) wrong passwords in a row,
   * then a wait that doubles from 30 s up to 15 minutes.
   */
  rateLimits?: {
    tokenPer5Min?: number;
    refreshPer5Min?: number;
    signupPer5Min?: number;
    accountFreeFailures?: number;
    /** Recovery and email-change mails per caller IP in 5 minutes (30). */
    mailPer5Min?: number;
    /** Mails to one address in an hour (5); whatever the count, one a minute at most. */
    mailsPerAddressPerHour?: number;
  };
  /** Sends the recovery and email-change links (SMTP, or the local mailbox). */
  mailer: Mailer;
  /**
   * The address customers reach the shop at (SITE_URL, else http://localhost:PORT): mailed links point
   * there, and a link's redirect_to must be on it or on one of `redirectOrigins`.
   */
  siteUrl?: string;
  /** Other origins a mailed link may send its tokens to (ALLOWED_ORIGINS). */
  redirectOrigins?: string[];
}

export interface EmbeddedAuth {
  /** Mounted at /auth/v1. */
  app: Hono;
  /** Deletes an account (and its sessions); a missing one is not an error. */
  deleteUser(userId: string): Promise<void>;
  /** Public keys only. */
  jwks(): { keys: JWK[] };
}

const API_VERSION = '2024-01-01';
const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const REFRESH_REUSE_GRACE_MS = 10_000;
const RATE_WINDOW_MS = 5 * 60_000;
const MAX_BODY_BYTES = 64 * 1024;
/** How long a mailed link works: GoTrue's default mailer OTP lifetime is one hour too. */
const LINK_LIFETIME_MS = 60 * 60_000;
const MAIL_INTERVAL_SECONDS = 60;
const LINK_INVALID = 'Email link is invalid or has expired';

/** Where a verified link sends the browser by default: the PWA's screens for each purpose. */
const LANDING_PATHS: Record<LinkPurpose, string> = { recovery: '/reset-password', email_change: '/profile' };

/**
 * The subset of Supabase Auth the PWA needs, speaking its wire protocol so that supabase-js works against
 * it unchanged: email + password sign-up and sign-in, refresh-token rotation, the user, logout, and the
 * admin delete the API uses. ES256 access tokens with a kid; the JWKS publishes the public key.
 */
export function createEmbeddedAuth(options: EmbeddedAuthOptions): EmbeddedAuth {
  const { db, key, issuer, anonKey, serviceRoleKey, clientIp, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const unconfirmedEmails = new Set((options.unconfirmedEmails ?? []).map((email) => email.trim().toLowerCase()));
  const accessTokenSeconds = options.accessTokenSeconds ?? 3600;
  const tokenLimiter = createFixedWindowLimiter({ db, name: 'auth.signin', limit: options.rateLimits?.tokenPer5Min ?? 150, windowMs: RATE_WINDOW_MS, clock });
  const refreshLimiter = createFixedWindowLimiter({ db, name: 'auth.refresh', limit: options.rateLimits?.refreshPer5Min ?? 600, windowMs: RATE_WINDOW_MS, clock });
  const accountBackoff = createFailureBackoff({
    db,
    name: 'auth.account',
    freeFailures: options.rateLimits?.accountFreeFailures ?? 5,
    baseDelayMs: 30_000,
    maxDelayMs: 15 * 60_000,
    forgetAfterMs: 60 * 60_000,
    clock,
  });
  const signupLimiter = createFixedWindowLimiter({ db, name: 'auth.signup', limit: options.rateLimits?.signupPer5Min ?? 30, windowMs: RATE_WINDOW_MS, clock });
  const mailLimiter = createFixedWindowLimiter({ db, name: 'auth.mail', limit: options.rateLimits?.mailPer5Min ?? 30, windowMs: RATE_WINDOW_MS, clock });
  const addressMinuteLimiter = createFixedWindowLimiter({ db, name: 'auth.mail_minute', limit: 1, windowMs: MAIL_INTERVAL_SECONDS * 1000, clock });
  const addressHourLimiter = createFixedWindowLimiter({ db, name: 'auth.mail_hour', limit: options.rateLimits?.mailsPerAddressPerHour ?? 5, windowMs: 60 * 60_000, clock });
  const siteUrl = new URL(options.siteUrl ?? new URL(issuer).origin);
  const redirectOrigins = new Set([siteUrl.origin, ...(options.redirectOrigins ?? []).flatMap((origin) => (URL.canParse(origin) ? [new URL(origin).origin] : []))]);
  /** A redirect_to on an allowed origin, else the PWA's screen on the site: never a stranger's page (the tokens ride along). */
  const redirectFor = (purpose: LinkPurpose, requested: string | undefined): URL => {
    if (requested && URL.canParse(requested)) {
      const url = new URL(requested);
      if (redirectOrigins.has(url.origin)) {
        url.hash = '';
        return url;
      }
    }
    return new URL(LANDING_PATHS[purpose], siteUrl);
  };
  /** Per address, whoever asks: one mail a minute, a few an hour; the same answer whether the account exists or not. */
  const limitMailsTo = async (c: Context, email: string) => {
    const perMinute = await addressMinuteLimiter.hit(email);
    if (!perMinute.allowed) {
      c.header('Retry-After', String(perMinute.retryAfterSeconds));
      throw new AuthFailure(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${perMinute.retryAfterSeconds} seconds.`);
    }
    const perHour = await addressHourLimiter.hit(email);
    if (!perHour.allowed) {
      c.header('Retry-After', String(perHour.retryAfterSeconds));
      throw new AuthFailure(429, 'over_email_send_rate_limit', 'Email rate limit exceeded');
    }
  };
  /** A new link for the account: its secret goes into the mail, only its hash into the database. */
  const issueLink = async (userId: string, purpose: LinkPurpose, redirectTo: string | undefined, newEmail?: string): Promise<string> => {
    const token = newRefreshToken();
    await saveOneTimeToken(db, { tokenHash: await hashRefreshToken(token), userId, purpose, newEmail, now: clock() });
    const link = new URL('/auth/v1/verify', siteUrl);
    link.searchParams.set('token', token);
    link.searchParams.set('type', purpose);
    link.searchParams.set('redirect_to', redirectFor(purpose, redirectTo).toString());
    return link.toString();
  };
  const jwks = () => ({ keys: [key.publicJwk] });
  const legacySecret = options.legacyJwtSecret ? new TextEncoder().encode(options.legacyJwtSecret) : undefined;
  const localKeys = createLocalJWKSet(jwks());

  // Unknown emails still cost one bcrypt comparison, so response times do not reveal who has an account.
  let dummyHash: Promise<string> | undefined;
  const passwordMatches = async (password: string, hash: string | undefined): Promise<boolean> => {
    if (hash) return bcrypt.compare(password, hash);
    dummyHash ??= bcrypt.hash(crypto.randomUUID(), BCRYPT_COST);
    await bcrypt.compare(password, await dummyHash);
    return false;
  };

  const refuseFor = (c: Context, retryAfterSeconds: number) => {
    c.header('Retry-After', String(retryAfterSeconds));
    return new AuthFailure(429, 'over_request_rate_limit', 'Request rate limit reached');
  };
  const rateLimited = (limiter: RateLimiter): MiddlewareHandler => async (c, next) => {
    const result = await limiter.hit(clientIp(c));
    if (!result.allowed) throw refuseFor(c, result.retryAfterSeconds);
    await next();
  };

  const requireServiceRole: MiddlewareHandler = async (c, next) => {
    const bearer = bearerToken(c);
    if (!bearer) throw new AuthFailure(401, 'no_authorization', 'This endpoint requires a Bearer token');
    if (!sameSecret(bearer, serviceRoleKey)) throw new AuthFailure(403, 'not_admin', 'User not allowed');
    await next();
  };

  /** The signed-in caller: a valid access token whose user and session still exist. */
  const authenticate = async (c: Context): Promise<{ user: AuthUserRow; sessionId: string; method: SessionMethod }> => {
    const bearer = bearerToken(c);
    if (!bearer || bearer === anonKey) throw new AuthFailure(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    let sub: unknown;
    let sessionId: unknown;
    try {
      const checks = { issuer, audience: 'authenticated', currentDate: clock() };
      const { payload } =
        legacySecret && decodeProtectedHeader(bearer).alg === 'HS256'
          ? await jwtVerify(bearer, legacySecret, { ...checks, algorithms: ['HS256'] })
          : await jwtVerify(bearer, localKeys, { ...checks, algorithms: ['ES256'] });
      sub = payload.sub;
      sessionId = payload.session_id;
    } catch {
      throw new AuthFailure(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is expired or has invalid claims');
    }
    if (typeof sub !== 'string' || typeof sessionId !== 'string') throw new AuthFailure(403, 'bad_jwt', 'invalid JWT: missing sub or session_id claim');
    const user = await findAuthUserById(db, sub);
    if (!user) throw new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    const method = await findSessionMethod(db, sessionId, user.id);
    if (!method) throw new AuthFailure(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    return { user, sessionId, method };
  };

  const tokenResponse = async (user: AuthUserRow, sessionId: string, refreshToken: string) => {
    const issuedAt = Math.floor(clock().getTime() / 1000);
    const accessToken = await signAccessToken(key, issuer, {
      sub: user.id,
      email: user.email,
      sessionId,
      userMetadata: user.user_metadata,
      issuedAt,
      expiresIn: accessTokenSeconds,
    });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: accessTokenSeconds,
      expires_at: issuedAt + accessTokenSeconds,
      refresh_token: refreshToken,
      user: toAuthUser(user),
    };
  };

  const passwordGrant = async (c: Context, body: Record<string, unknown>) => {
    if (typeof body.email !== 'string' || body.email.trim() === '') throw validationFailed('A valid email is required');
    if (typeof body.password !== 'string' || body.password === '') throw validationFailed('A password is required');
    const email = body.email.trim().toLowerCase();
    // Per account, whatever address the guesses come from (unknown emails too, so the answer tells nothing).
    const waited = await accountBackoff.check(email);
    if (!waited.allowed) throw refuseFor(c, waited.retryAfterSeconds);
    const limited = await tokenLimiter.hit(clientIp(c));
    if (!limited.allowed) throw refuseFor(c, limited.retryAfterSeconds);
    const found = await findAuthUserByEmail(db, email);
    const matches = await passwordMatches(body.password, found?.encrypted_password);
    if (!found || !matches) {
      await accountBackoff.fail(email);
      throw invalidCredentials();
    }
    await accountBackoff.succeed(email);
    if (!found.email_confirmed_at) throw new AuthFailure(400, 'email_not_confirmed', 'Email not confirmed');
    const refreshToken = newRefreshToken();
    const refreshTokenHash = await hashRefreshToken(refreshToken);
    const now = clock();
    const signedIn = await db.transaction().execute(async (trx) => {
      const sessionId = await startSession(trx, found.id, refreshTokenHash, now);
      return { user: await recordSignIn(trx, found.id, now), sessionId };
    });
    return tokenResponse(signedIn.user, signedIn.sessionId, refreshToken);
  };

  const refreshGrant = async (body: Record<string, unknown>) => {
    if (typeof body.refresh_token !== 'string' || body.refresh_token === '') throw validationFailed('A refresh_token is required');
    const presented = body.refresh_token;
    const outcome = await db.transaction().execute((trx) => rotateRefreshToken(trx, presented, newRefreshToken(), clock(), REFRESH_REUSE_GRACE_MS));
    if (outcome.kind === 'not_found') throw new AuthFailure(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (outcome.kind === 'reused') {
      logger.warn('auth: refresh token reused, session revoked', { userId: outcome.userId, sessionId: outcome.sessionId });
      throw new AuthFailure(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    return tokenResponse(outcome.user, outcome.sessionId, outcome.refreshToken);
  };

  const app = new Hono();

  app.onError((err, c) => {
    c.header(API_VERSION_HEADER, API_VERSION);
    if (err instanceof AuthFailure) return c.json({ code: err.code, message: err.message, ...err.extra }, err.status);
    if (isDatabaseUnavailable(err)) {
      logger.warn('auth: database unavailable', { method: c.req.method, path: c.req.path, error: err.message });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ code: 'database_unavailable', message: 'The sign-in service cannot reach its database right now. Please try again in a few seconds.' }, 503);
    }
    logger.error('auth: unexpected error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    return c.json({ code: 'unexpected_failure', message: 'Unexpected failure, please check server logs for more information' }, 500);
  });

  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set(API_VERSION_HEADER, API_VERSION);
  });
  // auth-js reads error codes only when it can see the version header, so a cross-origin caller must be allowed to.
  app.use(
    '*',
    cors({
      origin: '*',
      // No allowHeaders: the preflight's requested headers are echoed, so headers supabase-js adds later still pass.
      exposeHeaders: [API_VERSION_HEADER, 'Retry-After'],
      maxAge: 600,
    }),
  );
  // Like Supabase's gateway: every call but the public key set, the health check and the mailed link carries a known API key.
  app.use('*', async (c, next) => {
    const path = c.req.path;
    // The mailed link is opened by a browser that has no key, as Supabase's gateway lets it through too.
    if (path.endsWith('/.well-known/jwks.json') || path.endsWith('/health') || (c.req.method === 'GET' && path.endsWith('/verify'))) return next();
    const apikey = c.req.header('apikey');
    if (!apikey) return c.json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, 401);
    if (apikey !== anonKey && !sameSecret(apikey, serviceRoleKey)) {
      return c.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
    }
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AuthFailure(413, 'validation_failed', 'Request body is too large');
      },
    }),
  );

  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    return c.json(jwks());
  });

  app.get('/health', (c) => c.json({ version: 'embedded', name: 'GoTrue', description: 'Embedded Supabase Auth compatible server' }));

  app.get('/settings', (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );

  app.post('/signup', rateLimited(signupLimiter), async (c) => {
    const body = await readJsonObject(c);
    if (body.email === undefined && body.phone !== undefined) throw new AuthFailure(422, 'phone_provider_disabled', 'Phone signups are disabled');
    const email = normalizeEmail(body.email);
    const password = checkNewPassword(body.password, 'Signup requires a valid password');
    const metadata = metadataObject(body.data);
    const taken = () => new AuthFailure(422, 'user_already_exists', 'User already registered');
    if (await findAuthUserByEmail(db, email)) throw taken();
    const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
    const now = clock();
    if (unconfirmedEmails.has(email)) {
      // As Supabase answers a sign-up that needs confirmation: the user, no session.
      const user = await insertAuthUser(db, { id: crypto.randomUUID(), email, passwordHash, metadata, now, signedIn: false, confirmed: false });
      if (!user) throw taken();
      logger.warn('auth: an ADMIN_EMAILS address signed up; it stays unconfirmed until `npm run admin` confirms it', { userId: user.id });
      return c.json(toAuthUser(user));
    }
    const refreshToken = newRefreshToken();
    const refreshTokenHash = await hashRefreshToken(refreshToken);
    const created = await db.transaction().execute(async (trx) => {
      const user = await insertAuthUser(trx, { id: crypto.randomUUID(), email, passwordHash, metadata, now, signedIn: true, confirmed: true });
      if (!user) return undefined;
      return { user, sessionId: await startSession(trx, user.id, refreshTokenHash, now) };
    });
    if (!created) throw taken();
    logger.info('auth: user signed up', { userId: created.user.id });
    return c.json(await tokenResponse(created.user, created.sessionId, refreshToken));
  });

  app.post('/token', async (c) => {
    const grantType = c.req.query('grant_type');
    const body = await readJsonObject(c);
    if (grantType === 'password') return c.json(await passwordGrant(c, body));
    if (grantType === 'refresh_token') {
      const limited = await refreshLimiter.hit(clientIp(c));
      if (!limited.allowed) throw refuseFor(c, limited.retryAfterSeconds);
      return c.json(await refreshGrant(body));
    }
    throw validationFailed('unsupported_grant_type');
  });

  app.get('/user', async (c) => {
    const { user } = await authenticate(c);
    return c.json(toAuthUser(user));
  });

  app.put('/user', async (c) => {
    const { user, sessionId, method } = await authenticate(c);
    const body = await readJsonObject(c);
    if (typeof body.phone === 'string' && body.phone !== '') throw new AuthFailure(422, 'phone_provider_disabled', 'Phone logins are disabled');
    const changes = metadataObject(body.data);
    const newEmail = body.email === undefined || body.email === null || body.email === '' ? undefined : normalizeEmail(body.email);
    const emailChange = newEmail !== undefined && newEmail !== user.email ? newEmail : undefined;
    const newPassword = body.password === undefined || body.password === null ? undefined : checkNewPassword(body.password, 'Password must be a string');
    let passwordHash: string | undefined;
    if (newPassword !== undefined) {
      // A session begun from a recovery link sets the new password without the old one; any other needs it
      // (GoTrue's "require current password"), so an unlocked phone is not enough to take the account.
      if (method !== 'recovery') {
        if (typeof body.current_password !== 'string' || body.current_password === '') {
          throw new AuthFailure(400, 'current_password_required', 'Current password required when setting new password.');
        }
        const waited = await accountBackoff.check(user.email);
        if (!waited.allowed) throw refuseFor(c, waited.retryAfterSeconds);
        if (!(await bcrypt.compare(body.current_password, user.encrypted_password))) {
          await accountBackoff.fail(user.email);
          throw new AuthFailure(400, 'current_password_mismatch', 'Current password does not match.');
        }
        await accountBackoff.succeed(user.email);
      }
      if (await bcrypt.compare(newPassword, user.encrypted_password)) {
        throw new AuthFailure(422, 'same_password', 'New password should be different from the old password.');
      }
      passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
    }
    if (emailChange !== undefined) {
      const owner = await findAuthUserByEmail(db, emailChange);
      if (owner && owner.id !== user.id) throw new AuthFailure(422, 'email_exists', 'A user with this email address has already been registered');
      const limited = await mailLimiter.hit(clientIp(c));
      if (!limited.allowed) throw refuseFor(c, limited.retryAfterSeconds);
      await limitMailsTo(c, emailChange);
    }
    const now = clock();
    const updated = await db.transaction().execute(async (trx) => {
      const current = await lockAuthUser(trx, user.id);
      if (!current) throw new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      const row = await updateAuthUser(trx, user.id, { metadata: mergeMetadata(current.user_metadata, changes), passwordHash, now });
      if (passwordHash) {
        // Whoever learnt the old password loses every session but the one that changed it; a recovery
        // link still unused stops working, and this session needs the password from now on.
        await endSessions(trx, user.id, { except: sessionId });
        await deleteOneTimeTokens(trx, user.id, 'recovery');
        if (method === 'recovery') await setSessionMethod(trx, sessionId, 'password');
      }
      return row;
    });
    if (passwordHash) logger.info('auth: password changed, other sessions ended', { userId: user.id });
    if (emailChange === undefined) return c.json(toAuthUser(updated));
    // The address moves only when the link mailed to it is opened: it proves the new address is theirs.
    const link = await issueLink(user.id, 'email_change', c.req.query('redirect_to'), emailChange);
    await options.mailer.send({
      to: emailChange,
      subject: 'Confirm your new email address',
      link,
      text: [
        `Someone, hopefully you, asked to change the email address of an account at ${siteUrl.host} to this one.`,
        '',
        'To confirm the change, open this link within one hour:',
        link,
        '',
        `Until then the account keeps signing in with ${user.email}. If you did not ask for this, ignore this message.`,
      ].join('\n'),
    });
    logger.info('auth: email change requested, confirmation mailed to the new address', { userId: user.id });
    return c.json({ ...toAuthUser(updated), new_email: emailChange, email_change_sent_at: now.toISOString() });
  });

  app.post('/recover', async (c) => {
    const body = await readJsonObject(c);
    const email = normalizeEmail(body.email);
    const limited = await mailLimiter.hit(clientIp(c));
    if (!limited.allowed) throw refuseFor(c, limited.retryAfterSeconds);
    await limitMailsTo(c, email);
    const redirectTo = c.req.query('redirect_to');
    // The answer is the same whether the account exists or not, and comes before the mail is sent, so
    // neither it nor its timing says who has an account here.
    const found = await findAuthUserByEmail(db, email);
    if (found) {
      void (async () => {
        const link = await issueLink(found.id, 'recovery', redirectTo);
        await options.mailer.send({
          to: found.email,
          subject: 'Reset your password',
          link,
          text: [
            `Someone, hopefully you, asked to reset the password of your account at ${siteUrl.host}.`,
            '',
            'To choose a new password, open this link within one hour:',
            link,
            '',
            'If you did not ask for this, ignore this message: your password stays as it is.',
          ].join('\n'),
        });
        logger.info('auth: password recovery mailed', { userId: found.id });
      })().catch((error: unknown) => logger.error('auth: could not send the password recovery mail', { userId: found.id, error: String(error) }));
    }
    return c.json({});
  });

  /** Uses a mailed link: a session for its account (and, for an email change, the account's new address). */
  const verifyLink = async (token: unknown, type: unknown) => {
    if (type !== 'recovery' && type !== 'email_change') throw validationFailed('Verify requires a verification type of recovery or email_change');
    if (typeof token !== 'string' || token === '' || token.length > 200) throw new AuthFailure(403, 'otp_expired', LINK_INVALID);
    const purpose: LinkPurpose = type;
    const tokenHash = await hashRefreshToken(token);
    const now = clock();
    const refreshToken = newRefreshToken();
    const refreshTokenHash = await hashRefreshToken(refreshToken);
    const verified = await db.transaction().execute(async (trx) => {
      const link = await takeOneTimeToken(trx, tokenHash, purpose, new Date(now.getTime() - LINK_LIFETIME_MS));
      if (!link) return undefined;
      const current = await lockAuthUser(trx, link.userId);
      if (!current) return undefined;
      if (purpose === 'email_change') {
        // Taken by someone else since it was asked for: the link no longer works.
        const owner = link.newEmail ? await findAuthUserByEmail(trx, link.newEmail) : undefined;
        if (!link.newEmail || (owner && owner.id !== current.id)) return undefined;
      }
      // Opening a link mailed to the address proves it is theirs.
      const user = await confirmEmail(trx, current.id, now, purpose === 'email_change' ? (link.newEmail ?? undefined) : undefined);
      const sessionId = await startSession(trx, user.id, refreshTokenHash, now, purpose);
      return { user: await recordSignIn(trx, user.id, now), sessionId };
    });
    if (!verified) throw new AuthFailure(403, 'otp_expired', LINK_INVALID);
    logger.info(purpose === 'recovery' ? 'auth: recovery link used' : 'auth: email address changed', { userId: verified.user.id });
    return tokenResponse(verified.user, verified.sessionId, refreshToken);
  };

  // The link in the mail: GoTrue's redirect, with the session in the URL fragment (never sent to a server)
  // for supabase-js's detectSessionInUrl, or the error there when the link no longer works.
  app.get('/verify', async (c) => {
    const type = c.req.query('type');
    const purpose: LinkPurpose = type === 'email_change' ? 'email_change' : 'recovery';
    const target = redirectFor(purpose, c.req.query('redirect_to'));
    let fragment: URLSearchParams;
    try {
      const session = await verifyLink(c.req.query('token'), type);
      fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: session.token_type,
        type: purpose,
      });
    } catch (error) {
      if (!(error instanceof AuthFailure)) throw error;
      fragment = new URLSearchParams({ error: 'access_denied', error_code: error.code, error_description: error.message });
    }
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(`${target.toString()}#${fragment.toString()}`, 303);
  });

  // supabase-js's verifyOtp({type, token_hash}): the same link's secret, answered with the session.
  app.post('/verify', async (c) => {
    const body = await readJsonObject(c);
    return c.json(await verifyLink(body.token_hash ?? body.token, body.type));
  });

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') throw validationFailed('scope must be global, local or others');
    const { user, sessionId } = await authenticate(c);
    await endSessions(db, user.id, scope === 'global' ? {} : scope === 'local' ? { only: sessionId } : { except: sessionId });
    return c.body(null, 204);
  });

  mountAdminUsers(app, { db, requireServiceRole, clock, logger });

  app.get('/admin/users/:id', requireServiceRole, async (c) => {
    const user = await findAuthUserById(db, c.req.param('id'));
    if (!user) throw new AuthFailure(404, 'user_not_found', 'User not found');
    return c.json(toAuthUser(user));
  });

  app.delete('/admin/users/:id', requireServiceRole, async (c) => {
    const userId = c.req.param('id');
    if (!(await deleteAuthUser(db, userId))) throw new AuthFailure(404, 'user_not_found', 'User not found');
    logger.info('auth: user deleted by admin', { userId });
    return c.json({});
  });

  app.all('*', () => {
    throw new AuthFailure(404, 'not_found', 'Not found');
  });

  return {
    app,
    deleteUser: async (userId) => {
      await deleteAuthUser(db, userId);
    },
    jwks,
  };
}
