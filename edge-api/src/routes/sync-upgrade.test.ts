import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncResponse } from '../contract/sync.ts';
import { migrateTo, migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import { inProcessHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { openTestDatabase } from '../testing/test-database.ts';

// A device keeps syncing across the upgrade from the sync_counter row to the sequence (migration
// 2026-11-29-0350, decision 189): the cursor an old pull handed out is still a cursor afterwards.

/** The last migration of the counter: the schema of a shop from before decision 189. */
const BEFORE_SEQUENCE = '2026-11-29-0200_auth_sign_in_codes';

let api: ApiHarness;
let staff: TestUser;
const old = { a: crypto.randomUUID(), b: crypto.randomUUID(), c: crypto.randomUUID() };
/** The cursor a pull of the old code handed out after A and B: the counter's value. */
let oldCursor = 0;
let counterAtUpgrade = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
async function oldWrite(db: Kysely<any>, id: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // As the old nextVersion did: the counter row, locked until commit.
    const { rows } = await sql<{ version: string }>`update sync_counter set version = version + 1 where id = 1 returning version`.execute(trx);
    const version = Number(rows[0]!.version);
    await sql`insert into orders (id, product_id, title, price, user_id, user_email, version)
      values (${id}, ${id}, 'Before the upgrade', '1', ${crypto.randomUUID()}, 'old@example.test', ${version})`.execute(trx);
    return version;
  });
}

beforeAll(async () => {
  const database = await openTestDatabase({ migrate: false });
  await database.underLock(() => migrateTo(database.db, BEFORE_SEQUENCE, { schema: database.schema }));
  // Versions well above the transaction ids of a young database, as a shop that has run a while has.
  await sql`update sync_counter set version = 50000`.execute(database.db);
  await oldWrite(database.db, old.a);
  await oldWrite(database.db, old.b);
  // The old pull's cursor: the counter, read in its snapshot.
  oldCursor = Number((await sql<{ version: string }>`select version from sync_counter where id = 1`.execute(database.db)).rows[0]!.version);
  counterAtUpgrade = await oldWrite(database.db, old.c);
  await database.underLock(() => migrateToLatest(database.db, { schema: database.schema }));
  api = await inProcessHarness({}, database);
  staff = await api.createUser('admin', 'staff');
}, 120_000);

afterAll(async () => {
  await api?.close();
});

const pullAll = async (cursor: number) => {
  const orders: string[] = [];
  for (;;) {
    const response = await api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user: staff });
    expect(response.status).toBe(200);
    expect(response.body.reset).toBe(false);
    orders.push(...(response.body.changes.orders ?? []).map((order) => order.id));
    cursor = response.body.cursor;
    if (!response.body.hasMore) return { orders, cursor };
  }
};

describe('the upgrade from the sync counter to the sequence', () => {
  it('syncs a device from a cursor taken before the migration: the changes after it, each once, and the new ones', async () => {
    expect(oldCursor).toBe(50_002);
    const added = crypto.randomUUID();
    const version = await api.db.transaction().execute(async (trx) => {
      const taken = await nextVersion(trx);
      await trx
        .insertInto('orders')
        .values({ id: added, product_id: added, title: 'After the upgrade', price: '1', user_id: staff.id, user_email: staff.email, version: taken })
        .execute();
      return taken;
    });
    // The sequence goes on from the counter: a new version is above every old one.
    expect(version).toBeGreaterThan(counterAtUpgrade);

    const fromOld = await pullAll(oldCursor);
    expect(fromOld.orders.sort()).toEqual([old.c, added].sort());
    expect(fromOld.cursor).toBeGreaterThanOrEqual(version);
    expect((await pullAll(fromOld.cursor)).orders).toEqual([]);

    // A device that never synced gets everything, old and new.
    expect((await pullAll(0)).orders.sort()).toEqual([old.a, old.b, old.c, added].sort());
  });

  it('refuses the old code: the counter row is gone, so a process still running it cannot write behind a cursor', async () => {
    const refused = await sql`update sync_counter set version = version + 1 where id = 1`.execute(api.db as Kysely<Database>).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/sync_counter/);
  });
});
