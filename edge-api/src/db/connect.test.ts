import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from './connect.ts';

// Decision 073: a pool that served a burst gives its Postgres backends back once it is quiet, the stall
// watch's probe connection included.

const testUrl = () => process.env.TEST_DATABASE_URL!;
const admin = openDatabase({ databaseUrl: testUrl(), maxConnections: 1 });
afterAll(() => admin.destroy());

/** The same server, with connections that name themselves in pg_stat_activity. */
function namedUrl(name: string): string {
  const url = new URL(testUrl());
  url.searchParams.set('application_name', name);
  return url.toString();
}

const backendsNamed = async (name: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${name}`.execute(admin)).rows[0]!.n;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

it('closes the connections of a burst, and the stall probe, once they have been unused for the idle time', async () => {
  const name = `idle-${crypto.randomUUID().slice(0, 8)}`;
  const db = openDatabase({
    databaseUrl: namedUrl(name),
    maxConnections: 4,
    idleMs: 400,
    // Statements outstanding 50 ms make the watch probe the database on a connection of its own.
    timeouts: { connectMs: 5_000, statementMs: 30_000, stall: { checkAfterMs: 50, probeMs: 5_000 } },
  });
  try {
    await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.6)`.execute(db)));
    // The four connections of the burst and the probe are still there right after it.
    expect(await backendsNamed(name)).toBe(5);
    let left = 5;
    for (let waited = 0; waited < 5_000 && left > 0; waited += 100) {
      await sleep(100);
      left = await backendsNamed(name);
    }
    expect(left).toBe(0);
    // The pool still answers afterwards, on a new connection.
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1);
  } finally {
    await db.destroy();
  }
});
