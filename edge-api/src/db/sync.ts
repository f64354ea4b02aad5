import { sql, type ExpressionBuilder } from 'kysely';
import { attentionSql } from '../contract/order-attention.ts';
import type { Database } from './schema.ts';
import { SITE_SETTINGS_ID } from './settings.ts';
import type { Db } from './handle.ts';

/**
 * A half-open window of versions, (after, upTo]: what changed since a client's cursor, as of one
 * snapshot. With `limit`, each query answers at most that many rows, lowest versions first.
 */
export interface VersionWindow {
  after: number;
  upTo: number;
  limit?: number;
}

/** Rows a pull carries: more only when one transaction wrote more rows than this (a cursor cannot split them). */
export const SYNC_PAGE_ROWS = 1000;

export interface VersionedRow {
  version: number;
}

/**
 * The next page of a pull, and where it ends: the lowest versions first, whole versions only. `read`
 * answers each table's rows of a window; with a limit it is called once, twice only when a single
 * version holds more rows than a page.
 */
export async function readPage<Tables extends Record<string, VersionedRow[]>>(
  read: (window: VersionWindow) => Promise<Tables>,
  after: number,
  latest: number,
  pageRows = SYNC_PAGE_ROWS,
): Promise<{ tables: Tables; upTo: number }> {
  const tables = await read({ after, upTo: latest, limit: pageRows + 1 });
  const versions = Object.values(tables)
    .flatMap((rows) => rows.map((row) => row.version))
    .sort((a, b) => a - b);
  if (versions.length <= pageRows) return { tables, upTo: latest };
  // Every row below the first version left out was read: a table cut short by its limit stopped at or
  // above it.
  const firstLeftOut = versions[pageRows]!;
  if (firstLeftOut > versions[0]!) {
    const upTo = firstLeftOut - 1;
    const kept = Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.filter((row) => row.version <= upTo)]));
    return { tables: kept as Tables, upTo };
  }
  // One transaction wrote more than a page: its rows go together.
  return { tables: await read({ after, upTo: firstLeftOut }), upTo: firstLeftOut };
}

/** Staff devices keep the orders changed within this many days (STAFF_SYNC_DAYS; decision 187). */
export const STAFF_SYNC_DAYS = 30;
/** Most orders each part of a staff device's working set holds, newest first: the first sync stays bounded. */
export const WORKING_SET_PART_MAX = 5_000;

// Each query reads live rows and tombstones of one window; the (version) index makes a small delta cheap
// whatever the size of the table. A full pull (after = 0) starts from nothing, so it needs no tombstones.

/** The tables a pull reads by version window. */
export type SyncedTable = 'services' | 'users' | 'orders' | 'wise_stocks' | 'service_stocks';

/** A window's rows of any synced table: its versions, and no tombstone in a full pull. */
export function inWindow(window: VersionWindow) {
  return (eb: ExpressionBuilder<Database, SyncedTable>) => {
    const versions = [eb('version', '>', window.after), eb('version', '<=', window.upTo)];
    return eb.and(window.after === 0 ? [...versions, eb('deleted_at', 'is', null)] : versions);
  };
}

export function changedServices(db: Db, window: VersionWindow) {
  return db
    .selectFrom('services')
    .selectAll()
    .where(inWindow(window))
    .orderBy('version')
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}

export function changedSiteSettings(db: Db, window: VersionWindow) {
  return db
    .selectFrom('settings')
    .selectAll()
    .where('id', '=', SITE_SETTINGS_ID)
    .where('version', '>', window.after)
    .where('version', '<=', window.upTo)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Users in the window: one (the caller's own record) or, for staff, all of them. */
export function changedUsers(db: Db, window: VersionWindow, onlyId?: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where(inWindow(window))
    .$if(onlyId !== undefined, (qb) => qb.where('id', '=', onlyId!))
    .orderBy('version')
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}

/** The caller's own orders in the window, tombstones included. */
export function changedOwnOrders(db: Db, window: VersionWindow, userId: string) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where(inWindow(window))
    .orderBy('version')
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}

/**
 * The ids of a staff device's working set (decision 187), each part its newest WORKING_SET_PART_MAX read
 * from an index of its own: orders that need staff (paid and awaiting delivery, a payment proof to check:
 * the bell's rules; an open problem report) and orders changed in the last `days` days. Older orders stay
 * a server query (the admin list, its search), kept on the device once opened.
 */
export function workingSetIds(now: Date, days = STAFF_SYNC_DAYS) {
  const since = new Date(now.getTime() - days * 24 * 3600 * 1000);
  const part = (where: ReturnType<typeof sql>, by: 'created_at' | 'updated_at') =>
    sql`(select id from orders where deleted_at is null and ${where} order by ${sql.ref(by)} desc limit ${WORKING_SET_PART_MAX})`;
  const needsStaff = sql.raw(`order_status in ('pending', 'processing') and ((${attentionSql.delivery}) or (${attentionSql['payment-check']}))`);
  return sql<string>`(${part(needsStaff, 'created_at')} union ${part(sql`report_status = 'open'`, 'created_at')} union ${part(sql`updated_at >= ${since}`, 'updated_at')})`;
}

/** Staff's working set in the window (workingSetIds), and tombstones of any order past a first pull. */
export function changedWorkingSetOrders(db: Db, window: VersionWindow, now: Date, days = STAFF_SYNC_DAYS) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where(inWindow(window))
    .where((eb) => eb.or([...(window.after === 0 ? [] : [eb('deleted_at', 'is not', null)]), eb('id', 'in', workingSetIds(now, days))]))
    .orderBy('version')
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}

export function changedStocks(db: Db, window: VersionWindow) {
  return db
    .selectFrom('wise_stocks')
    .selectAll()
    .where(inWindow(window))
    .orderBy('version')
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}
