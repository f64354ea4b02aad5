import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { createPool } from './connect.ts';
import { listAdminOrders } from './order-search.ts';
import type { Database } from './schema.ts';

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`
    insert into orders (id, product_id, title, price, user_id, user_email, user_name, created_at, version)
    select gen_random_uuid(), gen_random_uuid(), 'Cloud VPS', '25', gen_random_uuid(), 'buyer' || n || '@example.test', 'Buyer ' || n,
           now() - (n || ' minutes')::interval, 1
    from generate_series(1, 30) as n`.execute(database.db);
});
afterAll(() => database.close());

/** Resolves once `ready()` holds, checking every few milliseconds (the pool emits no event for a waiter that gave up). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((done) => setTimeout(done, 5));
}

// The 1,000,000-order bench ended the Node entry: under load the pool's wait for a connection ran out
// for the count the list starts beside its page, while the page was still being read, and that
// rejection had no handler yet, which ends a Node process. The list must fail as one request instead.
it('a count that cannot get a connection while the page is read fails the list, not the process', async () => {
  const pool = createPool({
    databaseUrl: database.databaseUrl,
    searchPath: `${database.schema},public`,
    maxConnections: 1,
    timeouts: { connectMs: 1_000, statementMs: 10_000 },
  });
  const tight = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  let release = () => {};
  const released = new Promise<void>((done) => (release = done));
  let locked = () => {};
  const lockTaken = new Promise<void>((done) => (locked = done));
  // Another session holds the table: the page's statement waits on it, holding the pool's one connection.
  const holder = database.db.transaction().execute(async (trx) => {
    await sql`lock table orders in access exclusive mode`.execute(trx);
    locked();
    await released;
  });
  try {
    // The one connection open and idle first: the page takes it at once, however slow a new one is to open.
    // A loaded machine may take longer than connectMs to open it: asked again then.
    for (let attempt = 1; ; attempt++) {
      const opened = await sql`select 1`.execute(tight).then(
        () => true,
        (error: unknown) => (attempt < 5 ? false : Promise.reject(error)),
      );
      if (opened) break;
    }
    await lockTaken;
    const listed = listAdminOrders(tight, {}, 1, 10);
    const outcome = listed.then(
      () => 'answered',
      (error: unknown) => String(error),
    );
    // The count queues for the connection, then gives up after connectMs while the page still waits.
    await until(() => pool.waitingCount === 1);
    await until(() => pool.waitingCount === 0);
    // Past the turn of the event loop in which Node reports a rejection nobody handles.
    await new Promise((done) => setImmediate(done));
    release();
    expect(await outcome).toMatch(/timeout exceeded when trying to connect/);
    expect(unhandled).toEqual([]);
  } finally {
    release();
    await holder;
    process.off('unhandledRejection', onUnhandled);
    await tight.destroy();
  }
});
