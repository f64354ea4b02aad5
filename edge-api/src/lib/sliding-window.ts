import { sql, type QueryExecutorProvider } from 'kysely';
import type { RateLimiter } from './rate-limit.ts';

/** The app's database (a Kysely instance): each hit runs in a transaction of its own. */
type TransactionalDb = { transaction(): { execute<T>(callback: (trx: QueryExecutorProvider) => Promise<T>): Promise<T> } };

const retryAfter = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/**
 * At most `limit` per key in ANY `windowMs` (a sliding log, decision 246), not per clock window: a fixed
 * window let a moderator read 43 stock passwords in 25 seconds across its edge (issue 30). Each hit
 * allowed is one `rate_limits` row (`name:key:<uuid>`, `hits` = its cost, `window_start` = when), living
 * one window; a transaction-scoped advisory lock on `name:key` makes count-then-write atomic, so parallel
 * requests never overdraw. A refusal writes nothing. Meant for small budgets (at most `limit` rows a key).
 */
export function createSlidingWindowLimiter(options: { db: TransactionalDb; name: string; limit: number; windowMs: number; clock: () => Date }): RateLimiter {
  const { db, limit, windowMs, clock } = options;
  if (limit === Number.POSITIVE_INFINITY) return { hit: async () => ({ allowed: true }) };
  return {
    hit: (key, cost = 1) =>
      db.transaction().execute(async (trx) => {
        const now = clock().getTime();
        const prefix = `${options.name}:${key}:`;
        await sql`select pg_advisory_xact_lock(hashtextextended(${prefix}, 0))`.execute(trx);
        await sql`delete from rate_limits where starts_with(key, ${prefix}) and window_start <= ${now - windowMs}`.execute(trx);
        const { rows } = await sql<{ at: string; hits: number }>`
          select window_start as at, hits from rate_limits where starts_with(key, ${prefix}) order by window_start`.execute(trx);
        const spent = rows.reduce((sum, row) => sum + row.hits, 0);
        if (spent + cost <= limit) {
          await sql`
            insert into rate_limits (key, window_start, hits, locked_until, expires_at)
            values (${prefix + crypto.randomUUID()}, ${now}, ${cost}, 0, ${now + windowMs})`.execute(trx);
          return { allowed: true, used: spent + cost };
        }
        // The earliest moment enough of the oldest hits have aged out for this one to fit.
        let freed = 0;
        let until = now + windowMs;
        for (const row of rows) {
          freed += row.hits;
          if (spent - freed + cost <= limit) {
            until = Number(row.at) + windowMs;
            break;
          }
        }
        return { allowed: false, retryAfterSeconds: retryAfter(until, now), used: spent + cost };
      }),
  };
}
