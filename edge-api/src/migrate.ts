import { join, resolve } from 'node:path';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { parseEnv } from './env.ts';

// `npm run migrate`: brings DATABASE_URL (or the embedded database under DATA_DIR) to the latest schema.
const env = parseEnv(process.env);
const db = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: join(resolve(env.DATA_DIR), 'pglite') });
try {
  await migrateToLatest(db);
  console.log('Database is at the latest migration.');
} finally {
  await db.destroy();
}
