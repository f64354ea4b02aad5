import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './schema.ts';
import { PGliteDialect } from './pglite-dialect.ts';

const INT8 = 20;

export interface DatabaseOptions {
  /** A Postgres connection string; without one the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; omitted, it lives in memory (tests). */
  dataDir?: string;
  /** Extra search_path entries first (tests isolate themselves in a schema). */
  searchPath?: string;
  maxConnections?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Kysely<Database>> {
  if (options.databaseUrl) {
    const pg = await import('pg');
    const pool = new pg.default.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 ? (value: string) => Number(value) : pg.default.types.getTypeParser(oid, format ?? 'text')) as typeof pg.default.types.getTypeParser,
      },
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pglite = await PGlite.create(options.dataDir, {
    extensions: { pg_trgm },
    parsers: { [INT8]: (value: string) => Number(value) },
  });
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}
