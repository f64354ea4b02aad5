import { createMiddleware } from 'hono/factory';
import type { TokenClaims } from '../auth/verifier.ts';
import { API_KEY_PREFIX } from '../contract/partners.ts';
import { isStaffRole, type Role } from '../contract/users.ts';
import type { UserRow } from '../db/schema.ts';
import { noteLocalWrite } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import type { Logger } from '../lib/logger.ts';
import { isDatabaseUnavailable } from '../db/faults.ts';
import { forbidden, unauthorized, unavailable } from '../errors.ts';
import { callerMemo } from './caller-memo.ts';

export interface AppEnv {
  Variables: {
    /** The verified token's claims, or null for an anonymous caller. */
    auth: TokenClaims | null;
    /** The caller's user record, read from the database (at most CALLER_MEMO_MS before, decision 071): roles never come from the token. */
    user: UserRow | null;
    /** This request's id (middleware/request-id.ts), set by the entry in front of the API. */
    requestId?: string;
  };
}

export const isStaff = (user: UserRow | null) => isStaffRole(user?.user_role);

export function session(deps: Deps) {
  const callers = callerMemo();
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('authorization');
    const token = header?.match(/^Bearer\s+(.+)$/i)?.[1];
    // supabase-js sends the anon key as the bearer when nobody is signed in; an API key (sk_…) is /api/v1's to check.
    if (!token || token === deps.config.supabaseAnonKey || token.startsWith(API_KEY_PREFIX)) {
      c.set('auth', null);
      c.set('user', null);
      return next();
    }
    let claims: TokenClaims;
    try {
      claims = await deps.verifyToken(token);
    } catch {
      throw unauthorized('Your session has expired; sign in again');
    }
    // A signature outlives a sign-out, a password change or a revoked refresh token: ask whether the session still exists.
    let alive: boolean;
    try {
      alive = claims.sessionId !== undefined && (await deps.sessionAlive(claims, token));
    } catch (error) {
      throw sessionCheckFailure(error, deps.logger, c.get('requestId'));
    }
    if (!alive) throw unauthorized('Your session has ended; sign in again');
    const user = await callers.read(claims.sub, () =>
      deps.db.selectFrom('users').selectAll().where('id', '=', claims.sub).where('deleted_at', 'is', null).executeTakeFirst(),
    );
    c.set('auth', claims);
    c.set('user', user ?? null);
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    try {
      return await next();
    } finally {
      // Whatever this request changed is committed now: no record read before it is used again.
      noteLocalWrite();
    }
  });
}

/**
 * What a session check that failed answers (decision 114). The embedded sessions are rows of the
 * database: a database fault goes to the error handler (503 `unavailable`, one log line), another refusal of
 * the database too (500 `internal`: a fault of ours). Supabase Auth not reached (fetch throws a TypeError)
 * or answering 5xx passes like a database blink: 503 `unavailable` with Retry-After, never `misconfigured`.
 */
function sessionCheckFailure(error: unknown, logger: Logger, requestId: string | undefined): unknown {
  const sqlState = /^[0-9A-Z]{5}$/.test(String((error as { code?: unknown } | null)?.code));
  if (!(error instanceof TypeError) && (isDatabaseUnavailable(error) || sqlState)) return error;
  logger.warn('auth: the session check failed', { error: error instanceof Error ? error.message : String(error), requestId });
  return unavailable('The sign-in service cannot be reached; try again shortly');
}

/** A verified token, whether or not its user record exists yet. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get('auth')) throw unauthorized();
  return next();
});

/**
 * What a route behind requireRole sees: a verified token and its user record, never null. The middleware
 * that checks them is the one that types them, so a handler reads `c.get('user')` without an assertion.
 */
export interface SignedInEnv {
  Variables: AppEnv['Variables'] & { auth: TokenClaims; user: UserRow };
}

/** A signed-in user with a user record whose role is one of `roles` (any role when none are named). */
export const requireRole = (...roles: Role[]) =>
  createMiddleware<SignedInEnv>(async (c, next) => {
    // As session() left them: either may still be null here.
    const { auth, user }: AppEnv['Variables'] = c.var;
    if (!auth) throw unauthorized();
    if (!user) throw forbidden('No user record for this account');
    if (roles.length > 0 && !roles.includes(user.user_role)) throw forbidden();
    return next();
  });

export const requireStaff = requireRole('moderator', 'admin');
export const requireAdmin = requireRole('admin');
