import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { importPglite, isPgliteDir } from './backup/pglite-import.ts';
import { RestoreError } from './backup/restore.ts';
import { isDatabaseUnavailable } from './db/faults.ts';
import type { Deps } from './deps.ts';
import type { Logger } from './lib/logger.ts';

/** How long to wait between attempts while the database is not reachable at start. */
const START_RETRY_MS = 2_000;

/**
 * A database that is not up yet (a server booting beside the app, a network not ready) is waited for,
 * with a line each attempt saying what is wrong, instead of exiting at once. A refused password or a
 * missing database is not waited for.
 */
export async function waitForDatabase(db: Deps['db'], databaseUrl: string, logger: Logger): Promise<void> {
  const where = describeDatabase(databaseUrl);
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(db);
      if (attempt > 1) logger.info(`The database at ${where} answers now; starting.`);
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(`Waiting for the database at ${where}: ${reason}. Trying again in ${START_RETRY_MS / 1000} s (attempt ${attempt}).`);
      await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
    }
  }
}

/** host:port/database of a connection string, without the user or password. */
function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const host = url.searchParams.get('host') ?? url.host;
    return `${host}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * A DATA_DIR from before the embedded server keeps its database in DATA_DIR/pglite: on the first start
 * its rows move into the server (all or nothing), and the old files are kept aside, renamed.
 */
export async function moveFromPglite(dataDir: string, db: Parameters<typeof importPglite>[1], logger: Logger): Promise<void> {
  const pgliteDir = join(dataDir, 'pglite');
  if (!isPgliteDir(pgliteDir)) return;
  const command = `DATA_DIR=<an empty directory> npm run restore -- ${pgliteDir}`;
  try {
    const { rows } = await importPglite(pgliteDir, db);
    const kept = join(dataDir, `pglite-moved-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await rename(pgliteDir, kept);
    const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
    logger.info('Moved the database from PGlite into the embedded Postgres server', { rows: total, oldFilesKeptIn: kept });
  } catch (error) {
    const why = error instanceof RestoreError ? error.message : String(error);
    throw new Error(
      `${pgliteDir} holds this shop's database from an earlier version (PGlite), and it could not be moved into the embedded Postgres server: ${why}\n` +
        `Nothing was changed in ${pgliteDir}. To move it into a fresh data directory (keys and images included), run:\n  ${command}\n` +
        `then start with that DATA_DIR. If its data was already moved, rename ${pgliteDir} out of the way.`,
      { cause: error },
    );
  }
}
