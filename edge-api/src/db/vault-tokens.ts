/**
 * Unlock tokens of device vaults (decisions 181, 182): a short-lived proof that this person just gave the
 * PIN of one of their vaults, `<payload>.<HMAC>` with the blind-index key; checked against the vault still
 * being active, so a destroyed or removed vault's tokens stop at once.
 */
import type { Kysely } from 'kysely';
import { VAULT_UNLOCK_TOKEN_MS } from '../contract/vaults.ts';
import { toB64 } from '../contract/vault-envelope.ts';
import type { Secrets } from '../lib/secrets.ts';
import type { Database } from './schema.ts';

interface TokenDeps {
  db: Kysely<Database>;
  secrets: Secrets;
  clock: () => Date;
}

/** Compares two MACs without stopping at the first difference. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// ---- Unlock tokens: a short-lived proof that this person just gave the PIN of one of their vaults ----------

export async function issueUnlockToken(deps: TokenDeps, userId: string, vaultId: string): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(deps.clock().getTime() + VAULT_UNLOCK_TOKEN_MS);
  const payload = toB64(new TextEncoder().encode(JSON.stringify({ u: userId, v: vaultId, e: expiresAt.getTime() })));
  return { token: `${payload}.${await deps.secrets.blindIndex(`vault-unlock|${payload}`)}`, expiresAt };
}

/** The vault an unlock token was issued for, when it is this person's, unexpired and the vault still active. */
export async function checkUnlockToken(deps: TokenDeps, userId: string, token: string | undefined): Promise<string | null> {
  const [payload, mac] = token?.split('.') ?? [];
  if (!payload || !mac || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  if (!sameText(mac, await deps.secrets.blindIndex(`vault-unlock|${payload}`))) return null;
  let claims: { u?: unknown; v?: unknown; e?: unknown };
  try {
    claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as typeof claims;
  } catch {
    return null;
  }
  if (claims.u !== userId || typeof claims.v !== 'string' || typeof claims.e !== 'number' || claims.e <= deps.clock().getTime()) return null;
  const vault = await deps.db
    .selectFrom('device_vaults')
    .select('id')
    .where('id', '=', claims.v)
    .where('user_id', '=', userId)
    .where('destroyed_at', 'is', null)
    .executeTakeFirst();
  return vault ? vault.id : null;
}

/** A session counts as freshly signed in for this long after its sign-in (decisions 181, 182). */
export const FRESH_SIGN_IN_MS = 10 * 60_000;

/** What the vault reads of the session's token (auth/verifier.ts's TokenClaims). */
export type SessionClaims = { sessionId?: string; signedInAt?: number };

/**
 * When this session signed in: the embedded auth's session row (its tokens' `amr` says when the token was
 * issued, a refresh included), else Supabase's `amr` claim (the sign-in itself).
 */
async function signedInAt(deps: TokenDeps, claims: SessionClaims): Promise<number | null> {
  const row = claims.sessionId
    ? await deps.db.selectFrom('auth_sessions').select('created_at').where('id', '=', claims.sessionId).executeTakeFirst()
    : undefined;
  if (row) return new Date(row.created_at).getTime();
  return claims.signedInAt ?? null;
}

/** Whether the session signed in (a password, a mailed link) within FRESH_SIGN_IN_MS: as good a proof as the PIN. */
export async function signedInFreshly(deps: TokenDeps, claims: SessionClaims): Promise<boolean> {
  const at = await signedInAt(deps, claims);
  return at !== null && deps.clock().getTime() - at <= FRESH_SIGN_IN_MS;
}
