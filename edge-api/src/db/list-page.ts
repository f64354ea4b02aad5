import { sql, type SqlBool } from 'kysely';
import { readForwardCursor, writeOrderCursor } from './order-cursor.ts';

/**
 * Keyset pages of the staff lists (decision 234): rows newest first (created_at desc, id asc), a page read
 * from the list's index at the cursor, so page 50 costs what page 1 costs. The cursor is the order list's
 * format (decision 185): the sort key as Postgres text, to the microsecond, and the id.
 */
export interface ListKey {
  createdAt: string;
  id: string;
}

/** A cursor this API answered, or null for anything else. */
export function readListCursor(text: string): ListKey | null {
  const cursor = readForwardCursor(text);
  return cursor ? { createdAt: cursor.createdAt, id: cursor.id } : null;
}

export const writeListCursor = (key: ListKey): string => writeOrderCursor({ direction: 'after', ...key });

/**
 * The rows past a key, for a table aliased `table` (or unaliased). The plain bound on the sort column
 * (created_at, or `column` for a list kept in another order: the tickets by last_message_at) enters the
 * index; the rest settles ties on the same microsecond (a row comparison cannot mix desc and asc).
 */
export function afterKey(key: ListKey, table?: string, column = 'created_at') {
  const createdAt = sql.ref(table ? `${table}.${column}` : column);
  const id = sql.ref(table ? `${table}.id` : 'id');
  const at = sql`${key.createdAt}::timestamptz`;
  return sql<SqlBool>`${createdAt} <= ${at} and (${createdAt} < ${at} or ${id} > ${key.id}::uuid)`;
}

/** The sort column (created_at unless named) as Postgres text, selected beside a row to write its cursor. */
export const listCursorAt = (table?: string, column = 'created_at') => sql<string>`${sql.ref(table ? `${table}.${column}` : column)}::text`;

export interface ListPage<Row> {
  rows: Row[];
  /** The cursor of the next page; null on the last one. */
  next: string | null;
}

/**
 * One page from rows read with `limit + 1`: the extra row only tells that another page follows.
 * `cursor_at` is dropped from the rows returned.
 */
export function toListPage<Row extends { id: string; cursor_at: string }>(found: Row[], limit: number): ListPage<Omit<Row, 'cursor_at'>> {
  const page = found.slice(0, limit);
  const last = page.at(-1);
  const next = found.length > limit && last ? writeListCursor({ createdAt: last.cursor_at, id: last.id }) : null;
  return { rows: page.map(({ cursor_at: _at, ...row }) => row), next };
}
