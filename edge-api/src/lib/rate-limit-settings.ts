import * as z from 'zod';

/**
 * The per-user write limits, in one place (issue 34 item 4): each limit's default, the environment variable
 * that sets it (the same on Node and on the Worker), and the config key the code reads it under. Per
 * signed-in user in 10 minutes: orders placed, images uploaded, password reveals logged, staff duplicate
 * checks of credentials (decision 076), lines and server logins a staff member delivers (decision 138),
 * stock passwords a staff member reads in clear (decision 160). Past a limit the answer is 429.
 */
export const rateLimitSettings = {
  ordersPer10Min: { env: 'ORDERS_PER_10_MIN', default: 60 },
  uploadsPer10Min: { env: 'UPLOADS_PER_10_MIN', default: 40 },
  revealsPer10Min: { env: 'REVEALS_PER_10_MIN', default: 60 },
  credentialChecksPer10Min: { env: 'CREDENTIAL_CHECKS_PER_10_MIN', default: 120 },
  deliveredLinesPer10Min: { env: 'DELIVERED_LINES_PER_10_MIN', default: 1000 },
  staffRevealsPer10Min: { env: 'STAFF_REVEALS_PER_10_MIN', default: 30 },
} as const;

export type RateLimitName = keyof typeof rateLimitSettings;
export type RateLimits = Record<RateLimitName, number>;
type RateLimitEnvName = (typeof rateLimitSettings)[RateLimitName]['env'];

const names = Object.keys(rateLimitSettings) as RateLimitName[];
const limitOf = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The limits' environment variables with their defaults, for both entries' env schemas to spread. */
export const rateLimitEnv = Object.fromEntries(names.map((name) => [rateLimitSettings[name].env, limitOf(rateLimitSettings[name].default)])) as {
  [Name in RateLimitName as (typeof rateLimitSettings)[Name]['env']]: ReturnType<typeof limitOf>;
};

/** The limits as a parsed environment sets them. */
export const rateLimitsOf = (env: Record<RateLimitEnvName, number>): RateLimits =>
  Object.fromEntries(names.map((name) => [name, env[rateLimitSettings[name].env]])) as RateLimits;

/** No limit at all: a stand-in serves whole test suites and benchmarks from a few accounts. */
export const unlimited: RateLimits = Object.fromEntries(names.map((name) => [name, Number.POSITIVE_INFINITY])) as RateLimits;

/** The limit `name` as configured, or its default. */
export const rateLimit = (configured: Partial<RateLimits> | undefined, name: RateLimitName): number => configured?.[name] ?? rateLimitSettings[name].default;
