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
