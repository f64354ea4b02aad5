/**
 * The deps of the Node server (node-server.ts): with SUPABASE_URL and its keys, Supabase Auth and Storage;
 * otherwise the embedded auth at /auth/v1 (mounted here), images in the data directory and, with
 * DEMO_DATA=1, the demo shop seeded.
 */
import { join } from 'node:path';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Hono } from 'hono';
import { createLocalJWKSet } from 'jose';
import { isEmailConfirmed } from './auth/embedded/auth-store.ts';
import { createEmbeddedAuth } from './auth/embedded/embedded-auth.ts';
import { DEFAULT_MAIL_FROM, mailboxMailer, smtpMailer } from './auth/embedded/mailer.ts';
import { cachedSessionCheck, embeddedSessionCheck } from './auth/session-check.ts';
import { importSigningKey } from './auth/signing-key.ts';
import { supabaseAuthDeps } from './auth/supabase-mode.ts';
import { createTokenVerifier } from './auth/verifier.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { storageStandIn } from './blobs/storage-stand-in.ts';
import type { Deps } from './deps.ts';
import type { Env } from './env.ts';
import { dataDirImageStore, supabaseImageStore } from './image-store.ts';
import { clientIpFrom } from './lib/client-ip.ts';
import type { Logger } from './lib/logger.ts';
import type { LocalKeys } from './local-keys.ts';
import { writeLimitsOf } from './node-limits.ts';
import { pushConfigOf } from './push/vapid.ts';
import { hasDemoAccounts, seedDemoData, type DemoLogin } from './seed/demo-data.ts';
import { demoApiKey, demoPassword } from './seed/demo-passwords.ts';
import { nodeWebhookNetwork } from './webhooks/node-network.ts';

/** The anon key of the embedded auth server: public by nature, like Supabase's publishable key. */
const EMBEDDED_ANON_KEY = 'sb_publishable_embedded';

/** What the deps of either mode are made from. */
export interface DepsSources {
  db: Deps['db'];
  keys: LocalKeys;
  dataDir: string;
  logger: Logger;
  secrets: Deps['secrets'];
  credentialsKey: Uint8Array;
}

/** The deps, the image store, and the demo logins when this start seeded them. */
export interface ServerDeps {
  deps: Deps;
  blobs: BlobStore;
  seeded: DemoLogin[] | undefined;
  demoShop: boolean;
}

/** What both modes share: the write limits, the shop's mail, the payment rails' addresses and the client's IP. */
type Shared = Awaited<ReturnType<typeof sharedParts>>;

async function sharedParts(env: Env, { dataDir, logger }: DepsSources) {
  const standIn = env.SUPABASE_STAND_IN === '1';
  const writeLimits = writeLimitsOf(env, standIn);
  // The shop's mail: the embedded auth's links and the payment receipts (issue 26).
  const mailer = env.SMTP_URL
    ? await smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? DEFAULT_MAIL_FROM)
    : await mailboxMailer(join(dataDir, 'mailbox'), { logger, from: env.MAIL_FROM });
  const payments = {
    tronApiUrl: env.TRON_API_URL,
    binancePayApiUrl: env.BINANCE_PAY_API_URL,
    bkashApiUrl: env.BKASH_API_URL,
    siteUrl: env.SITE_URL ?? `http://localhost:${env.PORT}`,
  };
  const apiClientIp = (c: Context) => clientIpFrom(getConnInfo(c).remote.address, c.req.header('x-forwarded-for'), env.TRUSTED_PROXIES);
  return { standIn, writeLimits, mailer, payments, apiClientIp };
}

/** The deps for this environment; the embedded auth (and a storage stand-in) mounted on `root`. */
export async function createServerDeps(env: Env, sources: DepsSources, root: Hono): Promise<ServerDeps> {
  const shared = await sharedParts(env, sources);
  if (env.SUPABASE_URL && env.SUPABASE_ANON_KEY && env.SUPABASE_SERVICE_ROLE_KEY) {
    const project = { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY };
    return { ...(await supabaseDeps(env, sources, shared, project)), seeded: undefined, demoShop: false };
  }
  return embeddedDeps(env, sources, shared, root);
}

async function supabaseDeps(
  env: Env,
  { db, logger, secrets, credentialsKey }: DepsSources,
  { writeLimits, mailer, payments, apiClientIp }: Shared,
  { url, anonKey, serviceRoleKey }: { url: string; anonKey: string; serviceRoleKey: string },
): Promise<{ deps: Deps; blobs: BlobStore }> {
  const blobs = await supabaseImageStore({ url, serviceRoleKey }, credentialsKey);
  const deps: Deps = {
    db,
    ...supabaseAuthDeps({
      url,
      anonKey,
      serviceRoleKey,
      jwtSecret: env.SUPABASE_JWT_SECRET,
      redirectTo: `${payments.siteUrl}/my-orders`,
      logger,
    }),
    clientIp: apiClientIp,
    blobs,
    secrets,
    clock: () => new Date(),
    config: {
      adminEmails: env.ADMIN_EMAILS,
      supabaseUrl: url,
      supabaseAnonKey: anonKey,
      allowedOrigins: env.ALLOWED_ORIGINS,
      staffSyncDays: env.STAFF_SYNC_DAYS,
      rateLimits: writeLimits,
      push: await pushConfigOf(env),
      payments,
      webhooks: { allowHosts: env.WEBHOOK_TEST_HOSTS, network: nodeWebhookNetwork() },
    },
    logger,
    mailer,
  };
  return { deps, blobs };
}

async function embeddedDeps(
  env: Env,
  { db, keys, dataDir, logger, secrets }: DepsSources,
  { standIn, writeLimits, mailer, payments, apiClientIp }: Shared,
  root: Hono,
): Promise<ServerDeps> {
  let seeded: DemoLogin[] | undefined;
  const issuer = `http://localhost:${env.PORT}/auth/v1`;
  const signingKey = await importSigningKey(keys.signingKey);
  const auth = createEmbeddedAuth({
    db,
    key: signingKey,
    issuer,
    anonKey: EMBEDDED_ANON_KEY,
    serviceRoleKey: keys.serviceRoleKey,
    clientIp: (c) => clientIpFrom(getConnInfo(c).remote.address, c.req.header('x-forwarded-for'), env.TRUSTED_PROXIES),
    logger,
    unconfirmedEmails: env.ADMIN_EMAILS,
    mailer,
    siteUrl: env.SITE_URL ?? `http://localhost:${env.PORT}`,
    redirectOrigins: env.ALLOWED_ORIGINS,
    confirmSignups: env.AUTH_CONFIRM_SIGNUPS === '1',
    // A stand-in plays a Supabase project on the legacy secret too: it verifies such tokens on /user.
    ...(standIn && env.SUPABASE_JWT_SECRET && { legacyJwtSecret: env.SUPABASE_JWT_SECRET }),
    // A stand-in serves a whole test suite's sign-ups from one address.
    ...(standIn && {
      rateLimits: { tokenPer5Min: Number.POSITIVE_INFINITY, refreshPer5Min: Number.POSITIVE_INFINITY, signupPer5Min: Number.POSITIVE_INFINITY },
    }),
  });
  const blobs = await dataDirImageStore(dataDir, keys);
  const deps: Deps = {
    db,
    verifyToken: createTokenVerifier({ issuer, keys: createLocalJWKSet(auth.jwks()), logger }),
    sessionAlive: cachedSessionCheck(embeddedSessionCheck(db)),
    deleteAuthUser: auth.deleteUser,
    emailConfirmed: (userId) => isEmailConfirmed(db, userId),
    guestAccounts: auth.guestAccounts,
    clientIp: apiClientIp,
    blobs,
    secrets,
    clock: () => new Date(),
    // supabase-js is pointed at this same origin; the PWA resolves the empty URL against its location.
    config: {
      adminEmails: env.ADMIN_EMAILS,
      supabaseUrl: '',
      supabaseAnonKey: EMBEDDED_ANON_KEY,
      allowedOrigins: env.ALLOWED_ORIGINS,
      staffSyncDays: env.STAFF_SYNC_DAYS,
      rateLimits: writeLimits,
      push: await pushConfigOf(env, keys.vapid),
      payments,
      webhooks: { allowHosts: env.WEBHOOK_TEST_HOSTS, network: nodeWebhookNetwork() },
    },
    logger,
    mailer,
  };
  root.route('/auth/v1', auth.app);
  if (standIn) root.route('/storage/v1', storageStandIn(blobs, keys.serviceRoleKey));
  // Passwords of this data directory's own (demo-passwords.ts), never published ones.
  if (env.DEMO_DATA === '1')
    seeded = await seedDemoData(
      deps,
      (email) => demoPassword(keys.serviceRoleKey, email),
      () => demoApiKey(keys.serviceRoleKey),
    );
  const demoShop = await hasDemoAccounts(db);
  return { deps, blobs, seeded, demoShop };
}
