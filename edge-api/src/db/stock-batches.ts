import { sql, type Kysely, type Transaction } from 'kysely';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import type { Database } from './schema.ts';
import { writeTime } from './versions.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface BatchItem {
  id: string;
  wiseName: string;
  wiseEmail: string;
  wisePasswordEnc: string;
  wisePasswordIndex: string;
  notes: string;
}

export interface NewBatch {
  id: string;
  label: string;
  addedBy: string;
  userName: string;
  userEmail: string;
}

const INSERT_ROWS = 1000;

/** The batch and its items, all available, all written with one version. */
export async function insertBatch(trx: Transaction<Database>, batch: NewBatch, items: BatchItem[], version: number) {
  await trx
    .insertInto('stock_batches')
    .values({ id: batch.id, label: batch.label, added_by: batch.addedBy, user_name: batch.userName, user_email: batch.userEmail, item_count: items.length })
    .execute();
  for (let start = 0; start < items.length; start += INSERT_ROWS) {
    await trx
      .insertInto('wise_stocks')
      .values(
        items.slice(start, start + INSERT_ROWS).map((item) => ({
          id: item.id,
          wise_name: item.wiseName,
          wise_email: item.wiseEmail,
          wise_password_enc: item.wisePasswordEnc,
          wise_password_index: item.wisePasswordIndex,
          auth_image: '',
          doc_img1: '',
          doc_img2: '',
          user_name: batch.userName,
          user_email: batch.userEmail,
          added_by: batch.addedBy,
          service_name: 'WiseStock',
          status: 'available' as const,
          notes: item.notes,
          batch_id: batch.id,
          version,
        })),
      )
      .execute();
  }
}

const withAvailable = (db: Db) =>
  db
    .selectFrom('stock_batches as b')
    .selectAll('b')
    .select((eb) =>
      eb
        .selectFrom('wise_stocks as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.batch_id', '=', 'b.id')
        .where('s.deleted_at', 'is', null)
        .where('s.status', '=', 'available')
        .as('available_count'),
    );

/** One page of the batches newest first, `limit` rows after `after` (decision 234); read `limit + 1` to know a next page follows. */
export function listBatchesPage(db: Db, limit: number, after?: ListKey) {
  let query = withAvailable(db).select(listCursorAt('b').as('cursor_at'));
  if (after) query = query.where(afterKey(after, 'b'));
  return query.orderBy('b.created_at', 'desc').orderBy('b.id').limit(limit).execute();
}
export const findBatch = (db: Db, id: string) => withAvailable(db).where('b.id', '=', id).executeTakeFirst();
export type BatchRow = NonNullable<Awaited<ReturnType<typeof findBatch>>>;

/** Locks the batch row until the transaction ends; undefined when there is none. */
export const lockBatch = (trx: Transaction<Database>, id: string) =>
  trx.selectFrom('stock_batches').select('id').where('id', '=', id).forUpdate().executeTakeFirst();

/** Removes the batch's still-available items from stock (tombstones for sync); the sold and others stay. */
export async function withdrawBatchItems(trx: Transaction<Database>, id: string, version: number): Promise<number> {
  const withdrawn = await trx
    .updateTable('wise_stocks')
    .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
    .where('batch_id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'available')
    .returning('id')
    .execute();
  await trx
    .updateTable('stock_batches')
    .set({ withdrawn_count: sql`withdrawn_count + ${withdrawn.length}`, withdrawn_at: writeTime() })
    .where('id', '=', id)
    .execute();
  return withdrawn.length;
}
