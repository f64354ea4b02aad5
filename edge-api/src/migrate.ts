import { openDatabase } from './db/connect.ts';
import { useEmbeddedPostgres } from './db/embedded-postgres.ts';
import { migrateToLatest } from './db/migrate.ts';
import { parseEnv } from './env.ts';

// `npm run migrate`: brings DATABASE_URL (or the embedded database under DATA_DIR, running or not) to the latest schema.
const env = parseEnv(process.env);
const server = env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, release: async () => {} } : await useEmbeddedPostgres(env.DATA_DIR);
const db = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 1 });
try {
  await migrateToLatest(db);
  console.log('Database is at the latest migration.');
} finally {
  await db.destroy();
  await server.release();
}
