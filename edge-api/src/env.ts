import * as z from 'zod';
import { rateLimitEnv } from './lib/rate-limit-settings.ts';

export const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
/** A data key: `openssl rand -base64 32`. */
export const dataKey = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)');
const base64Key = dataKey.optional();

/** The environment, parsed once per entry; a bad one stops the start with a readable list. */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    DATA_DIR: z.string().min(1).default('.data'),
    DEMO_DATA: z.enum(['0', '1']).default('1'),
    ADMIN_EMAILS: list,
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** How long one statement of a request may run before the API gives up on it with a 503 (decision 042). */
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    /** How long a request waits for a database connection before it answers 503 (decision 042). */
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1_500),
    /**
     * The Node entry's connections (decision 115): how long a client may take to send a request's headers,
     * and the whole request (an upload included); how long an idle keep-alive connection stays open; how
     * many connections are served at once (past that, new ones are closed at once).
     */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
    SUPABASE_URL: z.url().optional(),
    SUPABASE_ANON_KEY: z.string().min(1).optional(),
    SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
    /** The legacy JWT secret of a Supabase project whose tokens are still HS256 (Project Settings, JWT Keys). */
    SUPABASE_JWT_SECRET: z.string().min(32, "must be the project's JWT secret (at least 32 characters)").optional(),
    /**
     * 1: embedded mode also answers as Supabase Storage at /storage/v1 and lifts its auth rate limits, so
     * the Workers entry (wrangler dev) can use this server as its Supabase. Local runs and CI only.
     */
    SUPABASE_STAND_IN: z.enum(['0', '1']).default('0'),
    CREDENTIALS_KEY: base64Key,
    BLIND_INDEX_KEY: base64Key,
    ALLOWED_ORIGINS: list,
    /** The bearer token of GET /metrics (Prometheus); unset, /metrics answers 404 (decision 167). */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (openssl rand -hex 16)').optional(),
    /** Hosts service pictures may be loaded from besides this site and the Supabase project (the CSP names them; decision 164). */
    IMAGE_ORIGINS: list,
    /** Orders changed within this many days go to a staff device's first sync (decision 187). */
    STAFF_SYNC_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** The per-user write limits (ORDERS_PER_10_MIN, REVEALS_PER_10_MIN, …): lib/rate-limit-settings.ts names them all. */
    ...rateLimitEnv,
    /**
     * Embedded auth: where its mail goes, e.g. smtps://user:pass@smtp.example.com:465; unset, every message
     * is kept in DATA_DIR/mailbox and the console names its file, never its link (decision 057).
     */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** The From of the embedded auth's mail. */
    MAIL_FROM: z.string().min(3).optional(),
    /** The address customers open the shop at (https://shop.example.com): mailed links point there. Default http://localhost:PORT. */
    SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Embedded auth, 1: a sign-up waits for its address to be confirmed by a mailed link, and a taken address
     * answers as a free one, its owner told by mail (decision 262). 0 (default): the specification's
     * registration, signed in at once, a taken address answered `user_already_exists` (decision 162).
     */
    AUTH_CONFIRM_SIGNUPS: z.enum(['0', '1']).default('0'),
    /**
     * Web push (decision 067): the VAPID key pair (base64url, as `npx web-push generate-vapid-keys` prints)
     * and the contact push services may write to. Embedded mode makes a pair in DATA_DIR/keys.json when unset.
     */
    VAPID_PUBLIC_KEY: z.string().min(1).optional(),
    VAPID_PRIVATE_KEY: z.string().min(1).optional(),
    VAPID_SUBJECT: z.string().min(1).optional(),
    /** 1: subscriptions may point at an http:// push service on this machine (tests and local runs only). */
    PUSH_ALLOW_LOCAL_ENDPOINTS: z.enum(['0', '1']).default('0'),
    /** Hosts a webhook endpoint may name without the public-address check, on http too (tests only; decision 174). Empty unless set. */
    WEBHOOK_TEST_HOSTS: list,
    /** Payment rails (issue 26): where TronGrid, Binance Pay and bKash answer; their public hosts unless set (tests, sandboxes). */
    TRON_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.trongrid.io'),
    BINANCE_PAY_API_URL: z.url({ protocol: /^https?$/ }).default('https://bpay.binanceapi.com'),
    BKASH_API_URL: z.url({ protocol: /^https?$/ }).default('https://tokenized.pay.bka.sh/v1.2.0-beta'),
    /**
     * Scheduled backups (decision 116): with BACKUP_DIR set, the running app writes a backup there every
     * BACKUP_INTERVAL_HOURS (fractions allowed, at least a minute), checks it by reading it back, and keeps
     * the newest BACKUP_KEEP of its own (their keys files in DATA_DIR/backup-keys/ go with them).
     */
    BACKUP_DIR: z.string().min(1).optional(),
    BACKUP_INTERVAL_HOURS: z.coerce
      .number()
      .min(1 / 60, 'must be at least 0.0167 (one minute)')
      .max(24 * 31)
      .default(24),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    /** Addresses of the reverse proxies in front of this server, whose X-Forwarded-For the rate limits believe. */
    TRUSTED_PROXIES: list,
  })
  .superRefine((env, ctx) => {
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: `must be at most HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS}): the headers are part of the request`,
      });
    }
    if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['VAPID_PRIVATE_KEY'], message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together' });
    }
    if (env.SUPABASE_URL && (!env.SUPABASE_ANON_KEY || !env.SUPABASE_SERVICE_ROLE_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['SUPABASE_URL'], message: 'needs SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY too' });
    }
    if (env.SUPABASE_URL && (!env.CREDENTIALS_KEY || !env.BLIND_INDEX_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['CREDENTIALS_KEY'], message: 'CREDENTIALS_KEY and BLIND_INDEX_KEY are required with SUPABASE_URL' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '')));
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join('.') || 'environment'}: ${issue.message}`);
    throw new Error(`The environment is not valid:\n${lines.join('\n')}`);
  }
  return result.data;
}
