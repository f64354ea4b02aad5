import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

const INT8 = 20;

/** int8 (versions, counts) as a JS number: they stay far below 2^53. Every pool of the app parses this way. */
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser;

export interface PoolOptions {
  /** A Postgres connection string (`postgres://…`; a unix socket directory goes in `?host=`). */
  databaseUrl: string;
  /** Extra search_path entries first (tests and benchmarks isolate themselves in a schema). */
  searchPath?: string;
  maxConnections?: number;
}

/** The one pg pool factory of every mode: the embedded server, DATABASE_URL, tests, benchmarks and tools. */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    types: { getTypeParser },
  });
  // An idle connection the server closed (a restart, a shutdown) leaves the pool; the next query reports
  // any lasting problem. Unhandled, this event would end the process.
  pool.on('error', () => undefined);
  return pool;
}

export function openDatabase(options: PoolOptions): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(options) }) });
}
