import type { Transaction } from 'kysely';
import type { Role } from '../contract/users.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import type { Database } from './schema.ts';
import { writeTime } from './versions.ts';
import type { Db } from './handle.ts';

export interface NewUserFields {
  id: string;
  email: string;
  displayName: string;
  mobile: string;
  role: Role;
}

export function findUser(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Any user row with this id, soft-deleted or not. */
export function findUserIncludingDeleted(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The live row, locked until the transaction ends. */
export function lockUser(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

/** One page of the users newest first, `limit` rows after `after` (decision 234); read `limit + 1` to know a next page follows. */
export function listUsersPage(db: Db, limit: number, after?: ListKey) {
  let query = db.selectFrom('users').selectAll().select(listCursorAt().as('cursor_at')).where('deleted_at', 'is', null);
  if (after) query = query.where(afterKey(after));
  return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

/** Inserts the record; undefined when a row with this id already exists (a replayed registration). */
export function insertUser(db: Db, fields: NewUserFields, version: number) {
  return db
    .insertInto('users')
    .values({
      id: fields.id,
      email: fields.email,
      display_name: fields.displayName,
      mobile: fields.mobile,
      user_role: fields.role,
      version,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Ids of the live admins, locked until the transaction ends: two admins demoting themselves at once
 * then take turns, so the shop never ends up without an admin.
 */
export async function lockAdminIds(trx: Transaction<Database>): Promise<string[]> {
  const rows = await trx.selectFrom('users').select('id').where('user_role', '=', 'admin').where('deleted_at', 'is', null).orderBy('id').forUpdate().execute();
  return rows.map((row) => row.id);
}

export function setUserRole(db: Db, id: string, role: Role, version: number) {
  return db
    .updateTable('users')
    .set({ user_role: role, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function softDeleteUser(db: Db, id: string, version: number) {
  return db
    .updateTable('users')
    .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/** The user's own name and mobile, and the email the auth server vouches for. */
export function updateProfile(db: Db, id: string, fields: { displayName: string; mobile: string; email: string }, version: number) {
  return db
    .updateTable('users')
    .set({ display_name: fields.displayName, mobile: fields.mobile, email: fields.email, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}
