import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncResponse } from '../contract/sync.ts';
import { openDatabase } from '../db/connect.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';
import { nextVersion, PULL_WAIT_MS } from '../db/versions.ts';
import { createApiHarness, inProcessHarness, remoteApi, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

// Issue 29 item 2 (decision 189): with versions from a sequence and no lock held to commit, 32 writers at
// once and a device pulling in a loop, every change reaches the device exactly once: none skipped, none
// doubled, none of a rolled-back transaction. In-process on Node and, with TEST_API_URL, through the
// worker under workerd (vitest.workers.config.ts); the writers write as the app writes (a transaction,
// nextVersion, the row), straight into the entry's database, so that 32 of them are open at once.

const WRITERS = 32;
/**
 * 10,000 writes on Node. Under workerd the same 10,000: the writes do not go through the worker (only
 * the device's pulls do), so the count costs the same there.
 */
const WRITES = 10_000;
/** Every seventh write keeps its transaction open a while after taking its version: commits then come out of version order. */
const HELD_EVERY = 7;
const HELD_MAX_MS = 15;
/** Every fiftieth write is rolled back after writing its row: the device must never see it. */
const ROLLED_BACK_EVERY = 50;

let api: ApiHarness;
let device: TestUser;
/** The writers' own pool: 32 connections, one per writer. */
let writersDb: Kysely<Database>;
/** A Postgres of this file's own when the shared one allows too few connections for 32 writers beside the other test files. */
let ownServer: { server: EmbeddedPostgres; dir: string } | undefined;

async function connectionsAllowed(url: string): Promise<number> {
  const probe = openDatabase({ databaseUrl: url, maxConnections: 1 });
  try {
    const { rows } = await sql<{ allowed: number }>`select current_setting('max_connections')::int as allowed`.execute(probe);
    return rows[0]!.allowed;
  } finally {
    await probe.destroy();
  }
}

beforeAll(async () => {
  if (remoteApi) {
    api = await createApiHarness();
    writersDb = openDatabase({ databaseUrl: remoteApi.databaseUrl, maxConnections: WRITERS });
  } else {
    let url = process.env.TEST_DATABASE_URL!;
    // The embedded test server allows 40 connections, shared by two test files at once: 32 writers need
    // a server of their own then (a real Postgres in CI allows 100).
    if ((await connectionsAllowed(url)) < 100) {
      const dir = await mkdtemp(join(tmpdir(), 'storefront-exactly-once-'));
      ownServer = { server: await startEmbeddedPostgres(dir), dir };
      url = ownServer.server.databaseUrl;
    }
    const schema = `exactly_once_${crypto.randomUUID().replaceAll('-', '')}`;
    const admin = openDatabase({ databaseUrl: url, maxConnections: 1 });
    await sql`create extension if not exists pg_trgm schema public`.execute(admin);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    const db = openDatabase({ databaseUrl: url, searchPath: `${schema},public`, maxConnections: 4 });
    await migrateToLatest(db, { schema });
    api = await inProcessHarness(
      {},
      {
        db,
        close: async () => {
          await db.destroy();
          await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
          await admin.destroy();
        },
      },
    );
    writersDb = openDatabase({ databaseUrl: url, searchPath: `${schema},public`, maxConnections: WRITERS });
  }
  device = await api.createUser('user', 'device');
}, 120_000);

afterAll(async () => {
  await writersDb?.destroy();
  await api?.close();
  if (ownServer) {
    await ownServer.server.stop();
    await rm(ownServer.dir, { recursive: true, force: true });
  }
}, 60_000);

const pull = async (cursor: number): Promise<SyncResponse> => {
  const response = await api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user: device });
  expect(response.status).toBe(200);
  return response.body;
};

/** The device's cursor once it has everything so far. */
async function cursorNow(): Promise<number> {
  let answer = await pull(0);
  while (answer.hasMore) answer = await pull(answer.cursor);
  return answer.cursor;
}

/** One order of the device's user, written as the app writes: its own transaction, its version from nextVersion. */
async function writeOrder(db: Kysely<Database>, id: string, options: { holdMs?: number; rollBack?: boolean } = {}) {
  await db
    .transaction()
    .execute(async (trx) => {
      const version = await nextVersion(trx);
      if (options.holdMs) await new Promise((resolve) => setTimeout(resolve, options.holdMs));
      await trx
        .insertInto('orders')
        .values({ id, product_id: id, title: 'Exactly once', price: '1', user_id: device.id, user_email: device.email, version })
        .execute();
      if (options.rollBack) throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
}
class RolledBack extends Error {}

/** The device's side: pulls from `cursor` in a loop until told to stop, then once more after every write ended. */
function deviceLoop(start: number, writersDone: () => boolean) {
  const seen = new Map<string, number>();
  let cursor = start;
  let pulls = 0;
  const record = (answer: SyncResponse) => {
    pulls += 1;
    expect(answer.reset).toBe(false);
    expect(answer.cursor).toBeGreaterThanOrEqual(cursor);
    for (const order of answer.changes.orders ?? []) seen.set(order.id, (seen.get(order.id) ?? 0) + 1);
    cursor = answer.cursor;
  };
  const run = (async () => {
    for (;;) {
      const finalRound = writersDone();
      let answer: SyncResponse;
      do record((answer = await pull(cursor)));
      while (answer.hasMore);
      if (finalRound) return;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    }
  })();
  return { seen, done: run, pulls: () => pulls, cursor: () => cursor };
}

describe('a device pulling while 32 writers write (decision 189)', () => {
  it(`gets each of ${WRITES.toLocaleString('en')} changes exactly once, and none rolled back`, async () => {
    const start = await cursorNow();
    const committed: string[] = [];
    const rolledBack: string[] = [];
    let next = 0;
    let writing = true;
    const devicePulls = deviceLoop(start, () => !writing);
    const writer = async () => {
      while (next < WRITES) {
        const n = next++;
        const id = crypto.randomUUID();
        const rollBack = n % ROLLED_BACK_EVERY === ROLLED_BACK_EVERY - 1;
        await writeOrder(writersDb, id, { holdMs: n % HELD_EVERY === 0 ? Math.random() * HELD_MAX_MS : 0, rollBack });
        (rollBack ? rolledBack : committed).push(id);
      }
    };
    try {
      await Promise.all(Array.from({ length: WRITERS }, writer));
    } finally {
      writing = false;
    }
    await devicePulls.done;

    expect(committed.length + rolledBack.length).toBe(WRITES);
    const doubled = [...devicePulls.seen].filter(([, times]) => times > 1);
    const skipped = committed.filter((id) => !devicePulls.seen.has(id));
    const wanted = new Set(committed);
    const unexpected = [...devicePulls.seen.keys()].filter((id) => !wanted.has(id));
    expect({ doubled: doubled.length, skipped: skipped.length, unexpected: unexpected.length }).toEqual({ doubled: 0, skipped: 0, unexpected: 0 });
    expect(devicePulls.seen.size).toBe(committed.length);
    // The device pulled while the writes went on, not only at the end.
    expect(devicePulls.pulls()).toBeGreaterThan(10);
    // Nothing more once everything is in.
    const after = await pull(devicePulls.cursor());
    expect(after.changes.orders ?? []).toEqual([]);
  }, 600_000);

  it('hands out no cursor at or above a version whose transaction is still open, and the change once it commits', async () => {
    const start = await cursorNow();
    const [held, later] = [crypto.randomUUID(), crypto.randomUUID()];
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let taken: (version: number) => void = () => {};
    const heldVersion = new Promise<number>((resolve) => (taken = resolve));
    const holding = writersDb.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      taken(version);
      await trx
        .insertInto('orders')
        .values({ id: held, product_id: held, title: 'Held', price: '1', user_id: device.id, user_email: device.email, version })
        .execute();
      await released;
    });
    try {
      const version = await heldVersion;
      // A later transaction commits first: its version is above the held one.
      await writeOrder(writersDb, later);
      const started = Date.now();
      const during = await pull(start);
      expect(Date.now() - started).toBeGreaterThanOrEqual(PULL_WAIT_MS - 50);
      expect(during.cursor).toBeLessThan(version);
      expect((during.changes.orders ?? []).map((order) => order.id)).toEqual([]);
      release();
      await holding;
      const once = await pull(during.cursor);
      expect((once.changes.orders ?? []).map((order) => order.id).sort()).toEqual([held, later].sort());
      expect(once.cursor).toBeGreaterThan(version);
      expect((await pull(once.cursor)).changes.orders ?? []).toEqual([]);
    } finally {
      release();
      await holding;
    }
  });
});
