import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createApp } from './app.ts';
import { supabaseUserDeleter } from './auth/supabase-admin.ts';
import { createTokenVerifier, remoteKeys } from './auth/verifier.ts';
import { createSupabaseBlobStore } from './blobs/supabase-store.ts';
import type { Database } from './db/schema.ts';
import type { Deps } from './deps.ts';
import { consoleLogger } from './lib/logger.ts';
import { createSecrets, decodeKey } from './lib/secrets.ts';

/** The bindings wrangler.toml declares; secrets are set with `wrangler secret put`. */
interface WorkerEnv {
  HYPERDRIVE: { connectionString: string };
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  CREDENTIALS_KEY: string;
  BLIND_INDEX_KEY: string;
  ADMIN_EMAILS?: string;
  ALLOWED_ORIGINS?: string;
  ASSETS: { fetch(request: Request): Promise<Response> };
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
// The JWKS fetcher caches keys between requests of one isolate; it holds no connection.
const keySets = new Map<string, ReturnType<typeof remoteKeys>>();

/**
 * The same Hono app on Cloudflare Workers: Postgres through Hyperdrive (which pools, so each request opens
 * its own client), Supabase Auth and Storage. Static assets are served by the platform before this runs.
 */
export default {
  async fetch(request: Request, env: WorkerEnv, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/')) return env.ASSETS.fetch(request);
    const authUrl = `${env.SUPABASE_URL.replace(/\/$/, '')}/auth/v1`;
    let keys = keySets.get(authUrl);
    if (!keys) {
      keys = remoteKeys(authUrl);
      keySets.set(authUrl, keys);
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: env.HYPERDRIVE.connectionString, max: 1 }) }) });
    const deps: Deps = {
      db,
      verifyToken: createTokenVerifier({ issuer: authUrl, keys }),
      deleteAuthUser: supabaseUserDeleter(authUrl, env.SUPABASE_SERVICE_ROLE_KEY),
      blobs: createSupabaseBlobStore({ url: env.SUPABASE_URL, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY }),
      secrets: await createSecrets(decodeKey(env.CREDENTIALS_KEY, 'CREDENTIALS_KEY'), decodeKey(env.BLIND_INDEX_KEY, 'BLIND_INDEX_KEY')),
      clock: () => new Date(),
      config: {
        adminEmails: list(env.ADMIN_EMAILS),
        supabaseUrl: env.SUPABASE_URL,
        supabaseAnonKey: env.SUPABASE_ANON_KEY,
        allowedOrigins: list(env.ALLOWED_ORIGINS),
      },
      logger: consoleLogger(),
    };
    try {
      return await createApp(deps).fetch(request);
    } finally {
      ctx.waitUntil(db.destroy());
    }
  },
};
