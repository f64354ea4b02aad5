import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool, type Transaction, type Updateable } from 'kysely';
import { resolveImageUrl, type BlobStore } from '../blobs/blob-store.ts';
import type { Order } from '../contract.ts';
import type { Secrets } from '../lib/secrets.ts';
import type { Database, OrderRow, OrdersTable, OrderStatus, PaymentStatus } from './schema.ts';
import { writeTime } from './versions.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const orderStatuses: readonly OrderStatus[] = ['pending', 'processing', 'completed', 'delivered', 'cancelled'];
export const paymentStatuses: readonly PaymentStatus[] = ['pending', 'paid', 'failed', 'refunded'];

/**
 * Who reads the order: its owner sees the delivered credentials (password included) once the order is
 * paid and delivered; staff see the delivered email and proof image, never the password.
 */
export type OrderAudience = 'owner' | 'staff';

const credentialsDelivered = (row: OrderRow) =>
  row.wise_email !== null && row.payment_status === 'paid' && (row.order_status === 'delivered' || row.order_status === 'completed');

export async function presentOrder(row: OrderRow, audience: OrderAudience, secrets: Secrets, blobs: BlobStore): Promise<Order> {
  const order: Order = {
    id: row.id,
    productId: row.product_id,
    title: row.title,
    description: row.description,
    category: row.category,
    image: row.image,
    price: row.price,
    deliveryTime: row.delivery_time,
    userId: row.user_id,
    userEmail: row.user_email,
    userName: row.user_name,
    paymentStatus: row.payment_status,
    orderStatus: row.order_status,
    orderDate: new Date(row.order_date).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
  };
  if (audience === 'staff') {
    if (row.wise_email !== null) order.wiseEmail = row.wise_email;
    if (row.wise_image) order.wiseImage = await resolveImageUrl(blobs, row.wise_image);
    order.stockId = row.stock_id;
    return order;
  }
  if (credentialsDelivered(row)) {
    order.wiseEmail = row.wise_email!;
    if (row.wise_password_enc) order.wisePassword = await secrets.decrypt(row.wise_password_enc);
    if (row.wise_image) order.wiseImage = await resolveImageUrl(blobs, row.wise_image);
  }
  return order;
}

/** A new order: the service's details as the customer saw them, who placed it, and when. */
export type NewOrderFields = Pick<
  Order,
  'id' | 'productId' | 'title' | 'description' | 'category' | 'image' | 'price' | 'deliveryTime' | 'userId' | 'userEmail' | 'userName'
> & { orderDate: Date };

/** Inserts a pending order; undefined when the id is taken (a replayed placement). */
export function insertOrder(db: Db, fields: NewOrderFields, version: number) {
  return db
    .insertInto('orders')
    .values({
      id: fields.id,
      product_id: fields.productId,
      title: fields.title,
      description: fields.description,
      category: fields.category,
      image: fields.image,
      price: fields.price,
      delivery_time: fields.deliveryTime,
      user_id: fields.userId,
      user_email: fields.userEmail,
      user_name: fields.userName,
      payment_status: 'pending',
      order_status: 'pending',
      order_date: fields.orderDate,
      created_at: fields.orderDate,
      updated_at: fields.orderDate,
      version,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findOrder(db: Db, id: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Any order row with this id, soft-deleted or not. */
export function findOrderIncludingDeleted(db: Db, id: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The live row, locked until the transaction ends. */
export function lockOrder(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('orders').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

export function listUserOrders(db: Db, userId: string) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export interface AdminOrderFilter {
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  search?: string;
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
  ];
}

/** Live orders matching the filter; a search matches orders whose id, title, customer email or name contain it. */
function matches(eb: ExpressionBuilder<Database, 'orders'>, filter: AdminOrderFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = statusConditions(filter);
  const term = searchTerm(filter);
  if (term) {
    const indexed = indexedPart(term);
    conditions.push(eb(searchText, 'like', `%${escapeLike(indexed)}%`));
    // strpos is no trigram operator: it filters the rows the index found instead of widening the index scan.
    if (indexed !== term) conditions.push(eb(eb.fn('strpos', [searchText, eb.val(term)]), '>', 0));
  }
  return eb.and(conditions);
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

/** Counting every match of a broad filter over a million orders costs more than the page itself. */
const TOTAL_COUNT_CAP = 10_000;
/** A count that takes longer than this gives way to a lower bound (see docs/decisions/008-capped-order-totals.md). */
const COUNT_TIMEOUT_MS = 10;
const QUERY_CANCELED = '57014';

/** Null for a statement stopped by its statement_timeout; any other failure stands. */
function nullWhenCanceled(error: unknown): null {
  if ((error as { code?: string }).code === QUERY_CANCELED) return null;
  throw error;
}

export interface AdminOrderList {
  rows: OrderRow[];
  total: number;
  totalIsLowerBound: boolean;
}

/** One page, newest first (the order of the index orders_created_idx), and how many match in all. */
export async function listAdminOrders(
  db: Kysely<Database>,
  filter: AdminOrderFilter,
  page: number,
  limit: number,
  { countTimeoutMs = COUNT_TIMEOUT_MS } = {},
): Promise<AdminOrderList> {
  const offset = (page - 1) * limit;
  const countCap = Math.max(TOTAL_COUNT_CAP, page * limit + 1);
  // One row past the page tells whether another page exists, whatever the count says.
  const pageQuery = (trx: Db) =>
    trx
      .selectFrom('orders')
      .where((eb) => matches(eb, filter))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'asc')
      .limit(limit + 1)
      .offset(offset);
  const countMatches = () =>
    db
      .transaction()
      .execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(countTimeoutMs)}, true)`.execute(trx);
        const row = await trx
          .selectFrom((qb) => qb.selectFrom('orders').select('id').where((eb) => matches(eb, filter)).limit(countCap).as('capped'))
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .executeTakeFirstOrThrow();
        return Number(row.total);
      })
      .catch(nullWhenCanceled);
  const answer = (fetched: OrderRow[], counted: number | null): AdminOrderList => {
    const rows = fetched.slice(0, limit);
    if (counted === null) {
      // Too slow to count: say how many are known to exist (the extra row, if any, proves another page).
      return { rows, total: offset + fetched.length, totalIsLowerBound: fetched.length > limit };
    }
    return { rows, total: counted, totalIsLowerBound: counted >= countCap };
  };

  if (!searchTerm(filter)) {
    const [fetched, counted] = await Promise.all([pageQuery(db).selectAll().execute(), countMatches()]);
    return answer(fetched, counted);
  }

  const plan = await searchPlan(db, filter, offset + limit + 1);
  if (plan.way === 'walk') {
    const walked = db
      .transaction()
      .execute(async (trx) => {
        // Settings local to the transaction: only the newest-first index, and not for long.
        await sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true),
                         set_config('statement_timeout', ${String(WALK_TIMEOUT_MS)}, true)`.execute(trx);
        return pageQuery(trx).selectAll().execute();
      })
      .catch(nullWhenCanceled);
    // So common a term has more matches than a count would go to, and reaching them takes longer than
    // it may: the total is a lower bound at once.
    const counted = plan.matchesAbout > 2 * countCap ? Promise.resolve(null) : countMatches();
    const [fetched, total] = await Promise.all([walked, counted]);
    if (fetched) return answer(fetched, total);
  }

  // A rare term: the trigram index finds every match before the page is sorted out of them, so they
  // are counted in the same pass.
  const found = await db.transaction().execute(async (trx) => {
    await sql`select set_config('enable_indexscan', 'off', true)`.execute(trx);
    return pageQuery(trx).selectAll().select(sql<number>`count(*) over ()`.as('match_count')).execute();
  });
  const fetched = found.map(({ match_count: _count, ...row }) => row);
  if (found.length > 0) return { rows: fetched.slice(0, limit), total: Number(found[0]!.match_count), totalIsLowerBound: false };
  // A page past the last one has no row to carry the count.
  return answer(fetched, offset === 0 ? 0 : await countMatches());
}

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

/** The leading number of a price text ('$25.50 USD' -> 25.50), thousands separators ignored; 0 when there is none. */
const priceAmount = sql<number>`coalesce(substring(replace(price, ',', '') from '[0-9]+(?:[.][0-9]+)?')::numeric, 0)`;

export async function orderTotals(db: Db) {
  const row = await db
    .selectFrom('orders')
    .select([
      sql<number>`count(*)`.as('totalOrders'),
      sql<number>`round(coalesce(sum(${priceAmount}) filter (where payment_status = 'paid'), 0), 2)::float8`.as('totalRevenue'),
      sql<number>`count(distinct user_id)`.as('activeCustomers'),
      sql<number>`count(*) filter (where payment_status = 'pending')`.as('pendingPayments'),
      sql<number>`count(*) filter (where order_status = 'delivered')`.as('delivered'),
    ])
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    totalOrders: Number(row.totalOrders),
    totalRevenue: Number(row.totalRevenue),
    activeCustomers: Number(row.activeCustomers),
    pendingPayments: Number(row.pendingPayments),
    delivered: Number(row.delivered),
  };
}

export function latestOrders(db: Db, count: number) {
  return db.selectFrom('orders').selectAll().where('deleted_at', 'is', null).orderBy('created_at', 'desc').orderBy('id').limit(count).execute();
}

/** Orders and paid revenue per UTC day since `since`; days without orders are absent. */
export async function dailyTotals(db: Db, since: Date) {
  const rows = await db
    .selectFrom('orders')
    .select([
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      sql<number>`count(*)`.as('orders'),
      sql<number>`round(coalesce(sum(${priceAmount}) filter (where payment_status = 'paid'), 0), 2)::float8`.as('revenue'),
    ])
    .where('deleted_at', 'is', null)
    .where('created_at', '>=', since)
    .groupBy(sql`1`)
    .execute();
  return new Map(rows.map((row) => [row.day, { orders: Number(row.orders), revenue: Number(row.revenue) }]));
}

export function updateOrder(db: Db, id: string, changes: Updateable<OrdersTable>, version: number) {
  return db
    .updateTable('orders')
    .set({ ...changes, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function softDeleteOrder(db: Db, id: string, version: number) {
  return db
    .updateTable('orders')
    .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

export interface CredentialsProbe {
  emailIndex?: string;
  passwordIndex?: string;
  excludeOrderId?: string;
}

/** Duplicate check over paid, live orders that hold credentials, through the blind indexes only. */
export async function checkCredentials(db: Db, probe: CredentialsProbe) {
  const { emailIndex, passwordIndex, excludeOrderId } = probe;
  const base = db
    .selectFrom('orders')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('payment_status', '=', 'paid')
    .where('wise_email', 'is not', null)
    .$if(excludeOrderId !== undefined, (qb) => qb.where('id', '<>', excludeOrderId!))
    .limit(1);
  const [email, password, both] = await Promise.all([
    emailIndex ? base.where('wise_email_index', '=', emailIndex).executeTakeFirst() : undefined,
    passwordIndex ? base.where('wise_password_index', '=', passwordIndex).executeTakeFirst() : undefined,
    emailIndex && passwordIndex
      ? base.where('wise_email_index', '=', emailIndex).where('wise_password_index', '=', passwordIndex).executeTakeFirst()
      : undefined,
  ]);
  return { exactMatch: both !== undefined, emailExists: email !== undefined, passwordExists: password !== undefined };
}

/** The stock row, locked until the transaction ends, whatever its status (the caller decides). */
export function lockStockForDelivery(trx: Transaction<Database>, stockId: string) {
  return trx.selectFrom('wise_stocks').selectAll().where('id', '=', stockId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

export function markStockSold(db: Db, stockId: string, sale: { userId: string; orderId: string }, version: number) {
  return db
    .updateTable('wise_stocks')
    .set({ status: 'sold', sold_to: sale.userId, order_id: sale.orderId, version, updated_at: writeTime() })
    .where('id', '=', stockId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
}
