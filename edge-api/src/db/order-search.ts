import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { attentionSql, type OrderAttention } from '../contract/order-attention.ts';
import type { OrderStatus, PaymentStatus } from '../contract/orders.ts';
import { cursorAt, pastCursor, writeOrderCursor, type OrderCursor } from './order-cursor.ts';
import type { Database, OrderRow } from './schema.ts';
import { readVersionToken, versionToken } from './versions.ts';
import type { Db } from './handle.ts';

export interface AdminOrderFilter {
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  search?: string;
  /** 'open': only orders whose problem report waits for staff. */
  report?: 'open';
  /** The orders a bell item counts (contract/order-attention.ts). */
  attention?: OrderAttention;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Exactly the expression of the trigram index orders_search_idx. */
const searchText = sql<string>`lower(id::text || ' ' || title || ' ' || user_email || ' ' || user_name)`;

/**
 * The part of a search term the trigram index is asked for. An email's domain (gmail.com) is shared by
 * most customers, so its trigrams have the longest lists in the index and reading them took two thirds of
 * a full-email search; the part up to the '@' names the customer. The whole term is still checked on
 * every row found, so the answer is the same.
 */
function indexedPart(term: string): string {
  const at = term.indexOf('@');
  return at >= 3 ? term.slice(0, at + 1) : term;
}

/** The filter's conditions other than the search, as SQL: one source for the query builder and the raw sample query. */
function statusConditions(filter: AdminOrderFilter): RawBuilder<SqlBool>[] {
  return [
    sql<SqlBool>`deleted_at is null`,
    ...(filter.status ? [sql<SqlBool>`order_status = ${filter.status}`] : []),
    ...(filter.paymentStatus ? [sql<SqlBool>`payment_status = ${filter.paymentStatus}`] : []),
    ...(filter.report ? [sql<SqlBool>`report_status = ${filter.report}`] : []),
    ...(filter.attention ? [sql<SqlBool>`(${sql.raw(attentionSql[filter.attention])})`] : []),
  ];
}

/** The search term's conditions (none without a term), as SQL over the columns of orders or of a subquery with them. */
function termConditions(filter: AdminOrderFilter): RawBuilder<SqlBool>[] {
  const term = searchTerm(filter);
  if (!term) return [];
  const indexed = indexedPart(term);
  const conditions = [sql<SqlBool>`${searchText} like ${`%${escapeLike(indexed)}%`}`];
  // strpos is no trigram operator: it filters the rows the index found instead of widening the index scan.
  if (indexed !== term) conditions.push(sql<SqlBool>`strpos(${searchText}, ${term}) > 0`);
  return conditions;
}

/** Live orders matching the filter; a search matches orders whose id, title, customer email or name contain it. */
export function matches(eb: ExpressionBuilder<Database, 'orders'>, filter: AdminOrderFilter): Expression<SqlBool> {
  return eb.and([...statusConditions(filter), ...termConditions(filter)]);
}

const searchTerm = (filter: AdminOrderFilter) => filter.search?.trim().toLowerCase() || undefined;

/** The newest orders (of the status filters) looked at to judge how common a search term is: where a walk begins. */
const NEWEST_SAMPLE_ROWS = 200;
/** And table blocks read at random (about 20 orders each): how common it is further down. */
const SAMPLE_BLOCKS = 25;
/** Fewer sampled matches than this say too little to extrapolate from. */
const MIN_SAMPLE_HITS = 5;
/** A page expected within this many newest orders is found faster by walking them than through the trigram index. */
const WALK_ROWS = 20_000;
/** A walk that takes longer than this was a wrong guess: the trigram index takes over. */
const WALK_TIMEOUT_MS = 200;

/**
 * How to find a searched page. Postgres cannot estimate how common a substring is (it guesses 0.2% for
 * 'gmail', which is in one order of eight), so it read every match of a common word through the
 * trigram index and sorted them all: 0.4 to 0.9 s over a million orders. Samples tell instead: the
 * newest orders, where a walk down the newest-first index begins, and a few random blocks of the
 * table, since one customer's burst of orders can hide a common word from the newest. When matches
 * are dense enough in either to reach the page soon, the walk finds it at once; when they are rare in
 * both, the trigram index does.
 */
async function searchPlan(db: Db, filter: AdminOrderFilter, rowsWanted: number): Promise<{ way: 'walk' | 'trigram'; matchesAbout: number }> {
  const term = searchTerm(filter)!;
  const filters = sql.join(statusConditions(filter), sql` and `);
  const hit = sql`count(*) filter (where strpos(search_text, ${term}) > 0)`;
  const blocks = sql`greatest(pg_relation_size('orders') / current_setting('block_size')::int, 1)`;
  const { rows } = await sql<{ newest: number; newest_hits: number; sampled: number; sampled_hits: number; blocks: number }>`
    select newest.rows as newest, newest.hits as newest_hits, sampled.rows as sampled, sampled.hits as sampled_hits, ${blocks} as blocks
    from (select count(*) as rows, ${hit} as hits
          from (select ${searchText} as search_text from orders where ${filters}
                order by created_at desc limit ${NEWEST_SAMPLE_ROWS}) as recent) as newest,
         (select count(*) as rows, ${hit} as hits
          from (select ${searchText} as search_text from orders
                tablesample system ((select least(100, ${SAMPLE_BLOCKS} * 100.0 / ${blocks}))) where ${filters}) as picked) as sampled`.execute(db);
  const { newest, newest_hits, sampled, sampled_hits, blocks: tableBlocks } = rows[0]!;
  const shortWalk = (seen: number, hits: number) => Number(hits) >= MIN_SAMPLE_HITS && (rowsWanted * Number(seen)) / Number(hits) <= WALK_ROWS;
  return {
    way: shortWalk(newest, newest_hits) || shortWalk(sampled, sampled_hits) ? 'walk' : 'trigram',
    matchesAbout: (Number(sampled_hits) * Number(tableBlocks)) / Math.min(Number(tableBlocks), SAMPLE_BLOCKS),
  };
}

/**
 * The newest orders (of the status filters, past the cursor) a search first looks for its page among, in
 * list order: a common word fills its page there at once, before any sample is taken (decision 261).
 */
const NEWEST_WINDOW_ROWS = 300;
/**
 * A count of more matches than this does not end within the count's time limit at a million orders, so
 * it is not begun: the total is a lower bound at once (decision 261).
 */
const COUNTABLE_MATCHES = 1_000;

/** Counting every match of a broad filter over a million orders costs more than the page itself. */
const TOTAL_COUNT_CAP = 10_000;
/** A count that takes longer than this gives way to a lower bound (see docs/decisions/008-capped-order-totals.md). */
const COUNT_TIMEOUT_MS = 10;
/** Counting up to a page past the last is bounded by that page; only a stalled server takes this long. */
const PAST_LAST_PAGE_COUNT_TIMEOUT_MS = 2_000;
const QUERY_CANCELED = '57014';

/** Null for a statement stopped by its statement_timeout; any other failure stands. */
function nullWhenCanceled(error: unknown): null {
  if ((error as { code?: string }).code === QUERY_CANCELED) return null;
  throw error;
}

/**
 * Counts already made, per pool, remembered with the version token read before them (decisions 071,
 * 189). Every write to an order takes a version in its own transaction (db/versions.ts), and the token
 * changes whenever such a write commits: a page whose statement reads, after its snapshot, the token a
 * count was made under sees the orders that count saw, so the count is still exact for it. A page read
 * under any other token counts again. Writes that bypass nextVersion (hand-run SQL) are covered by the
 * age limit.
 */
const countMemory = new WeakMap<object, Map<string, { total: number; version: string; at: number }>>();
/** The longest a remembered count is used, whatever the version says. */
const COUNT_MEMORY_MS = 10_000;
/** Distinct filters remembered per pool: past this the memory starts again. */
const COUNT_MEMORY_ENTRIES = 256;

export interface AdminOrderList {
  rows: OrderRow[];
  total: number;
  totalIsLowerBound: boolean;
  /** Where the next page starts, when a row past this one was seen. */
  nextCursor?: string;
  /** Where the page before this one ends, when this is not the first. */
  prevCursor?: string;
}

interface ListOptions {
  countTimeoutMs?: number;
  /** Page by key from here (decision 185); `page` then only says how deep the page stands, for the totals. */
  cursor?: OrderCursor;
  /** A search counts its matches only when it expects at most this many (COUNTABLE_MATCHES). */
  countableMatches?: number;
}

type FoundRow = OrderRow & { cursor_at: string };

/** The filter's matches up to `cap`, with the version token read before its snapshot; null when it took longer than `timeoutMs`. */
function countFilter(db: Kysely<Database>, filter: AdminOrderFilter, cap: number, timeoutMs: number) {
  return db
    .transaction()
    .execute(async (trx) => {
      await sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(trx);
      // The token before the count's snapshot: the count holds every write committed under it (decision 189).
      const version = await readVersionToken(trx);
      const row = await trx
        .selectFrom((qb) =>
          qb
            .selectFrom('orders')
            .select('id')
            .where((eb) => matches(eb, filter))
            .limit(cap)
            .as('capped'),
        )
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), version };
    })
    .catch(nullWhenCanceled);
}

/**
 * The page among the NEWEST_WINDOW_ROWS newest orders of the status filters (past the cursor) alone, in list
 * order: when it fills (one row past it found), it holds exactly the rows of the whole search's page.
 * Also how many rows the table holds, as Postgres last estimated (-1: never estimated yet).
 */
async function readNewestPage(db: Kysely<Database>, filter: AdminOrderFilter, at: { cursor?: OrderCursor; limit: number; offset: number }) {
  const { cursor, limit, offset } = at;
  const direction = cursor?.direction === 'before' ? (['asc', 'desc'] as const) : (['desc', 'asc'] as const);
  let newest = db.selectFrom('orders').where((eb) => eb.and(statusConditions(filter)));
  if (cursor) newest = newest.where((eb) => pastCursor(eb, cursor));
  const window = newest.orderBy('created_at', direction[0]).orderBy('id', direction[1]).limit(NEWEST_WINDOW_ROWS).selectAll().select(cursorAt.as('cursor_at'));
  const found = await db
    .selectFrom(window.as('orders'))
    .where((eb) => eb.and(termConditions(filter)))
    .orderBy('created_at', direction[0])
    .orderBy('id', direction[1])
    .limit(limit + 1)
    .offset(offset)
    .selectAll()
    .select(sql<number>`(select reltuples::float8 from pg_class where oid = 'orders'::regclass)`.as('table_rows'))
    .execute();
  const rows: FoundRow[] = found.map(({ table_rows: _rows, ...row }) => row);
  return { rows, tableRows: found.length > 0 ? Number(found[0]!.table_rows) : 0 };
}

/**
 * A whole email or six characters and more of an order id are in a handful of orders: the newest ones are
 * not looked at for them first (the sample decides, as for any term the newest do not fill: a wrong guess only misses the shortcut).
 */
const looksRare = (term: string) => indexedPart(term) !== term || /^(?=.*\d)[0-9a-f-]{6,}$/.test(term);

/** A fetched page (with one row past it) in list order, and the cursors either side of it. */
function settlePage(found: FoundRow[], limit: number, cursor: OrderCursor | undefined, offset: number) {
  const backwards = cursor?.direction === 'before';
  const more = found.length > limit;
  const page = found.slice(0, limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const at = (row: FoundRow, direction: OrderCursor['direction']) => writeOrderCursor({ direction, createdAt: row.cursor_at, id: row.id });
  const nextCursor = last && (backwards || more) ? at(last, 'after') : undefined;
  const prevCursor = first && (backwards ? more : cursor !== undefined || offset > 0) ? at(first, 'before') : undefined;
  const rows: OrderRow[] = page.map(({ cursor_at: _at, ...row }) => row);
  return { rows, fetched: found.length, nextCursor, prevCursor };
}

/** One page, newest first (the order of the index orders_created_idx), and how many match in all. */
export async function listAdminOrders(
  db: Kysely<Database>,
  filter: AdminOrderFilter,
  page: number,
  limit: number,
  { countTimeoutMs = COUNT_TIMEOUT_MS, cursor, countableMatches = COUNTABLE_MATCHES }: ListOptions = {},
): Promise<AdminOrderList> {
  const offset = cursor ? 0 : (page - 1) * limit;
  /** How many matching orders stand before this page (a cursor's page says it; its own offset is 0). */
  const depth = (page - 1) * limit;
  const countCap = Math.max(TOTAL_COUNT_CAP, page * limit + 1);
  const backwards = cursor?.direction === 'before';
  // One row past the page tells whether another page exists, whatever the count says.
  const pageQuery = (trx: Db) => {
    let query = trx.selectFrom('orders').where((eb) => matches(eb, filter));
    if (cursor) query = query.where((eb) => pastCursor(eb, cursor));
    return query
      .orderBy('created_at', backwards ? 'asc' : 'desc')
      .orderBy('id', backwards ? 'desc' : 'asc')
      .limit(limit + 1)
      .offset(offset)
      .selectAll()
      .select(cursorAt.as('cursor_at'));
  };
  const countWithVersion = (cap = countCap, timeoutMs = countTimeoutMs) => countFilter(db, filter, cap, timeoutMs);
  const countMatches = async (cap = countCap, timeoutMs = countTimeoutMs) => (await countWithVersion(cap, timeoutMs))?.total ?? null;
  const answer = async (found: FoundRow[], counted: number | null): Promise<AdminOrderList> => {
    const { fetched, ...settled } = settlePage(found, limit, cursor, offset);
    if (counted !== null) return { ...settled, total: counted, totalIsLowerBound: counted >= countCap };
    // Too slow to count, and a page before this one says nothing of the rest: the rows seen are a lower bound.
    if (backwards) return { ...settled, total: depth + settled.rows.length, totalIsLowerBound: true };
    // A page with rows and none past it is the last one: its rows give the total.
    if (fetched > 0 && fetched <= limit) return { ...settled, total: depth + fetched, totalIsLowerBound: false };
    // The extra row proves another page: a lower bound.
    if (fetched > limit) return { ...settled, total: depth + fetched, totalIsLowerBound: true };
    // A page past the last proves nothing: count, at most as far as this page (bounded work, no tight limit).
    const upTo = depth === 0 ? 0 : await countMatches(depth, PAST_LAST_PAGE_COUNT_TIMEOUT_MS);
    return { ...settled, total: upTo ?? 0, totalIsLowerBound: upTo === null };
  };

  if (!searchTerm(filter)) {
    // The page carries the version token read after its snapshot: when a count of this filter was made
    // under the same token, it is this page's exact count and the page is one statement.
    let memory = countMemory.get(db);
    if (!memory) countMemory.set(db, (memory = new Map()));
    const key = JSON.stringify([filter.status, filter.paymentStatus, filter.report, filter.attention, countCap, countTimeoutMs]);
    const remembered = memory.get(key);
    const usable = remembered && Date.now() - remembered.at < COUNT_MEMORY_MS ? remembered : undefined;
    // Nothing remembered: count beside the page, as a first visit always did. Awaited together: a count
    // that fails while the page is read (the pool's wait for a connection ran out under load) would
    // otherwise be a rejection nobody handles, which ends the Node process (the 1,000,000-order bench).
    const [found, counting] = await Promise.all([pageQuery(db).select(versionToken.as('sync_version')).execute(), usable ? undefined : countWithVersion()]);
    const fetched: FoundRow[] = found.map(({ sync_version: _version, ...row }) => row);
    const pageVersion = found.length > 0 ? found[0]!.sync_version : undefined;
    if (usable && pageVersion === usable.version) return answer(fetched, usable.total);
    const counted = usable ? await countWithVersion() : counting;
    if (counted) {
      if (memory.size >= COUNT_MEMORY_ENTRIES) memory.clear();
      memory.set(key, { ...counted, at: Date.now() });
    }
    return answer(fetched, counted?.total ?? null);
  }

  const readPage = (trx: Db) => pageQuery(trx).execute();
  const readNewest = () => readNewestPage(db, filter, { cursor, limit, offset });
  const readCounted = async (trx: Db) => {
    const found = await pageQuery(trx)
      .select(sql<number>`count(*) over ()`.as('match_count'))
      .execute();
    const rows: FoundRow[] = found.map(({ match_count: _count, ...row }) => row);
    return { rows, matching: found.length > 0 ? Number(found[0]!.match_count) : undefined };
  };
  const settle = (found: FoundRow[]) => settlePage(found, limit, cursor, offset);
  return searchedPage(db, filter, {
    readNewest,
    limit,
    readPage,
    readCounted,
    answer,
    settle,
    countMatches,
    rowsWanted: offset + limit + 1,
    countableMatches,
    byCursor: cursor !== undefined,
    atStart: offset === 0,
  });
}

interface SearchParts {
  readNewest: () => Promise<{ rows: FoundRow[]; tableRows: number }>;
  limit: number;
  readPage: (trx: Db) => Promise<FoundRow[]>;
  /** The page with the count of every row the pass found (past a cursor: only those after it). */
  readCounted: (trx: Db) => Promise<{ rows: FoundRow[]; matching: number | undefined }>;
  answer: (found: FoundRow[], counted: number | null) => Promise<AdminOrderList>;
  settle: (found: FoundRow[]) => ReturnType<typeof settlePage>;
  countMatches: () => Promise<number | null>;
  rowsWanted: number;
  countableMatches: number;
  byCursor: boolean;
  /** No offset: a page with no row is simply empty. */
  atStart: boolean;
}

/** A searched page: a walk down the newest-first index when matches are dense, else the trigram index. */
async function searchedPage(db: Kysely<Database>, filter: AdminOrderFilter, parts: SearchParts): Promise<AdminOrderList> {
  const { readNewest, limit, readPage, readCounted, answer, settle, countMatches, rowsWanted, countableMatches, byCursor, atStart } = parts;
  if (rowsWanted <= NEWEST_WINDOW_ROWS && !looksRare(searchTerm(filter)!)) {
    const newest = await readNewest();
    if (newest.rows.length > limit) {
      // Filled among the newest rows: the term is in at least rowsWanted of every NEWEST_WINDOW_ROWS there.
      // Counting that many matches of a large table through the trigram index takes longer than the count may.
      const countable = newest.tableRows < 0 || (newest.tableRows * rowsWanted) / NEWEST_WINDOW_ROWS <= countableMatches;
      return answer(newest.rows, countable ? await countMatches() : null);
    }
  }
  // Only then the sample: it costs several times the look among the newest orders.
  const plan = await searchPlan(db, filter, rowsWanted);
  if (plan.way === 'walk') {
    const walked = db
      .transaction()
      .execute(async (trx) => {
        // Settings local to the transaction: only the newest-first index, and not for long.
        await sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true),
                         set_config('statement_timeout', ${String(WALK_TIMEOUT_MS)}, true)`.execute(trx);
        return readPage(trx);
      })
      .catch(nullWhenCanceled);
    // So common a term has more matches than can be counted in the count's time limit (the trigram index
    // reads every one of them): the total is a lower bound at once.
    const counted = plan.matchesAbout > countableMatches ? Promise.resolve(null) : countMatches();
    const [fetched, total] = await Promise.all([walked, counted]);
    if (fetched) return answer(fetched, total);
  }

  // A rare term: the trigram index finds every match before the page is sorted out of them, so they
  // are counted in the same pass (past a cursor only those after it are in the pass: counted apart).
  // Both awaited together, so a count that fails while the page is read is never left unhandled.
  const [{ rows, matching }, counted] = await Promise.all([
    db.transaction().execute(async (trx) => {
      await sql`select set_config('enable_indexscan', 'off', true)`.execute(trx);
      return readCounted(trx);
    }),
    byCursor ? countMatches() : undefined,
  ]);
  if (byCursor) return answer(rows, counted ?? null);
  if (matching !== undefined) {
    const { fetched: _fetched, ...settled } = settle(rows);
    return { ...settled, total: matching, totalIsLowerBound: false };
  }
  // A page past the last one has no row to carry the count.
  return answer(rows, atStart ? 0 : await countMatches());
}
