import { useCallback, useEffect, useRef, useState } from 'react';
import { NEXT_CURSOR_HEADER } from '../../../edge-api/src/contract/list-pages.ts';
import { unwrap } from './api-client.ts';

/** One page of a staff list as the server answered it, and the cursor of the next one (null on the last). */
export interface ListPage<T> {
  items: T[];
  next: string | null;
}

type PageQuery = { cursor?: string };
type Answer<T, Body = T[]> = Promise<{ ok: boolean; status: number; headers: { get(name: string): string | null }; json(): Promise<Body> }>;
/** The rows of a page's body: the body itself for most lists, a field of it for some (`{ coupons }`: decision 242). */
type RowsOf<T, Body> = (body: Body) => T[];

/** Reads a page: its rows, and the next page's cursor from X-Next-Cursor (decision 234). */
export async function unwrapPage<T, Body = T[]>(request: Answer<T, Body>, rowsOf?: RowsOf<T, Body>): Promise<ListPage<T>> {
  const response = await request;
  const body = await unwrap<Body>(Promise.resolve(response));
  const items = rowsOf ? rowsOf(body) : (body as T[]);
  return { items, next: response.ok ? response.headers.get(NEXT_CURSOR_HEADER) : null };
}

/**
 * Every row of a list, one bounded page after another: for a device's copy, where a row missing from the
 * whole list was deleted (users, Wise stocks). `ask` sends one request with the query given.
 */
export async function fetchAllPages<T>(ask: (args: { query: PageQuery }) => Answer<T>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrapPage(ask({ query: cursor === undefined ? {} : { cursor } }));
    all.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  return all;
}

export interface KeysetPages<T> {
  /** The rows of the pages loaded so far; null before the first page came (or while offline). */
  items: T[] | null;
  /** Another page follows the ones shown. */
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  /** Asks for the next page (nothing while a page is on its way). */
  loadMore: () => void;
  /** Starts again from the first page. */
  reload: () => Promise<void>;
  /** Puts a changed row in place of the one with its id. */
  replace: (item: T) => void;
  /** Puts a changed row in place of the one with its id, or a new one first (decision 242). */
  put: (item: T) => void;
}

/**
 * A server-only list shown page by page with "Load more" (decision 234): the first page when `enabled`,
 * then one page per loadMore. An answer to a reload started since is dropped. `rowsOf` picks the rows of
 * a body that is not the list itself.
 */
export function useKeysetPages<T extends { id: string }, Body = T[]>(
  ask: (args: { query: PageQuery }) => Answer<T, Body>,
  enabled: boolean,
  rowsOf?: RowsOf<T, Body>,
): KeysetPages<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const askRef = useRef(ask);
  const rowsRef = useRef(rowsOf);
  const generation = useRef(0);
  useEffect(() => {
    askRef.current = ask;
    rowsRef.current = rowsOf;
  });

  const fetchPage = useCallback(async (cursor: string | undefined, append: boolean) => {
    const mine = append ? generation.current : ++generation.current;
    setLoading(true);
    try {
      const page = await unwrapPage(askRef.current({ query: cursor === undefined ? {} : { cursor } }), rowsRef.current);
      if (mine !== generation.current) return;
      setItems((shown) => (append && shown ? [...shown, ...page.items.filter((item) => !shown.some((s) => s.id === item.id))] : page.items));
      setNext(page.next);
      setFailed(false);
    } catch (error) {
      if (mine !== generation.current) return;
      console.warn('Loading a list page failed', error);
      setFailed(true);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  const reload = useCallback(() => fetchPage(undefined, false), [fetchPage]);
  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);

  const loadMore = useCallback(() => {
    if (next !== null && !loading) void fetchPage(next, true);
  }, [fetchPage, next, loading]);
  const replace = useCallback((item: T) => setItems((shown) => shown?.map((s) => (s.id === item.id ? item : s)) ?? null), []);
  const put = useCallback(
    (item: T) => setItems((shown) => (shown?.some((s) => s.id === item.id) ? shown.map((s) => (s.id === item.id ? item : s)) : [item, ...(shown ?? [])])),
    [],
  );

  return { items, hasMore: next !== null, loading, failed, loadMore, reload, replace, put };
}
