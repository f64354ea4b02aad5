import type { AppConfig } from './deps.ts';
import type { Env } from './env.ts';
import { rateLimitsOf, unlimited } from './lib/rate-limit-settings.ts';

/** The per-user write limits of the Node entry; a stand-in serves whole test suites and benchmarks from a few accounts, so none there. */
export function writeLimitsOf(env: Env, standIn: boolean): NonNullable<AppConfig['rateLimits']> {
  return standIn ? unlimited : rateLimitsOf(env);
}
