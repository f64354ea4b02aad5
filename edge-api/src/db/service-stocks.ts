import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, ServiceStockDetails, ServiceStockRow } from './schema.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import { writeTime } from './versions.ts';
import { inWindow, type VersionWindow } from './sync.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A service's live stock, newest first. */
/** One page of a service's live items newest first, `limit` rows after `after` (decision 242); read `limit + 1` to know a next page follows. */
export function listServiceStocksPage(db: Db, serviceId: string, limit: number, after?: ListKey) {
  let query = db
    .selectFrom('service_stocks')
    .selectAll()
    .select(listCursorAt().as('cursor_at'))
    .where('service_id', '=', serviceId)
    .where('deleted_at', 'is', null);
  if (after) query = query.where(afterKey(after));
  return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

/** Every live item of a service, newest first: for the CSV export only, which is the whole stock by design (decision 198). */
export function listServiceStocks(db: Db, serviceId: string) {
  return db
    .selectFrom('service_stocks')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export function findServiceStockIncludingDeleted(db: Db, id: string) {
  return db.selectFrom('service_stocks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockServiceStock(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('service_stocks').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

export interface NewServiceStock {
  serviceId: string;
  kind: ServiceStockRow['kind'];
  details: ServiceStockDetails;
  email: string | null;
  /** Sealed already: this module never sees a plain secret. */
  secretEnc: string;
  secretIndexes: string[];
  notes: string;
  addedBy: string;
  /** The import it comes with (decision 228). */
  batchId?: string;
}

/** Inserts an available item; undefined when the id is taken (a replayed create). */
export function insertServiceStock(db: Db, id: string, fields: NewServiceStock, version: number) {
  return db
    .insertInto('service_stocks')
    .values({
      id,
      service_id: fields.serviceId,
      kind: fields.kind,
      details: JSON.stringify(fields.details),
      email: fields.email,
      secret_enc: fields.secretEnc,
      secret_indexes: fields.secretIndexes,
      notes: fields.notes,
      added_by: fields.addedBy,
      status: 'available',
      version,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function setServiceStockStatus(db: Db, id: string, status: ServiceStockRow['status'], version: number) {
  return db
    .updateTable('service_stocks')
    .set({ status, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The oldest available item of this service's stock no other transaction holds, locked until this one
 * ends (SKIP LOCKED, as the Wise pool: decision 061); undefined when there is none.
 */
export function claimNextServiceStock(trx: Transaction<Database>, serviceId: string, kind: string) {
  return trx
    .selectFrom('service_stocks')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('kind', '=', kind as ServiceStockRow['kind'])
    .where('status', '=', 'available')
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export function markServiceStockSold(db: Db, id: string, sale: { userId: string; orderId: string }, version: number) {
  return db
    .updateTable('service_stocks')
    .set({ status: 'sold', sold_to: sale.userId, order_id: sale.orderId, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
}

/** Replaced as faulty on its order (decision 063): disabled for good, notes say why. Undefined when gone. */
export async function markServiceStockFaulty(trx: Transaction<Database>, id: string, note: string, version: number) {
  const before = await trx.selectFrom('service_stocks').select(['status', 'notes']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!before) return undefined;
  await trx
    .updateTable('service_stocks')
    .set({ status: 'disabled', faulty_at: writeTime(), notes: before.notes ? `${before.notes}\n${note}` : note, version, updated_at: writeTime() })
    .where('id', '=', id)
    .execute();
  return { from: before.status };
}

/** Whether a service keeps stock of its own: any live item, whatever its status. */
export async function keepsOwnStock(db: Db, serviceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('service_stocks')
    .select('id')
    .where('service_id', '=', serviceId)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Available live items per service that keeps stock. */
export async function availableByService(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('service_stocks')
    .select(['service_id', sql<number>`count(*) filter (where status = 'available')::int`.as('available')])
    .where('deleted_at', 'is', null)
    .groupBy('service_id')
    .execute();
  return new Map(rows.map((row) => [row.service_id, row.available]));
}

/** The items of one version window, as db/sync.ts reads every synced table (tombstones unless a full pull). */
export function changedServiceStocks(db: Db, window: VersionWindow) {
  return db
    .selectFrom('service_stocks')
    .selectAll()
    .where(inWindow(window))
    .orderBy('version')
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}

/** Inserts many available items at one version (a bulk add, decision 075), a few hundred rows per statement. */
export async function insertServiceStocks(trx: Transaction<Database>, items: (NewServiceStock & { id: string })[], version: number) {
  for (let start = 0; start < items.length; start += INSERT_CHUNK) {
    await trx
      .insertInto('service_stocks')
      .values(
        items.slice(start, start + INSERT_CHUNK).map((fields) => ({
          id: fields.id,
          service_id: fields.serviceId,
          kind: fields.kind,
          details: JSON.stringify(fields.details),
          email: fields.email,
          secret_enc: fields.secretEnc,
          secret_indexes: fields.secretIndexes,
          notes: fields.notes,
          added_by: fields.addedBy,
          batch_id: fields.batchId ?? null,
          status: 'available' as const,
          version,
        })),
      )
      .execute();
  }
}

const INSERT_CHUNK = 500;
