import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';

/**
 * Vitest's global setup: one embedded Postgres server for the whole run, each test file in a schema of its
 * own on it (test-database.ts). With TEST_DATABASE_URL set, the tests use that Postgres instead.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'storefront-test-db-'));
  const server = await startEmbeddedPostgres(dataDir);
  // Test workers start after this and inherit the environment.
  process.env.TEST_DATABASE_URL = server.databaseUrl;
  return async () => {
    delete process.env.TEST_DATABASE_URL;
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
