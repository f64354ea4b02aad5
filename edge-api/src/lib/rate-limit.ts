import { sql, type QueryExecutorProvider } from 'kysely';

/** The app's database (a Kysely instance, or a transaction): the limits only run raw statements on it. */
type Db = QueryExecutorProvider;

/** `used`: how much of the window's budget is spent with this hit (fixed windows only). */
export type RateLimitResult = { allowed: true; used?: number } | { allowed: false; retryAfterSeconds: number; used?: number };

export interface RateLimiter {
  /** Counts one request from `key` (or `cost` of them: one request that asks many questions) and says whether it is within the limit. */
  hit(key: string, cost?: number): Promise<RateLimitResult>;
}

export interface FailureBackoff {
  /** Whether `key` may try now; when not, how long until it may. */
  check(key: string): Promise<RateLimitResult>;
  /** Counts a failure of `key`: past `freeFailures`, each one doubles the wait, up to `maxDelayMs`. */
  fail(key: string): Promise<void>;
  /** A success forgets the failures of `key`. */
  succeed(key: string): Promise<void>;
}

/** Rows past their expiry are deleted once every this many writes of a process or isolate. */
const SWEEP_EVERY = 500;

/**
 * The counts live in the database's `rate_limits` table (decision 049), so every process and Workers
 * isolate on one database shares them. Each limiter names its keys (`name:key`).
 */
function sharedStore(db: Db, name: string) {
  let writes = 0;
  return {
    key: (key: string) => `${name}:${key}`,
    /** Now and then, deletes the rows no limit reads any more; it costs one indexed delete. */
    async sweep(now: number) {
      writes += 1;
      if (writes % SWEEP_EVERY !== 0) return;
      await sql`delete from rate_limits where expires_at < ${now}`.execute(db);
    },
  };
}

const retryAfter = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/**
 * At most `limit` requests per key in each fixed window, aligned to the clock. One atomic upsert per hit:
 * the row's count restarts at 1 when its window is not the current one. `Infinity`: no limit, no query.
 */
export function createFixedWindowLimiter(options: { db: Db; name: string; limit: number; windowMs: number; clock: () => Date }): RateLimiter {
  const { db, limit, windowMs, clock } = options;
  // A limit switched off (a stand-in serving a whole test suite from one address) costs no query.
  if (limit === Number.POSITIVE_INFINITY) return { hit: async () => ({ allowed: true }) };
  const store = sharedStore(db, options.name);
  return {
    async hit(key, cost = 1) {
      const now = clock().getTime();
      const start = now - (now % windowMs);
      const end = start + windowMs;
      const { rows } = await sql<{ hits: number }>`
        insert into rate_limits as r (key, window_start, hits, locked_until, expires_at)
        values (${store.key(key)}, ${start}, ${cost}, 0, ${end})
        on conflict (key) do update set
          hits = case when r.window_start = excluded.window_start then r.hits + excluded.hits else excluded.hits end,
          window_start = excluded.window_start,
          expires_at = excluded.expires_at
        returning hits`.execute(db);
      await store.sweep(now);
      const used = rows[0]?.hits ?? cost;
      if (used <= limit) return { allowed: true, used };
      return { allowed: false, retryAfterSeconds: retryAfter(end, now), used };
    },
  };
}

/**
 * Backoff per key (an account's email): `freeFailures` failures in a row cost nothing, then the key
 * waits baseDelayMs, 2 × baseDelayMs, … up to maxDelayMs before its next try, whoever tries. Failures
 * older than `forgetAfterMs` are forgotten. `window_start` holds the last failure, `hits` the failures.
 */
export function createFailureBackoff(options: {
  db: Db;
  name: string;
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
  clock: () => Date;
}): FailureBackoff {
  const { db, freeFailures, baseDelayMs, maxDelayMs, forgetAfterMs, clock } = options;
  const store = sharedStore(db, options.name);
  return {
    async check(key) {
      const now = clock().getTime();
      const row = await sql<{ window_start: string; locked_until: string }>`
        select window_start, locked_until from rate_limits where key = ${store.key(key)}`
        .execute(db)
        .then(({ rows }) => rows[0]);
      if (!row || now - Number(row.window_start) > forgetAfterMs || Number(row.locked_until) <= now) return { allowed: true };
      return { allowed: false, retryAfterSeconds: retryAfter(Number(row.locked_until), now) };
    },
    async fail(key) {
      const now = clock().getTime();
      const failures = sql`(case when r.window_start < ${now - forgetAfterMs} then 1 else r.hits + 1 end)`;
      const lockFor = (count: unknown) =>
        sql`(case when ${count} >= ${freeFailures}
              then ${now}::bigint + least(${maxDelayMs}::bigint, (${baseDelayMs}::bigint * power(2, least(${count} - ${freeFailures}, 40)))::bigint)
              else 0 end)`;
      await sql`
        insert into rate_limits as r (key, window_start, hits, locked_until, expires_at)
        values (${store.key(key)}, ${now}, 1, ${lockFor(sql`1`)}, ${now + forgetAfterMs})
        on conflict (key) do update set
          hits = ${failures},
          locked_until = ${lockFor(failures)},
          window_start = excluded.window_start,
          expires_at = excluded.expires_at`.execute(db);
      await store.sweep(now);
    },
    async succeed(key) {
      await sql`delete from rate_limits where key = ${store.key(key)}`.execute(db);
    },
  };
}
