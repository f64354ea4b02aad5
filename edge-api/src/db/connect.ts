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
  /**
   * The serving pool's limits (decision 042): how long to wait for a connection (from the pool or a new
   * one), and how long one statement may take (the server cancels it; pg gives up on the socket a little
   * later, for a database that stalls without answering at all). Absent: no limit (migrations, backups).
   */
  timeouts?: { connectMs: number; statementMs: number };
}

/**
 * A client that never takes the process down: pg emits 'error' on a client whose connection ends while
 * no query runs on it (checked out between two statements of a transaction, or waiting on a connect
 * that timed out), and an 'error' event nobody listens to ends Node. The query in flight, if any, still
 * gets the error, and the pool drops the client when it comes back unusable.
 */
class SturdyClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** The one pg pool factory of every mode: the embedded server, DATABASE_URL, tests, benchmarks and tools. */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    types: { getTypeParser },
    Client: SturdyClient,
    ...(options.timeouts && {
      connectionTimeoutMillis: options.timeouts.connectMs,
      statement_timeout: options.timeouts.statementMs,
      query_timeout: options.timeouts.statementMs + 500,
      keepAlive: true,
    }),
  });
  // An idle connection the server closed (a restart, a shutdown) leaves the pool; the next query reports
  // any lasting problem. Unhandled, this event would end the process.
  pool.on('error', () => undefined);
  return pool;
}

export function openDatabase(options: PoolOptions): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(options) }) });
}
