import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or, when TEST_DATABASE_URL is set
 * (CI), a schema of its own on that real Postgres, dropped afterwards.
 */
export async function openTestDatabase(): Promise<{ db: Kysely<Database>; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = await openDatabase({});
    await migrateToLatest(db);
    return { db, close: () => db.destroy() };
  }
  const schema = `test_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = await openDatabase({ databaseUrl: url, maxConnections: 1 });
  try {
    await sql`create extension if not exists pg_trgm`.execute(admin);
  } catch {
    // Another test file created it at the same moment.
  }
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  const db = await openDatabase({ databaseUrl: url, searchPath: `${schema},public`, maxConnections: 10 });
  await migrateToLatest(db, { schema });
  return {
    db,
    close: async () => {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    },
  };
}
