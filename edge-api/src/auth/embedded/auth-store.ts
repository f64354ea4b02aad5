import bcrypt from 'bcryptjs';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { AuthUsersTable } from '../../db/auth-schema.ts';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/handle.ts';

export type AuthUserRow = Selectable<AuthUsersTable>;

/**
 * Supabase Auth's cost factor. Under vitest (VITEST is set in its workers and the apps they spawn) the
 * lowest bcrypt allows: the test suite's hashes guard nothing, and cost 10 is most of a sign-up (decision 239).
 */
export const BCRYPT_COST = globalThis.process?.env?.VITEST ? 4 : 10;

/** What a refresh does with a presented token; decided inside the transaction that locks it. */
export type RefreshOutcome =
  | { kind: 'not_found' }
  | { kind: 'reused'; userId: string; sessionId: string }
  | { kind: 'rotated'; user: AuthUserRow; sessionId: string; refreshToken: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isUuid = (value: string) => UUID.test(value);

/** An opaque refresh token: 256 random bits, base64url. Only its hash is stored. */
export function newRefreshToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}

export async function hashRefreshToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return Buffer.from(digest).toString('hex');
}

export function findAuthUserById(db: Db, id: string): Promise<AuthUserRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('auth_users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** `email` is already normalised to lower case; the unique index is on lower(email) too. */
export function findAuthUserByEmail(db: Db, email: string): Promise<AuthUserRow | undefined> {
  return db
    .selectFrom('auth_users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email)
    .executeTakeFirst();
}

/** Inserts a user, or returns undefined when the email is taken (also when another sign-up just won the race). */
export function insertAuthUser(
  db: Db,
  user: { id: string; email: string; passwordHash: string; metadata: Record<string, unknown>; now: Date; signedIn: boolean; confirmed: boolean },
): Promise<AuthUserRow | undefined> {
  return db
    .insertInto('auth_users')
    .values({
      id: user.id,
      email: user.email,
      encrypted_password: user.passwordHash,
      user_metadata: JSON.stringify(user.metadata),
      last_sign_in_at: user.signedIn ? user.now : null,
      email_confirmed_at: user.confirmed ? user.now : null,
      created_at: user.now,
      updated_at: user.now,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * A confirmed email account, as a sign-up makes it but without a session (demo data, scripts). The caller
 * checks the password rules; undefined when the email is taken.
 */
export async function createAuthUser(
  db: Db,
  user: { email: string; password: string; metadata?: Record<string, unknown>; now?: Date },
): Promise<AuthUserRow | undefined> {
  const passwordHash = await bcrypt.hash(user.password, BCRYPT_COST);
  const email = user.email.trim().toLowerCase();
  return insertAuthUser(db, {
    id: crypto.randomUUID(),
    email,
    passwordHash,
    metadata: user.metadata ?? {},
    now: user.now ?? new Date(),
    signedIn: false,
    confirmed: true,
  });
}

/** Whether the account's address has been confirmed; false for an account that does not exist. */
export async function isEmailConfirmed(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await db.selectFrom('auth_users').select('email_confirmed_at').where('id', '=', id).executeTakeFirst();
  return Boolean(row?.email_confirmed_at);
}

/**
 * The owner's repair (`npm run admin`): sets the password, confirms the address and ends every session,
 * so whoever signed up with the address before the owner loses it. Creates the account when missing.
 */
export async function setOwnerAccount(
  db: Transaction<Database>,
  account: { email: string; password: string; now: Date },
): Promise<{ user: AuthUserRow; created: boolean }> {
  const email = account.email.trim().toLowerCase();
  const passwordHash = await bcrypt.hash(account.password, BCRYPT_COST);
  const existing = await db
    .selectFrom('auth_users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email)
    .forUpdate()
    .executeTakeFirst();
  if (!existing) {
    const user = await insertAuthUser(db, { id: crypto.randomUUID(), email, passwordHash, metadata: {}, now: account.now, signedIn: false, confirmed: true });
    if (!user) throw new Error(`${email} was registered at the same moment; run the command again`);
    return { user, created: true };
  }
  const user = await db
    .updateTable('auth_users')
    .set({ encrypted_password: passwordHash, email_confirmed_at: existing.email_confirmed_at ?? account.now, updated_at: account.now })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await endSessions(db, existing.id);
  return { user, created: false };
}

export async function recordSignIn(db: Db, userId: string, now: Date): Promise<AuthUserRow> {
  return db.updateTable('auth_users').set({ last_sign_in_at: now }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
}

export function lockAuthUser(db: Db, id: string): Promise<AuthUserRow | undefined> {
  return db.selectFrom('auth_users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateAuthUser(db: Db, id: string, changes: { metadata: Record<string, unknown>; passwordHash?: string; now: Date }): Promise<AuthUserRow> {
  return db
    .updateTable('auth_users')
    .set({
      user_metadata: JSON.stringify(changes.metadata),
      updated_at: changes.now,
      ...(changes.passwordHash ? { encrypted_password: changes.passwordHash } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes the user; sessions and refresh tokens go with it (on delete cascade). */
export async function deleteAuthUser(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db.deleteFrom('auth_users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** How a session began: a sign-in with the password, or a mailed link (recovery, email change). */
export type SessionMethod = 'password' | 'recovery' | 'email_change' | 'magiclink';

/** Starts a session with its first refresh token. */
export async function startSession(db: Db, userId: string, refreshTokenHash: string, now: Date, method: SessionMethod = 'password'): Promise<string> {
  const sessionId = crypto.randomUUID();
  await db.insertInto('auth_sessions').values({ id: sessionId, user_id: userId, created_at: now, method }).execute();
  await db.insertInto('auth_refresh_tokens').values({ token_hash: refreshTokenHash, session_id: sessionId, user_id: userId, created_at: now }).execute();
  return sessionId;
}

export async function sessionExists(db: Db, sessionId: string, userId: string): Promise<boolean> {
  return (await findSession(db, sessionId, userId)) !== undefined;
}

/** How and when the user's session began; undefined when it does not exist (ended, or someone else's). */
export async function findSession(db: Db, sessionId: string, userId: string): Promise<{ method: SessionMethod; startedAt: Date } | undefined> {
  if (!isUuid(sessionId)) return undefined;
  const row = await db
    .selectFrom('auth_sessions')
    .select(['method', 'created_at'])
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && { method: row.method as SessionMethod, startedAt: new Date(row.created_at) };
}

export async function setSessionMethod(db: Db, sessionId: string, method: SessionMethod): Promise<void> {
  await db.updateTable('auth_sessions').set({ method }).where('id', '=', sessionId).execute();
}

export type LinkPurpose = 'recovery' | 'email_change' | 'magiclink';

/** Keeps the hash of a mailed link's secret; an earlier link of the same account and purpose stops working. */
export async function saveOneTimeToken(
  db: Db,
  token: { tokenHash: string; userId: string; purpose: LinkPurpose; newEmail?: string; codeHash?: string; now: Date },
): Promise<void> {
  const values = {
    token_hash: token.tokenHash,
    user_id: token.userId,
    purpose: token.purpose,
    new_email: token.newEmail ?? null,
    code_hash: token.codeHash ?? null,
    code_failures: 0,
    created_at: token.now,
  };
  await db
    .insertInto('auth_one_time_tokens')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['user_id', 'purpose']).doUpdateSet({
        token_hash: values.token_hash,
        new_email: values.new_email,
        code_hash: values.code_hash,
        code_failures: 0,
        created_at: values.created_at,
      }),
    )
    .execute();
}

/**
 * Uses up the sign-in code of an account's live sign-in link when `codeHash` is its code and it was issued
 * after `notBefore`. A wrong code counts on the link, which is gone at the `maxFailures`th (decision 168).
 */
export async function takeSignInCode(trx: Transaction<Database>, userId: string, codeHash: string, notBefore: Date, maxFailures: number): Promise<boolean> {
  const row = await trx
    .selectFrom('auth_one_time_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', 'magiclink')
    .forUpdate()
    .executeTakeFirst();
  if (!row?.code_hash) return false;
  const live = row.created_at.getTime() >= notBefore.getTime();
  const matches = live && row.code_hash === codeHash;
  const used = matches || !live || row.code_failures + 1 >= maxFailures;
  if (used) await trx.deleteFrom('auth_one_time_tokens').where('token_hash', '=', row.token_hash).execute();
  else
    await trx
      .updateTable('auth_one_time_tokens')
      .set({ code_failures: row.code_failures + 1 })
      .where('token_hash', '=', row.token_hash)
      .execute();
  return matches;
}

/**
 * Uses up a link: deletes its row and answers it when it was issued after `notBefore` for `purpose`.
 * A link presented twice, too late or for another purpose answers undefined (and a late one is gone).
 * `withCode`: a sign-in link mailed with a code (signInWithOtp), not a sign-up's confirmation.
 */
export async function takeOneTimeToken(
  trx: Transaction<Database>,
  tokenHash: string,
  purpose: LinkPurpose,
  notBefore: Date,
): Promise<{ userId: string; newEmail: string | null; withCode: boolean } | undefined> {
  const row = await trx.deleteFrom('auth_one_time_tokens').where('token_hash', '=', tokenHash).where('purpose', '=', purpose).returningAll().executeTakeFirst();
  if (!row || row.created_at.getTime() < notBefore.getTime()) return undefined;
  return { userId: row.user_id, newEmail: row.new_email, withCode: row.code_hash !== null };
}

/** The address an account asked to move to and has not confirmed yet, if any. */
export async function pendingEmailChange(db: Db, userId: string): Promise<{ newEmail: string; sentAt: Date } | undefined> {
  const row = await db
    .selectFrom('auth_one_time_tokens')
    .select(['new_email', 'created_at'])
    .where('user_id', '=', userId)
    .where('purpose', '=', 'email_change')
    .executeTakeFirst();
  return row?.new_email ? { newEmail: row.new_email, sentAt: row.created_at } : undefined;
}

export async function deleteOneTimeTokens(db: Db, userId: string, purpose: LinkPurpose): Promise<void> {
  await db.deleteFrom('auth_one_time_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
}

/** Confirms the address (a mailed link was opened), and moves the account to `email` when given. */
export function confirmEmail(db: Db, id: string, now: Date, email?: string): Promise<AuthUserRow> {
  return db
    .updateTable('auth_users')
    .set((eb) => ({ email_confirmed_at: eb.fn.coalesce('email_confirmed_at', eb.val(now)), updated_at: now, ...(email ? { email } : {}) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Ends sessions of a user (their refresh tokens cascade): all of them, only one, or all but one. */
export async function endSessions(db: Db, userId: string, which: { only?: string; except?: string } = {}): Promise<void> {
  let query = db.deleteFrom('auth_sessions').where('user_id', '=', userId);
  if (which.only) query = query.where('id', '=', which.only);
  if (which.except) query = query.where('id', '!=', which.except);
  await query.execute();
}

/** The AES-GCM key only the holder of `token` can derive: it seals the token's successor. */
async function sealingKey(token: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`successor-of:${token}`));
  return crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

async function sealSuccessor(token: string, successor: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await sealingKey(token), new TextEncoder().encode(successor)));
  return Buffer.concat([iv, sealed]).toString('base64url');
}

async function openSuccessor(token: string, sealed: string): Promise<string | undefined> {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, await sealingKey(token), bytes.subarray(12));
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}

/** Chains longer than this within one grace interval are not followed (each step is a rotation). */
const MAX_GRACE_STEPS = 16;

/**
 * Rotates a refresh token. A token is single use: using it revokes it and issues its successor, sealed
 * with the token itself. A revoked token presented again within `graceMs` of its rotation (two tabs
 * refreshing at once) gets the session's active token back, not a new one: the successors are opened,
 * each with its predecessor, down to the one not yet used. Later, or when the chain cannot be followed,
 * it is treated as stolen and its whole session (every token descended from the same sign-in) is ended.
 * Call inside a transaction: the token row stays locked until commit.
 */
export async function rotateRefreshToken(
  trx: Transaction<Database>,
  presented: string,
  successor: string,
  now: Date,
  graceMs: number,
): Promise<RefreshOutcome> {
  const presentedHash = await hashRefreshToken(presented);
  const token = await trx.selectFrom('auth_refresh_tokens').selectAll().where('token_hash', '=', presentedHash).forUpdate().executeTakeFirst();
  if (!token) return { kind: 'not_found' };
  const user = await findAuthUserById(trx, token.user_id);
  if (!user) return { kind: 'not_found' };
  const revoke = async () => {
    await endSessions(trx, token.user_id, { only: token.session_id });
    return { kind: 'reused', userId: token.user_id, sessionId: token.session_id } as const;
  };
  if (token.revoked) {
    const revokedAt = token.revoked_at?.getTime() ?? Number.NEGATIVE_INFINITY;
    if (now.getTime() - revokedAt > graceMs) return revoke();
    let current = { plain: presented, row: token };
    for (let step = 0; step < MAX_GRACE_STEPS && current.row.revoked; step += 1) {
      const next = current.row.successor_sealed ? await openSuccessor(current.plain, current.row.successor_sealed) : undefined;
      const row = next
        ? await trx
            .selectFrom('auth_refresh_tokens')
            .selectAll()
            .where('token_hash', '=', await hashRefreshToken(next))
            .executeTakeFirst()
        : undefined;
      if (!next || !row) return revoke();
      current = { plain: next, row };
    }
    if (current.row.revoked) return revoke();
    return { kind: 'rotated', user, sessionId: token.session_id, refreshToken: current.plain };
  }
  await trx
    .updateTable('auth_refresh_tokens')
    .set({ revoked: true, revoked_at: now, successor_sealed: await sealSuccessor(presented, successor) })
    .where('token_hash', '=', presentedHash)
    .execute();
  await trx
    .insertInto('auth_refresh_tokens')
    .values({ token_hash: await hashRefreshToken(successor), session_id: token.session_id, user_id: token.user_id, created_at: now })
    .execute();
  await trx.updateTable('auth_sessions').set({ refreshed_at: now }).where('id', '=', token.session_id).execute();
  return { kind: 'rotated', user, sessionId: token.session_id, refreshToken: successor };
}
