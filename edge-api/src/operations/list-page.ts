import type { Context } from 'hono';
import { LIST_PAGE_DEFAULT, NEXT_CURSOR_HEADER, type ListPageQuery } from '../contract/list-pages.ts';
import { readListCursor, toListPage, type ListKey } from '../db/list-page.ts';
import { badRequest } from '../errors.ts';

/**
 * A staff list's page as a route answers it (decision 234): `read` takes how many rows to read and the
 * key to start after; the next page's cursor goes in X-Next-Cursor while there is one. A cursor this API
 * did not answer is a 400 naming `cursor`.
 */
export async function answerListPage<Row extends { id: string; cursor_at: string }>(
  c: Context,
  query: ListPageQuery,
  read: (limit: number, after: ListKey | undefined) => Promise<Row[]>,
): Promise<Omit<Row, 'cursor_at'>[]> {
  const limit = query.limit ?? LIST_PAGE_DEFAULT;
  let after: ListKey | undefined;
  if (query.cursor !== undefined) {
    after = readListCursor(query.cursor) ?? undefined;
    if (!after) throw badRequest('cursor: must be a cursor this API answered', [{ path: 'cursor', message: 'must be a cursor this API answered' }]);
  }
  const page = toListPage(await read(limit + 1, after), limit);
  if (page.next) c.header(NEXT_CURSOR_HEADER, page.next);
  return page.rows;
}
