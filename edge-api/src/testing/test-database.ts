import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

/** Any fixed number: the advisory lock that test files on one Postgres take in turn. */
const SCHEMA_CHANGE_LOCK = 7_214_093;

/**
 * A fresh, migrated database for one test file: a schema of its own on the Postgres of TEST_DATABASE_URL,
 * dropped afterwards. Vitest's global setup (global-setup.ts) starts one embedded Postgres server for the
 * whole run and sets TEST_DATABASE_URL to it, unless it points at another Postgres already (CI).
 *
 * Creating the extension, migrating and dropping a schema happen one file at a time under
 * an advisory lock: Kysely's migrator lists the tables of every schema, and a schema another file drops
 * during that listing fails it with "schema … does not exist".
 */
export async function openTestDatabase({ migrate = true }: { migrate?: boolean } = {}): Promise<{
  db: Kysely<Database>;
  schema: string;
  /** Runs `work` (a migration, a restore) while no other test file changes schemas. */
  underLock: (work: () => Promise<void>) => Promise<void>;
  close: () => Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test` (its global setup starts an embedded Postgres).');
  const schema = `test_${crypto.randomUUID().replaceAll('-', '')}`;
  // One connection, so the session-level lock is taken and released on the same one.
  const admin = openDatabase({ databaseUrl: url, maxConnections: 1 });
  const underLock = async (work: () => Promise<void>) => {
    await sql`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK})`.execute(admin);
    try {
      await work();
    } finally {
      await sql`select pg_advisory_unlock(${SCHEMA_CHANGE_LOCK})`.execute(admin);
    }
  };
  const db = openDatabase({ databaseUrl: url, searchPath: `${schema},public`, maxConnections: 10 });
  await underLock(async () => {
    await sql`create extension if not exists pg_trgm schema public`.execute(admin);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    if (migrate) await migrateToLatest(db, { schema });
  });
  return {
    db,
    schema,
    underLock,
    close: async () => {
      await db.destroy();
      await underLock(async () => {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      });
      await admin.destroy();
    },
  };
}
