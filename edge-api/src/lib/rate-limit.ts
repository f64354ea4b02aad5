export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request from `key` and says whether it is within the limit. */
  hit(key: string): RateLimitResult;
}

/**
 * At most `limit` requests per key in each fixed window. Windows are aligned to the clock, so when one
 * ends every count is stale at once and the map is simply cleared: memory stays bounded by the number of
 * keys seen in one window. In memory, per process: enough for the one-process embedded mode.
 */
export function createFixedWindowLimiter(options: { limit: number; windowMs: number; clock: () => Date }): RateLimiter {
  const { limit, windowMs, clock } = options;
  const counts = new Map<string, number>();
  let windowStart = Number.NEGATIVE_INFINITY;
  return {
    hit(key) {
      const now = clock().getTime();
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        counts.clear();
        windowStart = start;
      }
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count <= limit) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
    },
  };
}

export interface FailureBackoff {
  /** Whether `key` may try now; when not, how long until it may. */
  check(key: string): RateLimitResult;
  /** Counts a failure of `key`: past `freeFailures`, each one doubles the wait, up to `maxDelayMs`. */
  fail(key: string): void;
  /** A success forgets the failures of `key`. */
  succeed(key: string): void;
}

/**
 * Backoff per key (an account's email): `freeFailures` failures in a row cost nothing, then the key
 * waits baseDelayMs, 2 × baseDelayMs, … up to maxDelayMs before its next try, whoever tries. Failures
 * older than `forgetAfterMs` are forgotten. In memory, per process; bounded by clearing past `maxKeys`.
 */
export function createFailureBackoff(options: {
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
  clock: () => Date;
  maxKeys?: number;
}): FailureBackoff {
  const { freeFailures, baseDelayMs, maxDelayMs, forgetAfterMs, clock } = options;
  const maxKeys = options.maxKeys ?? 100_000;
  const entries = new Map<string, { failures: number; lastFailure: number; lockedUntil: number }>();
  const current = (key: string, now: number) => {
    const entry = entries.get(key);
    if (entry && now - entry.lastFailure > forgetAfterMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    check(key) {
      const now = clock().getTime();
      const entry = current(key, now);
      if (!entry || entry.lockedUntil <= now) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((entry.lockedUntil - now) / 1000)) };
    },
    fail(key) {
      const now = clock().getTime();
      if (entries.size >= maxKeys) entries.clear();
      const entry = current(key, now) ?? { failures: 0, lastFailure: now, lockedUntil: 0 };
      entry.failures += 1;
      entry.lastFailure = now;
      if (entry.failures >= freeFailures) entry.lockedUntil = now + Math.min(maxDelayMs, baseDelayMs * 2 ** (entry.failures - freeFailures));
      entries.set(key, entry);
    },
    succeed(key) {
      entries.delete(key);
    },
  };
}
