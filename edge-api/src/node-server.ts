import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { createLocalJWKSet } from 'jose';
import { createApp } from './app.ts';
import { createEmbeddedAuth } from './auth/embedded/embedded-auth.ts';
import { importSigningKey } from './auth/signing-key.ts';
import { supabaseUserDeleter } from './auth/supabase-admin.ts';
import { createTokenVerifier, remoteKeys } from './auth/verifier.ts';
import { createDiskBlobStore } from './blobs/disk-store.ts';
import { createSupabaseBlobStore } from './blobs/supabase-store.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Deps } from './deps.ts';
import type { Env } from './env.ts';
import { loadOrCreateLocalKeys } from './local-keys.ts';
import { consoleLogger, type Logger } from './lib/logger.ts';
import { createSecrets, decodeKey } from './lib/secrets.ts';
import { fileRoutes } from './routes/files.ts';
import { seedDemoData, demoLogins } from './seed/demo-data.ts';

/** The anon key of the embedded auth server: public by nature, like Supabase's publishable key. */
const EMBEDDED_ANON_KEY = 'sb_publishable_embedded';

export interface RunningServer {
  url: string;
  demoLoginsSeeded: boolean;
  close(): Promise<void>;
}

/**
 * One Node process on one port: the built PWA at /, the API at /api, the Supabase-compatible auth subset
 * at /auth/v1 (embedded mode) and image files at /files. With DATABASE_URL and SUPABASE_URL the same
 * process uses real Postgres, Supabase Auth and Storage instead.
 */
export async function startNodeServer(env: Env, options: { logger?: Logger; staticRoot?: string } = {}): Promise<RunningServer> {
  const logger = options.logger ?? consoleLogger();
  const dataDir = resolve(env.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const keys = await loadOrCreateLocalKeys(dataDir);
  const db = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: join(dataDir, 'pglite') });
  await migrateToLatest(db);

  const secrets = await createSecrets(
    decodeKey(env.CREDENTIALS_KEY ?? keys.credentialsKey, 'CREDENTIALS_KEY'),
    decodeKey(env.BLIND_INDEX_KEY ?? keys.blindIndexKey, 'BLIND_INDEX_KEY'),
  );
  const root = new Hono();
  // nosniff, frame and referrer policies on everything this process serves.
  root.use('*', secureHeaders({ strictTransportSecurity: false }));
  let deps: Deps;
  let seeded = false;

  if (env.SUPABASE_URL && env.SUPABASE_ANON_KEY && env.SUPABASE_SERVICE_ROLE_KEY) {
    const authUrl = `${env.SUPABASE_URL.replace(/\/$/, '')}/auth/v1`;
    const serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY;
    deps = {
      db,
      verifyToken: createTokenVerifier({ issuer: authUrl, keys: remoteKeys(authUrl) }),
      deleteAuthUser: supabaseUserDeleter(authUrl, serviceRoleKey),
      blobs: createSupabaseBlobStore({ url: env.SUPABASE_URL, serviceRoleKey }),
      secrets,
      clock: () => new Date(),
      config: { adminEmails: env.ADMIN_EMAILS, supabaseUrl: env.SUPABASE_URL, supabaseAnonKey: env.SUPABASE_ANON_KEY, allowedOrigins: env.ALLOWED_ORIGINS },
      logger,
    };
  } else {
    const issuer = `http://localhost:${env.PORT}/auth/v1`;
    const signingKey = await importSigningKey(keys.signingKey);
    const auth = createEmbeddedAuth({
      db,
      key: signingKey,
      issuer,
      anonKey: EMBEDDED_ANON_KEY,
      serviceRoleKey: keys.serviceRoleKey,
      clientIp: (c) => getConnInfo(c).remote.address ?? 'unknown',
      logger,
    });
    const blobs = await createDiskBlobStore(join(dataDir, 'files'), decodeKey(keys.fileSigningKey, 'file signing key'));
    deps = {
      db,
      verifyToken: createTokenVerifier({ issuer, keys: createLocalJWKSet(auth.jwks()) }),
      deleteAuthUser: auth.deleteUser,
      blobs,
      secrets,
      clock: () => new Date(),
      // supabase-js is pointed at this same origin; the PWA resolves the empty URL against its location.
      config: { adminEmails: env.ADMIN_EMAILS, supabaseUrl: '', supabaseAnonKey: EMBEDDED_ANON_KEY, allowedOrigins: env.ALLOWED_ORIGINS },
      logger,
    };
    root.route('/auth/v1', auth.app);
    root.route('/files', fileRoutes(blobs));
    if (env.DEMO_DATA === '1') seeded = await seedDemoData(deps);
  }

  root.route('/', createApp(deps));
  const staticRoot = options.staticRoot ?? 'dist';
  root.use(
    '/assets/*',
    serveStatic({ root: staticRoot, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }),
  );
  root.use('*', serveStatic({ root: staticRoot, onFound: (_path, c) => c.header('Cache-Control', 'no-cache') }));
  // Client routes: every other GET is the app shell.
  root.get('*', serveStatic({ root: staticRoot, path: 'index.html', onFound: (_path, c) => c.header('Cache-Control', 'no-cache') }));

  const server: ServerType = await new Promise((done) => {
    const started = serve({ fetch: root.fetch, port: env.PORT, hostname: '0.0.0.0' }, () => done(started));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  return {
    url: `http://localhost:${port}`,
    demoLoginsSeeded: seeded,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await db.destroy();
    },
  };
}

export { demoLogins };
