import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { unref } from '../lib/unref.ts';

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
  /** How long a connection may sit unused before it is closed (POOL_IDLE_MS when absent). */
  idleMs?: number;
  /**
   * The serving pool's limits (decision 042): how long to wait for a connection (from the pool or a new
   * one), and how long one statement may take (the server cancels it; pg gives up on the socket a little
   * later, for a database that stalls without answering at all). Absent: no limit (migrations, backups).
   */
  timeouts?: { connectMs: number; statementMs: number; stall?: StallTimes };
  /**
   * Checks each new connection before it serves (the embedded server's identity, decision 194); a rejection
   * closes the connection and fails the statement that asked for it.
   */
  verify?: (client: pg.PoolClient) => Promise<void>;
}

/**
 * An unused connection is closed after this long (decision 073), as is the stall watch's probe: each is a
 * Postgres backend of about 15 MB resident, so a pool that served a burst gives them back once the shop is
 * quiet. The next request after that opens one again (a few milliseconds on a local server).
 */
export const POOL_IDLE_MS = 10_000;

/** When the serving pool asks whether the database still answers, and how long the probe may take. */
export interface StallTimes {
  /** A statement outstanding this long makes the pool probe the database on a connection of its own. */
  checkAfterMs: number;
  /** How long the probe (a new connection and `select 1`) may take before the database counts as stalled. */
  probeMs: number;
}

/**
 * Decision 042, amended: a stalled database (connections open, nothing answers) answers 503 within 2 s
 * however long a statement may legitimately run. 0.5 s + one tick (0.25 s) + the probe (1 s) = 1.75 s.
 */
export const DEFAULT_STALL: StallTimes = { checkAfterMs: 500, probeMs: 1_000 };
const STALL_TICK_MS = 250;

/** What a statement gets while the database is known not to answer: the API answers 503 (db/faults.ts). */
export const NOT_ANSWERING = 'The database is not answering';

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

type QueryArgs = Parameters<pg.Client['query']>;

/**
 * The serving pool's stall watch. A statement can be slow for good reasons (a search walk, an export
 * batch, a count), so its length alone does not say the database is gone; only the database not
 * answering a probe does. While statements are outstanding past `checkAfterMs`, the watch runs
 * `select 1` on a connection of its own (kept between checks) within `probeMs`. If that gets no answer, those statements'
 * connections are cut (their requests answer 503 at once) and every statement fails at once until a
 * probe is answered again (checked every 250 ms). An error answered by Postgres (too many connections,
 * say) proves it is there: nothing is cut.
 */
class StallWatch {
  private readonly outstanding = new Map<object, { client: pg.Client; since: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private probing = false;
  stalled = false;

  private readonly probeConfig: pg.ClientConfig;
  private readonly times: StallTimes;
  private readonly idleMs: number;
  private probeIdle: ReturnType<typeof setTimeout> | undefined;

  constructor(probeConfig: pg.ClientConfig, times: StallTimes, idleMs: number) {
    this.probeConfig = probeConfig;
    this.times = times;
    this.idleMs = idleMs;
  }

  track(client: pg.Client, result: Promise<unknown>): void {
    const token = {};
    this.outstanding.set(token, { client, since: Date.now() });
    this.timer ??= unref(setInterval(() => void this.check(), STALL_TICK_MS));
    clearTimeout(this.probeIdle);
    this.probeIdle = undefined;
    const done = () => {
      this.outstanding.delete(token);
      this.idle();
    };
    result.then(done, done);
  }

  /** The pool ends: no more checks, and the probe's connection closes. */
  stop(): void {
    this.pause();
    clearTimeout(this.probeIdle);
    this.closeProbe();
  }

  private closeProbe() {
    const probe = this.probe;
    this.probe = null;
    void probe?.end().catch(() => undefined);
  }

  private pause() {
    clearInterval(this.timer);
    this.timer = undefined;
    // Quiet now: the probe's connection goes as the pool's unused ones do, unless statements come back first.
    if (this.probe && !this.probeIdle) {
      this.probeIdle = unref(
        setTimeout(() => {
          this.probeIdle = undefined;
          if (!this.timer && !this.probing) this.closeProbe();
        }, this.idleMs),
      );
    }
  }

  private idle() {
    if (this.outstanding.size === 0 && !this.stalled && !this.probing) this.pause();
  }

  private async check() {
    if (this.probing) return;
    const now = Date.now();
    const late = [...this.outstanding.values()].filter((entry) => now - entry.since >= this.times.checkAfterMs);
    if (late.length === 0 && !this.stalled) return this.idle();
    this.probing = true;
    try {
      this.stalled = !(await this.answers());
    } finally {
      this.probing = false;
    }
    if (this.stalled) {
      for (const { client } of late) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }
    this.idle();
  }

  /**
   * Whether the database answers at all (a refusal with a SQLSTATE counts) within probeMs. The probe
   * keeps its connection between checks: `select 1` on an open connection is quick even on a loaded
   * machine, where opening a new one (a new Postgres backend) can take longer than the probe may.
   */
  private async answers(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Query read timeout')), this.times.probeMs);
    });
    try {
      await Promise.race([deadline, this.askProbe()]);
      return true;
    } catch (error) {
      this.dropProbe();
      const code = (error as { code?: unknown }).code;
      return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
    } finally {
      clearTimeout(timer);
    }
  }

  private probe: pg.Client | null = null;

  private async askProbe(): Promise<void> {
    if (!this.probe) {
      const client = new SturdyClient({ ...this.probeConfig, connectionTimeoutMillis: this.times.probeMs });
      this.probe = client;
      await client.connect();
    }
    await this.probe.query('select 1');
  }

  private dropProbe() {
    const probe = this.probe;
    this.probe = null;
    (probe as unknown as { connection?: { stream?: { destroy(): void } } } | null)?.connection?.stream?.destroy();
  }
}

/** The serving pool's client class: each statement is watched, and refused at once while stalled. */
function watchedClient(watch: StallWatch): typeof pg.Client {
  class WatchedClient extends SturdyClient {}
  const query = pg.Client.prototype.query;
  WatchedClient.prototype.query = function (this: pg.Client, ...args: QueryArgs) {
    const promised = args[0] !== null && typeof args[0] === 'object' && 'submit' in args[0] ? false : typeof args.at(-1) !== 'function';
    if (promised && watch.stalled) return Promise.reject(new Error(NOT_ANSWERING));
    const result = (query as (...a: QueryArgs) => unknown).apply(this, args);
    if (promised && result instanceof Promise) watch.track(this, result);
    return result;
  } as typeof query;
  return WatchedClient;
}

/** The one pg pool factory of every mode: the embedded server, DATABASE_URL, tests, benchmarks and tools. */
export function createPool(options: PoolOptions): pg.Pool {
  const watch = options.timeouts
    ? new StallWatch({ connectionString: options.databaseUrl, keepAlive: true }, options.timeouts.stall ?? DEFAULT_STALL, options.idleMs ?? POOL_IDLE_MS)
    : undefined;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: options.idleMs ?? POOL_IDLE_MS,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    types: { getTypeParser },
    Client: watch ? watchedClient(watch) : SturdyClient,
    ...(options.verify && { verify: (client: pg.PoolClient, done: (error?: Error) => void) => void options.verify!(client).then(() => done(), done) }),
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
  if (watch) {
    const end = pool.end.bind(pool) as () => Promise<void>;
    pool.end = (() => {
      watch.stop();
      return end();
    }) as typeof pool.end;
  }
  return pool;
}

export function openDatabase(options: PoolOptions): Kysely<Database> {
  return databaseOn(createPool(options));
}

/** The app's database over a pool made here (the Node entry keeps the pool, for its metrics). */
export function databaseOn(pool: pg.Pool): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
