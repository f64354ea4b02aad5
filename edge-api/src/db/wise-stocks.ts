import { sql, type Kysely, type Transaction } from 'kysely';
import type { StockImageField, StockStatus } from '../contract/wise-stocks.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import type { Database } from './schema.ts';
import { writeTime } from './versions.ts';

type Db = Kysely<Database> | Transaction<Database>;

const imageColumn = { authImage: 'auth_image', docImg1: 'doc_img1', docImg2: 'doc_img2' } as const;

/** One page of the stocks newest first, `limit` rows after `after` (decision 234); read `limit + 1` to know a next page follows. */
export function listStocksPage(db: Db, limit: number, after?: ListKey) {
  let query = db.selectFrom('wise_stocks').selectAll().select(listCursorAt().as('cursor_at')).where('deleted_at', 'is', null);
  if (after) query = query.where(afterKey(after));
  return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export function findStock(db: Db, id: string) {
  return db.selectFrom('wise_stocks').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The live row, locked until the transaction ends. */
export function lockStock(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('wise_stocks').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

export interface NewStockFields {
  wiseName: string;
  wiseEmail: string;
  /** Encrypted already: this module never sees a plain password. */
  wisePasswordEnc: string;
  wisePasswordIndex: string;
  authImage: string;
  docImg1: string;
  docImg2: string;
  userName: string;
  userEmail: string;
  addedBy: string;
}

/** Inserts a new available stock; undefined when the id is taken (a replayed create). */
export function insertStock(db: Db, id: string, fields: NewStockFields, version: number) {
  return db
    .insertInto('wise_stocks')
    .values({
      id,
      wise_name: fields.wiseName,
      wise_email: fields.wiseEmail,
      wise_password_enc: fields.wisePasswordEnc,
      wise_password_index: fields.wisePasswordIndex,
      auth_image: fields.authImage,
      doc_img1: fields.docImg1,
      doc_img2: fields.docImg2,
      user_name: fields.userName,
      user_email: fields.userEmail,
      added_by: fields.addedBy,
      service_name: 'WiseStock',
      status: 'available',
      notes: '',
      version,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Any stock row with this id, deleted or not. */
export function findStockIncludingDeleted(db: Db, id: string) {
  return db.selectFrom('wise_stocks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function setStockImage(db: Db, id: string, field: StockImageField, value: string, version: number) {
  return db
    .updateTable('wise_stocks')
    .set({ [imageColumn[field]]: value, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface StockStatusChange {
  status: StockStatus;
  soldTo: string | null;
  orderId: string | null;
  /** Undefined leaves the notes as they are. */
  notes?: string;
}

export function setStockStatus(db: Db, id: string, change: StockStatusChange, version: number) {
  return db
    .updateTable('wise_stocks')
    .set({
      status: change.status,
      sold_to: change.soldTo,
      order_id: change.orderId,
      ...(change.notes !== undefined ? { notes: change.notes } : {}),
      version,
      updated_at: writeTime(),
    })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function softDeleteStock(db: Db, id: string, version: number) {
  return db
    .updateTable('wise_stocks')
    .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/** The stock row, locked until the transaction ends, whatever its status (the caller decides). */
export function lockStockForDelivery(trx: Transaction<Database>, stockId: string) {
  return trx.selectFrom('wise_stocks').selectAll().where('id', '=', stockId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

export function markStockSold(db: Db, stockId: string, sale: { userId: string; orderId: string }, version: number) {
  return db
    .updateTable('wise_stocks')
    .set({ status: 'sold', sold_to: sale.userId, order_id: sale.orderId, version, updated_at: writeTime() })
    .where('id', '=', stockId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
}

/**
 * A stock replaced on its order as faulty (decision 063): disabled, never available again (a check
 * constraint holds it), still showing whom it was sold to. Undefined when the stock is gone.
 */
export async function markStockFaulty(trx: Transaction<Database>, stockId: string, note: string, version: number) {
  const before = await trx.selectFrom('wise_stocks').select(['status', 'notes']).where('id', '=', stockId).forUpdate().executeTakeFirst();
  if (!before) return undefined;
  await trx
    .updateTable('wise_stocks')
    .set({ status: 'disabled', faulty_at: writeTime(), notes: before.notes ? `${before.notes}\n${note}` : note, version, updated_at: writeTime() })
    .where('id', '=', stockId)
    .execute();
  return { from: before.status };
}

/** Serializes additions of stock until the transaction ends (a transaction-scoped advisory lock). */
export async function lockStockAdditions(trx: Transaction<Database>) {
  await sql`select pg_advisory_xact_lock(hashtext('wise_stocks.add'))`.execute(trx);
}

/** The next live stocks of an export after the id `after`, in id order (a key that never ties or drifts). */
export function exportStockBatch(db: Db, filter: { status?: StockStatus }, after: string | null, size: number) {
  return db
    .selectFrom('wise_stocks')
    .selectAll()
    .where('deleted_at', 'is', null)
    .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
    .$if(after !== null, (qb) => qb.where('id', '>', after!))
    .orderBy('id')
    .limit(size)
    .execute();
}
