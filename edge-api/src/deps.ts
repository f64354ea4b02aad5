import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { SessionCheck } from './auth/session-check.ts';
import type { VerifyToken } from './auth/verifier.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import type { Database } from './db/schema.ts';
import type { Logger } from './lib/logger.ts';
import type { RateLimits } from './lib/rate-limit-settings.ts';
import type { PushConfig } from './push/vapid.ts';
import type { Secrets } from './lib/secrets.ts';
import type { ReceiptMailer } from './operations/receipts.ts';
import type { PaymentsConfig } from './payments/rail-store.ts';
import type { WebhookNetwork } from './webhooks/network.ts';

export interface AppConfig {
  /** Emails that get the admin role when their user record is created. */
  adminEmails: string[];
  /** What the PWA passes to supabase-js (GET /api/config). */
  supabaseUrl: string;
  supabaseAnonKey: string;
  allowedOrigins: string[];
  /** Orders changed within this many days are in a staff device's first sync (STAFF_SYNC_DAYS, default 30; decision 187). */
  staffSyncDays?: number;
  /** The per-user write limits, each defaulting as lib/rate-limit-settings.ts says. */
  rateLimits?: Partial<RateLimits> & {
    /** Requests one API key may make in a minute (decision 173; 120). */
    apiKeyRequestsPerMinute?: number;
  };
  /** Web push (decision 067): the VAPID keys and contact; unset, nobody can subscribe and nothing is sent. */
  push?: PushConfig;
  /** Payment rails (issue 26): where each rail's API is, and the shop's address for callbacks and receipt links. */
  payments?: PaymentsConfig;
  /**
   * Outbound webhooks (decision 174): hosts taken without the public-address check, on http too
   * (WEBHOOK_TEST_HOSTS; tests only), and how posts reach the network (decision 243: pinned on Node; the
   * platform's fetch when unset).
   */
  webhooks?: { allowHosts?: string[]; network?: WebhookNetwork };
}

/**
 * The auth server's side of an order placed with just an email (decision 177): the address's account (made
 * unconfirmed when there is none) and a mailed sign-in link (Supabase's signInWithOtp), sent at most once a
 * minute per address by the auth server itself.
 */
export interface GuestAccounts {
  ensure(email: string): Promise<string>;
  mailSignIn(email: string): Promise<void>;
}

/** Everything the API needs arrives here: no module-level clients, so Node, Workers and tests share one app. */
export interface Deps {
  db: Kysely<Database>;
  verifyToken: VerifyToken;
  /** Whether a verified token's session still exists (auth/session-check.ts); false refuses the token. */
  sessionAlive: SessionCheck;
  /** Deletes an account on the auth server (used when registration cannot save the user record). */
  deleteAuthUser: (userId: string) => Promise<void>;
  /** Whether the auth server has confirmed the account's email address: ADMIN_EMAILS counts only then. */
  emailConfirmed: (userId: string) => Promise<boolean>;
  blobs: BlobStore;
  secrets: Secrets;
  clock: () => Date;
  config: AppConfig;
  logger: Logger;
  /** The caller's address, for per-IP limits; absent, every caller shares one budget. */
  clientIp?: (c: Context) => string;
  /** Orders with just an email (decision 177); absent, the shop cannot take them. */
  guestAccounts?: GuestAccounts;
  /** The shop's mail for receipts (issue 26); absent, no receipt is written. */
  mailer?: ReceiptMailer;
}
