import { existsSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { apiNotFound, createApp } from './app.ts';
import { requestId } from './middleware/request-id.ts';
import { capConnections, connectionOptions } from './http-limits.ts';
import { healthRoutes } from './routes/health.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { scheduleBackups } from './backup/schedule.ts';
import type { Pool } from 'pg';
import { createPool, databaseOn, openDatabase, POOL_IDLE_MS } from './db/connect.ts';
import { verifyDataKeys } from './db/data-keys.ts';
import { ownServerCheck, startEmbeddedPostgres } from './db/embedded-postgres.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Deps } from './deps.ts';
import type { Env } from './env.ts';
import { legacyImages } from './image-store.ts';
import { loadOrCreateLocalKeys, type LocalKeys } from './local-keys.ts';
import { sendDuePushesEvery } from './push/send.ts';
import { sendDueWebhooksEvery } from './webhooks/send.ts';
import { startPaymentJobs } from './payments/round.ts';
import { applyApiHeaders, contentSecurityPolicy, isUnpublished, staticHeaders } from './lib/http-headers.ts';
import { compressAnswers } from './middleware/compress-json.ts';
import { createMetrics } from './metrics/metrics.ts';
import { returnMemoryWhenQuiet } from './lib/quiet-memory.ts';
import { publicPages } from './public-pages-node.ts';
import { consoleLogger, type Logger } from './lib/logger.ts';
import { createSecrets, decodeKey } from './lib/secrets.ts';
import { fileRoutes } from './routes/files.ts';
import { moveInlineImages } from './operations/move-inline-images.ts';
import { demoLogins, type DemoLogin } from './seed/demo-data.ts';
import { createServerDeps } from './node-deps.ts';
import { moveFromPglite, waitForDatabase } from './node-database-start.ts';

/** What this process answers itself, rather than serving a file of the build. */
const serverPaths = ['/api/', '/auth/', '/files/', '/storage/', '/healthz', '/readyz', '/metrics'];

/** How long requests under way get to finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 6_000;

/** How often this process sends the web push messages that are due again (decision 067, retries). */
const PUSH_RETRY_EVERY_MS = 30_000;
/** How often this process posts the webhook deliveries that are due again (decision 174): the first retry waits 5 s. */
const WEBHOOK_RETRY_EVERY_MS = 10_000;

export interface RunningServer {
  url: string;
  demoLoginsSeeded: boolean;
  /** The demo logins with their passwords, on the start that made them only: shown once. */
  demoLogins?: DemoLogin[];
  /** The demo accounts are still there: the console says how to remove them. */
  demoShop: boolean;
  close(): Promise<void>;
}

/**
 * One Node process on one port: the built PWA at /, the API at /api, the Supabase-compatible auth subset
 * at /auth/v1 (embedded mode) and image files at /files. With DATABASE_URL and SUPABASE_URL the same
 * process uses real Postgres, Supabase Auth and Storage instead.
 */
export async function startNodeServer(env: Env, options: { logger?: Logger; staticRoot?: string; renderRoot?: string } = {}): Promise<RunningServer> {
  const logger = options.logger ?? consoleLogger();
  const dataDir = resolve(env.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const keys = await loadOrCreateLocalKeys(dataDir);
  // The embedded server is started again whenever it dies (decision 193); the API answers 503 meanwhile.
  const database: { databaseUrl: string; stop(): Promise<void>; instance?: string; restarts(): number } = env.DATABASE_URL
    ? { databaseUrl: env.DATABASE_URL, stop: async () => {}, restarts: () => 0 }
    : await startEmbeddedPostgres(dataDir, { logger });
  // Every connection is to the server this app started, or it is not used (decision 194).
  const verify = database.instance === undefined ? undefined : ownServerCheck(database.instance);
  // Start-up work (moving PGlite data, migrations) runs without the serving pool's time limits.
  const setupDb = openDatabase({ databaseUrl: database.databaseUrl, verify });
  const pool = createPool({
    databaseUrl: database.databaseUrl,
    timeouts: { connectMs: env.DB_CONNECT_TIMEOUT_MS, statementMs: env.DB_STATEMENT_TIMEOUT_MS },
    verify,
  });
  const db = databaseOn(pool);
  const closeDatabase = async () => {
    await Promise.all([setupDb.destroy(), db.destroy()]);
    await database.stop();
  };
  try {
    // The port first: a start that fails on it after seeding the demo would never show the demo logins.
    await ensurePortFree(env.PORT);
    await waitForDatabase(setupDb, database.databaseUrl, logger);
    if (!env.DATABASE_URL) await moveFromPglite(dataDir, setupDb, logger);
    await migrateToLatest(setupDb);
    await setupDb.destroy();
    const closing = { now: false };
    // The build's server render of the public pages sits beside dist/ (dist-ssr/); a staticRoot given
    // without a renderRoot serves the app shell only.
    const renderRoot = options.renderRoot ?? (options.staticRoot ? undefined : 'dist-ssr');
    const { server, seeded, demoShop, pushRetries, paymentJobs } = await serveApp(env, {
      db,
      pool,
      keys,
      dataDir,
      logger,
      staticRoot: options.staticRoot ?? 'dist',
      closing,
      renderRoot,
      databaseRestarts: database.restarts,
    });
    // Quiet as long as the pool's unused connections take to close: the heap of the last burst goes too (decision 073).
    const quiet = returnMemoryWhenQuiet({ quietMs: POOL_IDLE_MS });
    server.on('request', quiet.touch);
    // With BACKUP_DIR: a checked backup on a schedule, the newest BACKUP_KEEP kept (decision 116).
    const backups = scheduleBackups(env, { dataDir, databaseUrl: database.databaseUrl, logger });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    return {
      url: `http://localhost:${port}`,
      demoLoginsSeeded: seeded !== undefined,
      demoLogins: seeded,
      demoShop,
      close: async () => {
        // No new connections; every answer from now on says `Connection: close`, so keep-alive clients
        // leave after their request; idle connections close at once; requests still running (or a
        // request half sent) get SHUTDOWN_GRACE_MS, then their connections are cut (decision 042).
        closing.now = true;
        quiet.stop();
        const closed = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        const idleSweep = setInterval(() => server.closeIdleConnections(), 250);
        const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closed;
        clearInterval(idleSweep);
        clearTimeout(cut);
        // A round under way is cut short; what it had not sent is put back for whoever runs next.
        await pushRetries.stop();
        await paymentJobs.stop();
        await backups.stop();
        await closeDatabase();
      },
    };
  } catch (error) {
    await closeDatabase();
    throw error;
  }
}

const portInUse = (port: number) => new Error(`Port ${port} is already in use by another program: set PORT to a free one.`);

/** Fails with the port-in-use message when another program listens on `port` (0: any free one, always fine). */
function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? portInUse(port) : error));
    probe.listen(port, '0.0.0.0', () => probe.close(() => done()));
  });
}

/** What serveApp serves from: the database, the keys and data directory, and how the server is to answer. */
interface ServeOptions {
  db: Deps['db'];
  pool: Pool;
  keys: LocalKeys;
  dataDir: string;
  logger: Logger;
  staticRoot: string;
  closing: { now: boolean };
  renderRoot: string | undefined;
  databaseRestarts: () => number;
}

async function serveApp(
  env: Env,
  { db, pool, keys, dataDir, logger, staticRoot, closing, renderRoot, databaseRestarts }: ServeOptions,
): Promise<{
  server: ServerType & { closeAllConnections(): void; closeIdleConnections(): void };
  seeded: DemoLogin[] | undefined;
  demoShop: boolean;
  pushRetries: { stop(): Promise<void> };
  paymentJobs: { stop(): Promise<void> };
}> {
  const credentialsKey = decodeKey(env.CREDENTIALS_KEY ?? keys.credentialsKey, 'CREDENTIALS_KEY');
  const secrets = await createSecrets(credentialsKey, decodeKey(env.BLIND_INDEX_KEY ?? keys.blindIndexKey, 'BLIND_INDEX_KEY'), { logger });
  // A key that does not match the stored data stops the start, naming the key.
  await verifyDataKeys(db, secrets);
  const root = new Hono();
  useServerMiddleware(root, env, { db, pool, closing, databaseRestarts });
  const { deps, blobs, seeded, demoShop } = await createServerDeps(env, { db, keys, dataDir, logger, secrets, credentialsKey }, root);

  // Images by reference only (decision 051): inline images left by earlier versions move into the store.
  await moveInlineImages({ db, blobs, logger }, legacyImages(blobs));

  mountRoutes(root, env, deps, blobs, { db, logger, staticRoot, renderRoot });
  const server = await listen(root, env);
  capConnections(server as HttpServer, env, logger);
  // Messages put back after a failed send go when due, even when no write happens (decision 067, retries).
  const pushOnly = deps.config.push ? sendDuePushesEvery(deps, PUSH_RETRY_EVERY_MS) : { stop: async () => {} };
  // Webhook deliveries put back after a failed post go when due too (decision 174); stopped with the pushes.
  const webhookRetries = sendDueWebhooksEvery(deps, WEBHOOK_RETRY_EVERY_MS);
  const pushRetries = { stop: async () => void (await Promise.all([pushOnly.stop(), webhookRetries.stop()])) };
  // Payments (issue 26): the USDT watch every few seconds and the whole round every minute.
  const paymentJobs = startPaymentJobs(deps);
  return { server: server as ServerType & { closeAllConnections(): void; closeIdleConnections(): void }, seeded, demoShop, pushRetries, paymentJobs };
}

/** The middleware in front of everything: metrics, request ids, shutdown, the shared headers and compression. */
function useServerMiddleware(
  root: Hono,
  env: Env,
  { db, pool, closing, databaseRestarts }: Pick<ServeOptions, 'db' | 'pool' | 'closing' | 'databaseRestarts'>,
) {
  const metrics = createMetrics({ db, pool, token: env.METRICS_TOKEN, databaseRestarts });
  root.use('*', metrics.measure);
  root.use('*', requestId);
  root.route('/', metrics.routes);
  // Shutting down: each answer closes its connection, so a keep-alive client cannot hold the server open.
  root.use('*', async (c, next) => {
    await next();
    if (closing.now) c.res.headers.set('Connection', 'close');
  });
  // The shared header rules (lib/http-headers.ts): what the server answers itself gets them here, static
  // files where they are served below.
  root.use('*', async (c, next) => {
    await next();
    if (serverPaths.some((prefix) => c.req.path.startsWith(prefix))) applyApiHeaders(c.res.headers);
  });
  // Answers built per request (JSON, CSV) go out compressed from about 1 KB; the built app is compressed
  // at build time and served below as it was stored.
  root.use('/api/*', compressAnswers());
  root.use('/auth/*', compressAnswers());
}

/** The server's own routes, then the public pages and the built app's files. */
function mountRoutes(
  root: Hono,
  env: Env,
  deps: Deps,
  blobs: BlobStore,
  { db, logger, staticRoot, renderRoot }: Pick<ServeOptions, 'db' | 'logger' | 'staticRoot' | 'renderRoot'>,
) {
  root.route('/', healthRoutes(deps));
  root.route('/', createApp(deps));
  root.all('/api/*', apiNotFound);
  root.route('/files', fileRoutes(blobs));
  const csp = contentSecurityPolicy({ supabaseUrl: env.SUPABASE_URL, imageOrigins: env.IMAGE_ORIGINS });
  const withStaticHeaders = (path: string, c: Context) => {
    for (const [name, value] of Object.entries(staticHeaders(c.req.path, csp))) c.header(name, value);
    // The build stores .br and .gz beside each compressible file (vite.config.ts); any cache in between
    // must keep the answers for different Accept-Encoding apart, whichever one this request got.
    if (/\.(?:br|gz)$/.test(path) || existsSync(`${path}.br`) || existsSync(`${path}.gz`)) c.header('Vary', 'Accept-Encoding');
  };
  const notFound = (c: Context) => c.text('Not found', 404, { ...staticHeaders(c.req.path, csp), 'Cache-Control': 'no-store' });
  root.get('*', async (c, next) => (isUnpublished(c.req.path) ? notFound(c) : next()));
  // The public pages arrive rendered, from the database (decision 053).
  const rendered = renderRoot ? publicPages(db, logger, staticRoot, renderRoot, csp) : null;
  if (rendered) root.get('*', rendered);
  root.use('*', serveStatic({ root: staticRoot, precompressed: true, onFound: withStaticHeaders }));
  // A hashed asset that is not there is a 404, never the app shell.
  root.get('/assets/*', notFound);
  // Client routes: every other GET is the app shell.
  root.get('*', serveStatic({ root: staticRoot, path: 'index.html', precompressed: true, onFound: withStaticHeaders }));
}

/** Listens on env.PORT; a port another program holds fails the start with the port-in-use message. */
function listen(root: Hono, env: Env): Promise<ServerType> {
  return new Promise<ServerType>((done, fail) => {
    // Slow clients and floods of connections cannot hold the server (decision 115).
    const started = serve({ fetch: root.fetch, port: env.PORT, hostname: '0.0.0.0', serverOptions: connectionOptions(env) }, () => done(started));
    started.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? portInUse(env.PORT) : error));
  });
}

export { demoLogins };
