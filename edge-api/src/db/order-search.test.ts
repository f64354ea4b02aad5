import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { createPool } from './connect.ts';
import { listAdminOrders } from './order-search.ts';
import { insertOrder, softDeleteOrder, updateOrder } from './orders.ts';
import type { Database } from './schema.ts';
import { nextVersion } from './versions.ts';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
/** These tests are about the cap, not the time limit: give the count all the time it needs. */
const patient = { countTimeoutMs: 60_000 };

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`
    insert into orders (id, product_id, title, price, user_id, user_email, user_name, order_status, created_at, version)
    select gen_random_uuid(), gen_random_uuid(), 'Cloud VPS', '25', gen_random_uuid(), 'buyer' || n || '@example.test', 'Buyer ' || n,
           case when n <= 5 then 'delivered' else 'pending' end, now() - (n || ' minutes')::interval, 1
    from generate_series(1, 10005) as n`.execute(database.db);
});
afterAll(() => database.close());

describe('listAdminOrders totals', () => {
  it('counts exactly below the cap', async () => {
    const result = await listAdminOrders(database.db, { status: 'delivered' }, 1, 10, patient);
    expect(result.total).toBe(5);
    expect(result.totalIsLowerBound).toBe(false);
    expect(result.rows).toHaveLength(5);
  });

  it('stops counting a broad filter at 10,000 and says the total is a lower bound', async () => {
    const result = await listAdminOrders(database.db, {}, 1, 10, patient);
    expect(result.total).toBe(10_000);
    expect(result.totalIsLowerBound).toBe(true);
    expect(result.rows).toHaveLength(10);
  });

  it('always counts past the page asked for, so the last pages are exact', async () => {
    const last = await listAdminOrders(database.db, {}, 1001, 10, patient);
    expect(last.total).toBe(10_005);
    expect(last.totalIsLowerBound).toBe(false);
    expect(last.rows).toHaveLength(5);
    const beforeLast = await listAdminOrders(database.db, {}, 1000, 10, patient);
    expect(beforeLast.total).toBeGreaterThan(1000 * 10);
  });

  it('gives way to a lower bound when counting takes too long, and still knows whether another page exists', async () => {
    // 1 ms is far too little to count 10,000 rows.
    const rushed = await listAdminOrders(database.db, {}, 2, 10, { countTimeoutMs: 1 });
    expect(rushed.rows).toHaveLength(10);
    // Either way the answer is a lower bound that still promises a third page.
    expect(rushed.totalIsLowerBound).toBe(true);
    expect(rushed.total).toBeGreaterThan(20);
  });

  it('when counting takes too long, the last page still gives the exact total, and a page past it never claims more', async () => {
    // 1 ms is far too little to count 10,000 rows; the rows of the page are the proof.
    const last = await listAdminOrders(database.db, {}, 1001, 10, { countTimeoutMs: 1 });
    expect(last).toMatchObject({ total: 10_005, totalIsLowerBound: false });
    expect(last.rows).toHaveLength(5);
    const past = await listAdminOrders(database.db, {}, 2000, 10, { countTimeoutMs: 1 });
    expect(past).toMatchObject({ rows: [], total: 10_005, totalIsLowerBound: false });
  });
});

describe('listAdminOrders count memory (decision 071)', () => {
  it('reuses a count made at the same sync version, and counts again after any write takes a new version', async () => {
    // A pool of its own whose statements are recorded, on the same schema.
    const statements: string[] = [];
    const watched = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: createPool({ databaseUrl: database.databaseUrl, searchPath: `${database.schema},public`, maxConnections: 2 }),
      }),
      log: (event) => void statements.push(event.query.sql),
    });
    const counts = () => statements.filter((text) => text.includes('count(*)')).length;
    const id = crypto.randomUUID();
    try {
      const first = await listAdminOrders(watched, { status: 'delivered' }, 1, 10, patient);
      expect(first).toMatchObject({ total: 5, totalIsLowerBound: false });
      expect(counts()).toBe(1);
      statements.length = 0;
      const again = await listAdminOrders(watched, { status: 'delivered' }, 1, 10, patient);
      expect(again).toMatchObject({ total: 5, totalIsLowerBound: false });
      expect(again.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
      // One statement: the page, which read the version the count was made at.
      expect(statements).toHaveLength(1);

      // A new order, written as the app writes one: a new version, and the next list counts it.
      await database.db.transaction().execute(async (trx) => {
        const fields = { id, productId: crypto.randomUUID(), title: 'Cloud VPS', description: '', category: 'vps', image: '', price: '25' };
        const customer = { userId: crypto.randomUUID(), userEmail: 'late@example.test', userName: 'Late Buyer', deliveryTime: '1hour', orderDate: new Date() };
        const version = await nextVersion(trx);
        await insertOrder(trx, { ...fields, ...customer }, version);
        await updateOrder(trx, id, { order_status: 'delivered' }, version);
      });
      const added = await listAdminOrders(watched, { status: 'delivered' }, 1, 10, patient);
      expect(added).toMatchObject({ total: 6, totalIsLowerBound: false });
      expect(added.rows[0]!.id).toBe(id);

      // A write to any other order (or any other table) takes a new version too: counted again, still exact.
      await database.db.transaction().execute(async (trx) => softDeleteOrder(trx, id, await nextVersion(trx)));
      statements.length = 0;
      const removed = await listAdminOrders(watched, { status: 'delivered' }, 1, 10, patient);
      expect(removed).toMatchObject({ total: 5, totalIsLowerBound: false });
      expect(counts()).toBe(1);
    } finally {
      await watched.destroy();
      // The other tests count on five delivered orders, whatever happened above.
      await database.db.updateTable('orders').set({ deleted_at: new Date() }).where('id', '=', id).execute();
    }
  });
});

describe('listAdminOrders search', () => {
  const searchText = (n: number) => `cloud vps buyer${n}@example.test buyer ${n}`;
  /** What the search must answer, worked out here: order numbers containing the term, newest (lowest n) first. */
  const expected = (term: string) => Array.from({ length: 10_005 }, (_, i) => i + 1).filter((n) => searchText(n).includes(term.toLowerCase()));
  const numbers = (rows: { user_name: string }[]) => rows.map((row) => Number(row.user_name.slice('Buyer '.length)));

  // Common terms are found by walking the orders newest first, rare ones through the trigram index (the
  // way is chosen from a random sample): whichever way is taken, the answer must be the same.
  it.each([
    ['a word in every order, first page', 'Cloud VPS', 1, 10],
    ['a word in every order, deep page', 'cloud vps', 90, 100],
    ['a term in one order in a hundred, second page', 'buyer 12', 2, 10],
    ['a term in one order in a hundred, its last page', 'BUYER 12', 12, 10],
    ['a whole email (its part up to the @ looked up, then the whole term checked)', 'buyer77@example.test', 1, 10],
    ['a rare term', 'buyer 9999', 1, 25],
  ])('finds %s', async (_case, term, page, limit) => {
    const want = expected(term);
    const result = await listAdminOrders(database.db, { search: term }, page, limit, patient);
    expect(numbers(result.rows)).toEqual(want.slice((page - 1) * limit, page * limit));
    if (want.length <= 10_000) expect(result).toMatchObject({ total: want.length, totalIsLowerBound: false });
  });

  // Decision 261: a page the newest orders fill is answered from them; on a table so large that counting
  // that common a term cannot end in time, no count is begun and the total is the lower bound the page proves.
  it.each([
    ['first page', 'cloud vps', 1, 10],
    ['third page', 'Cloud VPS', 3, 10],
    ['one order in ninety, second page', 'BUYER 1', 2, 10],
  ])('answers the %s of a term the newest orders fill with the same rows, its total a lower bound when not counted', async (_case, term, page, limit) => {
    // Postgres' estimate of the table's rows, which the decision to count is made from.
    await sql`analyze orders`.execute(database.db);
    const want = expected(term);
    const result = await listAdminOrders(database.db, { search: term }, page, limit, { ...patient, countableMatches: 0 });
    expect(numbers(result.rows)).toEqual(want.slice((page - 1) * limit, page * limit));
    expect(result).toMatchObject({ total: page * limit + 1, totalIsLowerBound: true });
  });

  it('still counts a rare term exactly when a count would not be begun', async () => {
    const result = await listAdminOrders(database.db, { search: 'buyer 9999' }, 1, 10, { ...patient, countableMatches: 0 });
    expect(numbers(result.rows)).toEqual([9999]);
    expect(result).toMatchObject({ total: 1, totalIsLowerBound: false });
  });

  it('keeps the total on a page past the last one', async () => {
    const result = await listAdminOrders(database.db, { search: 'buyer77@' }, 3, 10, patient);
    expect(result).toMatchObject({ rows: [], total: 1, totalIsLowerBound: false });
  });

  it('applies the status filter to every way of searching', async () => {
    const delivered = await listAdminOrders(database.db, { search: 'cloud', status: 'delivered' }, 1, 10, patient);
    expect(numbers(delivered.rows)).toEqual([1, 2, 3, 4, 5]);
    const rare = await listAdminOrders(database.db, { search: 'buyer 9999', status: 'delivered' }, 1, 10, patient);
    expect(rare).toMatchObject({ rows: [], total: 0 });
  });
});
