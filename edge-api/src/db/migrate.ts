import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as createSchema from '../../../migrations/2026-11-21-2330_create_schema.ts';
import * as addRefreshTokenRevokedAt from '../../../migrations/2026-11-21-2340_add_refresh_token_revoked_at.ts';

// Listed by hand so the Workers bundle needs no file system; add each new migration here.
const migrations: Record<string, Migration> = {
  '2026-11-21-2330_create_schema': createSchema,
  '2026-11-21-2340_add_refresh_token_revoked_at': addRefreshTokenRevokedAt,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any database shape
export async function migrateToLatest(db: Kysely<any>, options: { schema?: string } = {}): Promise<void> {
  // A database holding several schemas (tests, benchmarks) needs the migration tables named in the
  // right one: without it Kysely finds another schema's lock table and skips creating its own.
  const migrator = new Migrator({ db, provider, migrationTableSchema: options.schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
