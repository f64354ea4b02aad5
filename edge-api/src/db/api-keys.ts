import { sql } from 'kysely';
import type { ApiKey, ApiKeyScope } from '../contract/partners.ts';
import type { ApiKeyRow } from './partner-schema.ts';
import type { UserRow } from './schema.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import type { Db } from './handle.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A key as an admin reads it: never its hash. */
export const presentApiKey = (row: ApiKeyRow & { user_email: string }): ApiKey => ({
  id: row.id,
  userId: row.user_id,
  userEmail: row.user_email,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  createdAt: iso(row.created_at)!,
  lastUsedAt: iso(row.last_used_at),
  revokedAt: iso(row.revoked_at),
});

export function insertApiKey(
  db: Db,
  key: { id: string; userId: string; name: string; prefix: string; hash: string; scopes: ApiKeyScope[]; createdBy: string },
) {
  return db
    .insertInto('api_keys')
    .values({ id: key.id, user_id: key.userId, name: key.name, prefix: key.prefix, secret_hash: key.hash, scopes: key.scopes, created_by: key.createdBy })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const withEmail = (db: Db) => db.selectFrom('api_keys as k').innerJoin('users as u', 'u.id', 'k.user_id').selectAll('k').select('u.email as user_email');

/** One page of the keys newest first, revoked ones too, `limit` rows after `after` (decision 242); read `limit + 1` to know a next page follows. */
export function listApiKeysPage(db: Db, limit: number, after?: ListKey) {
  let query = withEmail(db).select(listCursorAt('k').as('cursor_at'));
  if (after) query = query.where(afterKey(after, 'k'));
  return query.orderBy('k.created_at', 'desc').orderBy('k.id').limit(limit).execute();
}

export const findApiKey = (db: Db, id: string) => withEmail(db).where('k.id', '=', id).executeTakeFirst();

/** Revokes a live key; undefined when there is none (or it was revoked before). */
export function revokeApiKey(db: Db, id: string) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/** The live key with this hash and the live account it acts as; undefined when either is gone. */
export async function keyForHash(db: Db, hash: string): Promise<{ key: ApiKeyRow; user: UserRow } | undefined> {
  const key = await db.selectFrom('api_keys').selectAll().where('secret_hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
  if (!key) return undefined;
  const user = await db.selectFrom('users').selectAll().where('id', '=', key.user_id).where('deleted_at', 'is', null).executeTakeFirst();
  return user ? { key, user } : undefined;
}

/** Notes the key's use, at most once a minute (a busy key writes one row a minute, not one per request). */
export function touchApiKey(db: Db, id: string) {
  return sql`update api_keys set last_used_at = now() where id = ${id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`.execute(db);
}
