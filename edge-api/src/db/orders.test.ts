import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { listAdminOrders } from './orders.ts';

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
    // 1 ms is far too little to count 10,000 rows on Postgres; PGlite cannot interrupt a statement and counts.
    const rushed = await listAdminOrders(database.db, {}, 2, 10, { countTimeoutMs: 1 });
    expect(rushed.rows).toHaveLength(10);
    // Either way the answer is a lower bound that still promises a third page.
    expect(rushed.totalIsLowerBound).toBe(true);
    expect(rushed.total).toBeGreaterThan(20);
  });
});
