import type { AppConfig } from './deps.ts';
import type { Env } from './env.ts';

/** The per-user write limits of the Node entry; a stand-in serves whole test suites and benchmarks from a few accounts, so none there. */
export function writeLimitsOf(env: Env, standIn: boolean): NonNullable<AppConfig['rateLimits']> {
  return standIn
    ? {
        ordersPer10Min: Number.POSITIVE_INFINITY,
        uploadsPer10Min: Number.POSITIVE_INFINITY,
        revealsPer10Min: Number.POSITIVE_INFINITY,
        credentialChecksPer10Min: Number.POSITIVE_INFINITY,
        deliveredLinesPer10Min: Number.POSITIVE_INFINITY,
        staffRevealsPer10Min: Number.POSITIVE_INFINITY,
      }
    : {
        ordersPer10Min: env.ORDERS_PER_10_MIN,
        uploadsPer10Min: env.UPLOADS_PER_10_MIN,
        revealsPer10Min: env.REVEALS_PER_10_MIN,
        credentialChecksPer10Min: env.CREDENTIAL_CHECKS_PER_10_MIN,
        deliveredLinesPer10Min: env.DELIVERED_LINES_PER_10_MIN,
        staffRevealsPer10Min: env.STAFF_REVEALS_PER_10_MIN,
      };
}
