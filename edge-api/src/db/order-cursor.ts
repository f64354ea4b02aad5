import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A place in the admin order list (newest first: created_at desc, id asc), as the opaque cursor the API
 * answers (decision 185). `after`: the orders that follow the one named; `before`: those that precede it.
 * The sort key travels as Postgres text so no microsecond is lost on the way through JavaScript.
 */
export interface OrderCursor {
  direction: 'after' | 'before';
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Postgres' text of a timestamptz: 2026-11-29 06:56:42.123456+00 (the fraction and the offset's minutes optional). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** A timestamp Postgres takes: the pattern, and a real day and time (no 31 February). */
function isTimestamp(text: string): boolean {
  if (!TIMESTAMP.test(text)) return false;
  const [year, month, day, hour, minute, second] = text.split(/[- :.+]/).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1 && hour < 24 && minute < 60 && second < 60;
}

export function writeOrderCursor(cursor: OrderCursor): string {
  return Buffer.from(JSON.stringify([cursor.direction === 'after' ? 'a' : 'b', cursor.createdAt, cursor.id])).toString('base64url');
}

/** The cursor a string names, or null for anything this API did not answer. */
export function readOrderCursor(text: string): OrderCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.length !== 3) return null;
  const [direction, createdAt, id] = parts as unknown[];
  if ((direction !== 'a' && direction !== 'b') || typeof createdAt !== 'string' || typeof id !== 'string') return null;
  if (!isTimestamp(createdAt) || !UUID.test(id)) return null;
  return { direction: direction === 'a' ? 'after' : 'before', createdAt, id };
}

/** A cursor of a customer's order list, which only pages forward (the app's and /api/v1's); null otherwise. */
export function readForwardCursor(text: string): OrderCursor | null {
  const cursor = readOrderCursor(text);
  return cursor?.direction === 'after' ? cursor : null;
}

/**
 * The rows past the cursor in its direction. The plain bound on created_at is what the index is entered
 * at (a deep page costs what the first costs); the rest only settles ties on the same microsecond, since
 * the list's mixed directions (desc, asc) rule out a row comparison.
 */
export function pastCursor(eb: ExpressionBuilder<Database, 'orders'>, cursor: OrderCursor): Expression<SqlBool> {
  const at = sql<Date>`${cursor.createdAt}::timestamptz`;
  return cursor.direction === 'after'
    ? eb.and([eb('created_at', '<=', at), eb.or([eb('created_at', '<', at), eb('id', '>', cursor.id)])])
    : eb.and([eb('created_at', '>=', at), eb.or([eb('created_at', '>', at), eb('id', '<', cursor.id)])]);
}

/** created_at as Postgres text, selected beside a row to write its cursor. */
export const cursorAt = sql<string>`created_at::text`;
