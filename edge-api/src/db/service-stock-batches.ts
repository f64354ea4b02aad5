import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import { writeTime } from './versions.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface NewServiceStockBatch {
  id: string;
  serviceId: string;
  kind: 'account' | 'server' | 'lines';
  label: string;
  addedBy: string;
  userName: string;
  userEmail: string;
  itemCount: number;
}

/** The batch row of an import (decision 228); its items name it in service_stocks.batch_id. */
export async function insertServiceStockBatch(trx: Transaction<Database>, batch: NewServiceStockBatch) {
  await trx
    .insertInto('service_stock_batches')
    .values({
      id: batch.id,
      service_id: batch.serviceId,
      kind: batch.kind,
      label: batch.label,
      added_by: batch.addedBy,
      user_name: batch.userName,
      user_email: batch.userEmail,
      item_count: batch.itemCount,
    })
    .execute();
}

const withAvailable = (db: Db) =>
  db
    .selectFrom('service_stock_batches as b')
    .selectAll('b')
    .select((eb) =>
      eb
        .selectFrom('service_stocks as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.batch_id', '=', 'b.id')
        .where('s.deleted_at', 'is', null)
        .where('s.status', '=', 'available')
        .as('available_count'),
    );

/** One page of a service's imports newest first, `limit` rows after `after` (decision 242); read `limit + 1` to know a next page follows. */
export function listServiceStockBatchesPage(db: Db, serviceId: string, limit: number, after?: ListKey) {
  let query = withAvailable(db).select(listCursorAt('b').as('cursor_at')).where('b.service_id', '=', serviceId);
  if (after) query = query.where(afterKey(after, 'b'));
  return query.orderBy('b.created_at', 'desc').orderBy('b.id').limit(limit).execute();
}
export const findServiceStockBatch = (db: Db, id: string) => withAvailable(db).where('b.id', '=', id).executeTakeFirst();
export type ServiceStockBatchRow = NonNullable<Awaited<ReturnType<typeof findServiceStockBatch>>>;

/** Locks the batch row until the transaction ends; undefined when there is none. */
export const lockServiceStockBatch = (trx: Transaction<Database>, id: string) =>
  trx.selectFrom('service_stock_batches').select(['id', 'service_id']).where('id', '=', id).forUpdate().executeTakeFirst();

/**
 * The batch's still-available items leave the shelf as one withdrawn by hand does (status disabled, kept
 * for the record); sold ones stay with their orders. Answers the ids withdrawn.
 */
export async function withdrawServiceStockBatchItems(trx: Transaction<Database>, id: string, version: number): Promise<string[]> {
  const withdrawn = await trx
    .updateTable('service_stocks')
    .set({ status: 'disabled', updated_at: writeTime(), version })
    .where('batch_id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'available')
    .returning('id')
    .execute();
  await trx
    .updateTable('service_stock_batches')
    .set({ withdrawn_count: sql`withdrawn_count + ${withdrawn.length}`, withdrawn_at: writeTime() })
    .where('id', '=', id)
    .execute();
  return withdrawn.map((row) => row.id);
}
