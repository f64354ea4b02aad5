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
  deleteAuthUser,
  endSessions,
  findAuthUserByEmail,
  findAuthUserById,
  hashRefreshToken,
  insertAuthUser,
  lockAuthUser,
  newRefreshToken,
  recordSignIn,
  rotateRefreshToken,
  sessionExists,
  startSession,
  updateAuthUser,
  type AuthUserRow,
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
  rateLimits?: { tokenPer5Min?: number; refreshPer5Min?: number; signupPer5Min?: number; accountFreeFailures?: number };
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
  const authenticate = async (c: Context): Promise<{ user: AuthUserRow; sessionId: string }> => {
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
    if (!(await sessionExists(db, sessionId, user.id))) {
      throw new AuthFailure(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    return { user, sessionId };
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
  // Like Supabase's gateway: every call but the public key set and the health check carries a known API key.
  app.use('*', async (c, next) => {
    const path = c.req.path;
    if (path.endsWith('/.well-known/jwks.json') || path.endsWith('/health')) return next();
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
    const { user, sessionId } = await authenticate(c);
    const body = await readJsonObject(c);
    if (typeof body.email === 'string' && body.email.trim().toLowerCase() !== user.email) {
      throw validationFailed('Changing the email address is not supported');
    }
    if (typeof body.phone === 'string' && body.phone !== '') throw new AuthFailure(422, 'phone_provider_disabled', 'Phone logins are disabled');
    const changes = metadataObject(body.data);
    const newPassword = body.password === undefined || body.password === null ? undefined : checkNewPassword(body.password, 'Password must be a string');
    let passwordHash: string | undefined;
    if (newPassword !== undefined) {
      if (await bcrypt.compare(newPassword, user.encrypted_password)) {
        throw new AuthFailure(422, 'same_password', 'New password should be different from the old password.');
      }
      passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
    }
    const updated = await db.transaction().execute(async (trx) => {
      const current = await lockAuthUser(trx, user.id);
      if (!current) throw new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      const row = await updateAuthUser(trx, user.id, { metadata: mergeMetadata(current.user_metadata, changes), passwordHash, now: clock() });
      // Whoever learnt the old password loses every session but the one that changed it.
      if (passwordHash) await endSessions(trx, user.id, { except: sessionId });
      return row;
    });
    if (passwordHash) logger.info('auth: password changed, other sessions ended', { userId: user.id });
    return c.json(toAuthUser(updated));
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
