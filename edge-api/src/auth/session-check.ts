import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sessionExists } from './embedded/auth-store.ts';
import type { TokenClaims } from './verifier.ts';

/**
 * Whether the session a verified access token belongs to still exists: an access token outlives a
 * sign-out, a password change or a refresh-token reuse revocation by up to its hour, so its signature
 * alone is not enough. Resolves false for an ended session; throws when the auth server cannot be asked.
 */
export type SessionCheck = (claims: TokenClaims, token: string) => Promise<boolean>;

/** How long a session seen alive is believed without asking again: an ended one is refused within this. */
export const SESSION_CHECK_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

/** The embedded auth's sessions are rows of the same database: one indexed read. */
export function embeddedSessionCheck(db: Kysely<Database>): SessionCheck {
  return (claims) => (claims.sessionId ? sessionExists(db, claims.sessionId, claims.sub) : Promise.resolve(false));
}

/**
 * Supabase Auth answers GET /user only while the token's session exists (403 session_not_found after a
 * sign-out or a revocation), so the check asks it with the caller's own token.
 */
export function supabaseSessionCheck(authUrl: string, anonKey: string, fetcher: typeof fetch = fetch): SessionCheck {
  return async (_claims, token) => {
    const response = await fetcher(`${authUrl}/user`, { headers: { apikey: anonKey, authorization: `Bearer ${token}` } });
    await response.body?.cancel();
    if (response.ok) return true;
    if (response.status === 401 || response.status === 403 || response.status === 404) return false;
    throw new Error(`the auth server answered ${response.status} to the session check`);
  };
}

/**
 * Remembers a live session for `ttlMs` (per session, in this process or isolate); an ended one is never
 * remembered, so it stays refused. Bounded: past MAX_CACHED sessions the memory starts again.
 */
export function cachedSessionCheck(check: SessionCheck, options: { ttlMs?: number; clock?: () => number } = {}): SessionCheck {
  const ttlMs = options.ttlMs ?? SESSION_CHECK_TTL_MS;
  const clock = options.clock ?? Date.now;
  const aliveUntil = new Map<string, number>();
  return async (claims, token) => {
    const key = `${claims.sub}/${claims.sessionId ?? ''}`;
    const until = aliveUntil.get(key);
    if (until !== undefined && clock() < until) return true;
    const alive = await check(claims, token);
    if (!alive) {
      aliveUntil.delete(key);
      return false;
    }
    if (ttlMs > 0) {
      if (aliveUntil.size >= MAX_CACHED) aliveUntil.clear();
      aliveUntil.set(key, clock() + ttlMs);
    }
    return true;
  };
}
