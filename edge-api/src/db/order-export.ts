import { sql } from 'kysely';
import { matches, type AdminOrderFilter } from './order-search.ts';
import type { Db } from './handle.ts';

export interface ExportCursor {
  /** created_at as Postgres text, so no microseconds are lost on the way through JavaScript. */
  createdAt: string;
  id: string;
}

/** The next batch of the export after `cursor`, in the list's order (keyset pagination: no deep offsets). */
export function exportBatch(db: Db, filter: AdminOrderFilter, cursor: ExportCursor | null, size: number) {
  let query = db
    .selectFrom('orders')
    .selectAll()
    .select(sql<string>`created_at::text`.as('cursor_at'))
    .where((eb) => matches(eb, filter));
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', sql<Date>`${cursor.createdAt}::timestamptz`),
        eb.and([eb('created_at', '=', sql<Date>`${cursor.createdAt}::timestamptz`), eb('id', '>', cursor.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'asc').limit(size).execute();
}
