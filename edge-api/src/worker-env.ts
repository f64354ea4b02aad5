import * as z from 'zod';
import { dataKey, list } from './env.ts';
import { rateLimitEnv } from './lib/rate-limit-settings.ts';
import { parseSender, type EmailSender, type SendEmailBinding } from './worker-mail.ts';

/** What the worker needs of the platform's bindings: checked like the variables, so a missing one is named. */
export interface HyperdriveBinding {
  connectionString: string;
}
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

const binding = <T>(check: (value: unknown) => boolean, message: string) => z.custom<T>(check, { error: message });
const PLACEHOLDER_PROJECT = 'https://your-project.supabase.co';

/**
 * The Worker's environment, bindings included, parsed with zod once per isolate. Secrets come from
 * `wrangler secret put` (or .dev.vars locally), variables from [vars], bindings from wrangler.toml.
 */
const workerEnvSchema = z
  .object({
    HYPERDRIVE: binding<HyperdriveBinding>(
      (value) => typeof (value as HyperdriveBinding | undefined)?.connectionString === 'string',
      'is missing: wrangler.toml needs a [[hyperdrive]] binding named HYPERDRIVE',
    ),
    ASSETS: binding<AssetsBinding>(
      (value) => typeof (value as AssetsBinding | undefined)?.fetch === 'function',
      'is missing: wrangler.toml needs [assets] with binding = "ASSETS"',
    ),
    SUPABASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be the project URL, e.g. https://abcd.supabase.co' })
      .refine((value) => value.replace(/\/+$/, '') !== PLACEHOLDER_PROJECT, 'is still the placeholder of wrangler.toml: set your project URL under [vars]'),
    SUPABASE_ANON_KEY: z.string({ error: 'is required (wrangler secret put SUPABASE_ANON_KEY)' }).min(1),
    SUPABASE_SERVICE_ROLE_KEY: z.string({ error: 'is required (wrangler secret put SUPABASE_SERVICE_ROLE_KEY)' }).min(1),
    SUPABASE_JWT_SECRET: z.string().min(32, "must be the project's JWT secret (at least 32 characters)").optional(),
    CREDENTIALS_KEY: z.string({ error: 'is required (wrangler secret put CREDENTIALS_KEY)' }).pipe(dataKey),
    BLIND_INDEX_KEY: z.string({ error: 'is required (wrangler secret put BLIND_INDEX_KEY)' }).pipe(dataKey),
    ADMIN_EMAILS: list,
    ALLOWED_ORIGINS: list,
    IMAGE_ORIGINS: list,
    /** Orders changed within this many days go to a staff device's first sync (decision 187). */
    STAFF_SYNC_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** The per-user write limits, as on Node (lib/rate-limit-settings.ts). */
    ...rateLimitEnv,
    /** Web push (decision 067): `wrangler secret put VAPID_PRIVATE_KEY`; the public key and contact under [vars]. Unset: push is off. */
    VAPID_PUBLIC_KEY: z.string().min(1).optional(),
    VAPID_PRIVATE_KEY: z.string().min(1).optional(),
    VAPID_SUBJECT: z.string().min(1).optional(),
    /** Payment rails (issue 26): where TronGrid, Binance Pay and bKash answer; their public hosts unless set. */
    TRON_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.trongrid.io'),
    BINANCE_PAY_API_URL: z.url({ protocol: /^https?$/ }).default('https://bpay.binanceapi.com'),
    BKASH_API_URL: z.url({ protocol: /^https?$/ }).default('https://tokenized.pay.bka.sh/v1.2.0-beta'),
    /** The address customers open the shop at: the rails call back there. Unset: the address a payment was started from. */
    SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** 1: subscriptions may point at an http:// push service on this machine (the Workers test suite only). */
    PUSH_ALLOW_LOCAL_ENDPOINTS: z.enum(['0', '1']).default('0'),
    /** Hosts a webhook endpoint may name without the public-address check, on http too (the Workers test suite only; decision 174). */
    WEBHOOK_TEST_HOSTS: list,
    /** The shop's mail (decision 247): Cloudflare's `[[send_email]]` binding named EMAIL; unset, no receipt or ticket email is sent. */
    EMAIL: binding<SendEmailBinding>(
      (value) => typeof (value as SendEmailBinding | undefined)?.send === 'function',
      'must be a [[send_email]] binding of wrangler.toml',
    ).optional(),
    /** Who the mail is from: an address of the domain onboarded to Email Sending, or `Name <address>`. */
    MAIL_FROM: z
      .string()
      .transform((value, ctx): EmailSender => {
        const sender = parseSender(value);
        if (sender === undefined) ctx.addIssue({ code: 'custom', message: 'must be an email address, or `Name <address>`' });
        return sender ?? '';
      })
      .optional(),
  })
  .refine((env) => !env.EMAIL || env.MAIL_FROM !== undefined, {
    path: ['MAIL_FROM'],
    message: 'is required with the send_email binding EMAIL: the sender address under [vars], of the domain onboarded to Email Sending',
  });

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export interface EnvProblem {
  path: string;
  message: string;
}

export type ParsedWorkerEnv = { ok: true; env: WorkerEnv } | { ok: false; problems: EnvProblem[] };

/** Empty variables count as missing, as on Node. Never throws: a bad environment is an answer, not a crash. */
export function parseWorkerEnv(source: Record<string, unknown>): ParsedWorkerEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== '' && value !== undefined));
  const result = workerEnvSchema.safeParse(present);
  if (result.success) return { ok: true, env: result.data };
  return { ok: false, problems: result.error.issues.map((issue) => ({ path: issue.path.join('.') || 'environment', message: issue.message })) };
}
