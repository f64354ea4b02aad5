import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { createEmbeddedAuth, type EmbeddedAuth, type EmbeddedAuthOptions } from '../auth/embedded/embedded-auth.ts';
import { mailboxMailer } from '../auth/embedded/mailer.ts';
import { generateSigningKey, importSigningKey } from '../auth/signing-key.ts';
import type { Database } from '../db/schema.ts';
import { testLogger } from './test-logs.ts';

export const ANON_KEY = 'sb_publishable_test_anon_key';
export const SERVICE_ROLE_KEY = 'sb_secret_test_service_role_key';

export interface AuthServer {
  url: string;
  issuer: string;
  auth: EmbeddedAuth;
  /** The local mailbox (a temporary directory) its recovery and email-change mail lands in. */
  mailbox: string;
  /**
   * Resolves once every mail the server was asked for so far is kept or held back: the work its routes
   * leave running after their answers, and the guest sign-in mail the API asks it for. A test that expects
   * no (further) mail waits here instead of for a while.
   */
  mailSettled: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * The embedded auth mounted at /auth/v1 on a real port, as the Node entry serves it. The caller's IP is the
 * socket address unless a test names one in `x-test-client-ip`, so tests keep their rate-limit counts apart.
 */
export async function startAuthServer(
  db: Kysely<Database>,
  options: Pick<EmbeddedAuthOptions, 'clock' | 'rateLimits' | 'unconfirmedEmails' | 'redirectOrigins' | 'confirmSignups'> = {},
): Promise<AuthServer> {
  let handle: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: (request, env) => handle(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${url}/auth/v1`;
  const mailbox = await mkdtemp(join(tmpdir(), 'storefront-mailbox-'));
  const mailing = mailTracker();
  const auth = createEmbeddedAuth({
    db,
    key: await importSigningKey(await generateSigningKey()),
    issuer,
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    clientIp: (c) => c.req.header('x-test-client-ip') ?? getConnInfo(c).remote.address ?? 'unknown',
    clock: options.clock,
    logger: testLogger(),
    rateLimits: options.rateLimits,
    unconfirmedEmails: options.unconfirmedEmails,
    mailer: await mailboxMailer(mailbox, { logger: testLogger() }),
    redirectOrigins: options.redirectOrigins,
    confirmSignups: options.confirmSignups,
    afterAnswer: mailing.track,
  });
  const root = new Hono().route('/auth/v1', auth.app);
  handle = (request, env) => root.fetch(request, env);
  const { ensure, mailSignIn } = auth.guestAccounts;
  return {
    url,
    issuer,
    // The API's guest orders ask for their sign-in mail without waiting for it: counted as the routes' is.
    auth: { ...auth, guestAccounts: { ensure, mailSignIn: (email) => mailing.track(mailSignIn(email)) } },
    mailbox,
    mailSettled: mailing.settled,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await rm(mailbox, { recursive: true, force: true });
    },
  };
}

/** Mail work still running: `settled` waits until there is none, including work begun while it waits. */
function mailTracker() {
  const running = new Set<Promise<void>>();
  const track = (work: Promise<void>): Promise<void> => {
    const tracked = work.finally(() => running.delete(tracked));
    running.add(tracked);
    return tracked;
  };
  const settled = async (): Promise<void> => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  return { track, settled };
}

let ipCounter = 0;
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
export const freshEmail = (name = 'user') => `${name}-${crypto.randomUUID().slice(0, 8)}@Example.test`;

export function supabaseClient(url: string, key = ANON_KEY, ip = freshIp()): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-test-client-ip': ip } },
  });
}
