import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backupLines, type BackupFile, type Queryable } from './backup.ts';
import { restoreLines, type RestoreResult } from './restore.ts';

/**
 * Shops that started before the embedded Postgres server kept their database in DATA_DIR/pglite (PGlite,
 * Postgres 17 compiled to WASM). The server (Postgres 18) cannot open those files and the embedded
 * binaries have no pg_upgrade or pg_dump, so PGlite itself reads them, once, here: the only use of
 * PGlite left (docs/decisions/012-embedded-postgres-server.md).
 */
export const isPgliteDir = (dir: string): boolean => existsSync(join(dir, 'PG_VERSION'));

export async function openPglite(dir: string): Promise<Queryable & { close(): Promise<void> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
  return { query: (text, params) => pglite.query(text, params), close: () => pglite.close() };
}

/** Copies every row of the PGlite database in `dir` into `db`, which must be empty (see restoreLines). */
export async function importPglite(
  dir: string,
  db: Parameters<typeof restoreLines>[1],
  options: { files?: AsyncIterable<BackupFile>; onFile?: (file: BackupFile) => Promise<void> } = {},
): Promise<RestoreResult> {
  const source = await openPglite(dir);
  try {
    return await restoreLines(backupLines(source, { files: options.onFile ? options.files : undefined }), db, { onFile: options.onFile });
  } finally {
    await source.close();
  }
}
