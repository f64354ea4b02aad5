import { Hono } from 'hono';
import { apiNotFound, createApp } from './app.ts';
import { requestId, requestIdOf } from './middleware/request-id.ts';
import { healthRoutes } from './routes/health.ts';
import { supabaseAuthDeps } from './auth/supabase-mode.ts';
import { deriveUrlSigningKey } from './blobs/signed-urls.ts';
import { createSupabaseBlobStore } from './blobs/supabase-store.ts';
import { DataKeyMismatch, verifyDataKeys } from './db/data-keys.ts';
import { createPool } from './db/connect.ts';
import { requestScopedDatabase } from './db/request-scope.ts';
import type { Deps } from './deps.ts';
import { applyApiHeaders } from './lib/http-headers.ts';
import { consoleLogger, type Logger } from './lib/logger.ts';
import { createSecrets, decodeKey } from './lib/secrets.ts';
import { sendWaitingPushes } from './push/send.ts';
import { sendDueWebhooks } from './webhooks/send.ts';
import { paymentRound } from './payments/round.ts';
import { pushConfigOf } from './push/vapid.ts';
import { fileRoutes } from './routes/files.ts';
import { parseWorkerEnv, type AssetsBinding, type EnvProblem, type WorkerEnv } from './worker-env.ts';
import { workerMailer } from './worker-mail.ts';
import { isPublicPath, renderPublicHtml } from './public-pages.ts';
import { contentSecurityPolicy, staticHeaders } from './lib/http-headers.ts';
import { rateLimitsOf } from './lib/rate-limit-settings.ts';
// The build's server render (dist-ssr/server-render.js, made by `npm run build`), bundled by wrangler
// through the alias in wrangler.toml (decision 053).
import * as serverRender from 'storefront-server-render';

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  props: unknown;
}

/** What one isolate builds once: the app, its request-scoped database, and whether the data keys passed. */
type Isolate =
  | { kind: 'misconfigured'; problems: EnvProblem[] }
  | {
      kind: 'ready';
      env: WorkerEnv;
      app: Hono;
      deps: Deps;
      runWithPool: ReturnType<typeof requestScopedDatabase>['run'];
      /** Until a request has checked them; a mismatch is kept, a database that could not be reached is not. */
      dataKeys: 'unchecked' | 'verified' | DataKeyMismatch;
    };

/**
 * Each request gets a pool of its own (Workers forbid one request's sockets in another; Hyperdrive does
 * the pooling), while the app and everything else are built once per isolate.
 */
const CONNECTIONS_PER_REQUEST = 2;

/** The isolate's build, and the environment it was built for (the platform may hand each request its own env object). */
let built: { environment: string; isolate: Promise<Isolate> } | undefined;

function misconfiguredAnswer(message: string, details: unknown): Response {
  const response = Response.json({ error: { code: 'misconfigured', message, details } }, { status: 503 });
  applyApiHeaders(response.headers);
  return response;
}

async function buildIsolate(source: Record<string, unknown>, logger: Logger): Promise<Isolate> {
  const parsed = parseWorkerEnv(source);
  if (!parsed.ok) {
    // Once per isolate, not once per request.
    logger.error('worker: the environment is not valid; every API call answers 503 until it is fixed', { problems: parsed.problems });
    return { kind: 'misconfigured', problems: parsed.problems };
  }
  const env = parsed.env;
  const supabaseUrl = env.SUPABASE_URL.replace(/\/+$/, '');
  const credentialsKey = decodeKey(env.CREDENTIALS_KEY, 'CREDENTIALS_KEY');
  const { db, run } = requestScopedDatabase();
  const blobs = await createSupabaseBlobStore({
    url: supabaseUrl,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    urlSigningKey: await deriveUrlSigningKey(credentialsKey),
  });
  let push: Deps['config']['push'];
  try {
    push = await pushConfigOf(env);
  } catch (error) {
    logger.error('worker: the VAPID keys are not valid; every API call answers 503 until they are fixed', { error: (error as Error).message });
    return { kind: 'misconfigured', problems: [{ path: 'VAPID_PRIVATE_KEY', message: (error as Error).message }] };
  }
  const deps: Deps = {
    db,
    // Per isolate, like the key set: a live session is believed for a few seconds.
    ...supabaseAuthDeps({
      url: supabaseUrl,
      anonKey: env.SUPABASE_ANON_KEY,
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      jwtSecret: env.SUPABASE_JWT_SECRET,
      redirectTo: env.SITE_URL && `${env.SITE_URL}/my-orders`,
      logger,
    }),
    // Cloudflare names the caller; nothing else in front of a Worker can.
    clientIp: (c) => c.req.header('cf-connecting-ip') ?? 'unknown',
    blobs,
    secrets: await createSecrets(credentialsKey, decodeKey(env.BLIND_INDEX_KEY, 'BLIND_INDEX_KEY'), { logger }),
    clock: () => new Date(),
    config: {
      adminEmails: env.ADMIN_EMAILS,
      supabaseUrl,
      supabaseAnonKey: env.SUPABASE_ANON_KEY,
      allowedOrigins: env.ALLOWED_ORIGINS,
      staffSyncDays: env.STAFF_SYNC_DAYS,
      rateLimits: rateLimitsOf(env),
      push,
      webhooks: { allowHosts: env.WEBHOOK_TEST_HOSTS },
      payments: { tronApiUrl: env.TRON_API_URL, binancePayApiUrl: env.BINANCE_PAY_API_URL, bkashApiUrl: env.BKASH_API_URL, siteUrl: env.SITE_URL },
    },
    logger,
  };
  // Receipts and ticket answers, through the send_email binding when it is configured (decision 247).
  const mailer = workerMailer(env, logger);
  if (mailer) deps.mailer = mailer;
  const app = new Hono();
  app.use('*', requestId);
  app.use('*', async (c, next) => {
    await next();
    applyApiHeaders(c.res.headers);
  });
  app.route('/', healthRoutes(deps));
  app.route('/', createApp(deps));
  app.all('/api/*', apiNotFound);
  app.route('/files', fileRoutes(blobs));
  // The public pages, rendered from the database like the Node entry's; the app shell when it cannot be read.
  const csp = contentSecurityPolicy({ supabaseUrl: env.SUPABASE_URL, imageOrigins: env.IMAGE_ORIGINS });
  app.on(['GET', 'HEAD'], '*', async (c) => {
    const assets = (c.env as Record<string, unknown> | undefined)?.ASSETS as AssetsBinding | undefined;
    if (!assets) return c.notFound();
    const page = await renderPublicHtml(deps.db, logger, serverRender, await appShell(assets, c.req.url), new URL(c.req.url));
    if (page === null) return shellAnswer(c.req.raw, assets);
    const headers = { ...staticHeaders(c.req.path, csp), 'Content-Type': 'text/html; charset=UTF-8' };
    return new Response(c.req.method === 'HEAD' ? null : page, { status: 200, headers });
  });
  // Once per isolate: the app is built here, not per request.
  logger.info('worker: isolate ready');
  return { kind: 'ready', env, app, deps, runWithPool: run, dataKeys: 'unchecked' };
}

/** The variables (secrets included, kept in memory only) and Hyperdrive's string: what the isolate was built from. */
function environmentOf(source: Record<string, unknown>): string {
  const values = Object.entries(source).filter(([, value]) => typeof value === 'string');
  return JSON.stringify([values, (source.HYPERDRIVE as { connectionString?: unknown } | undefined)?.connectionString]);
}

function isolateFor(source: Record<string, unknown>): Promise<Isolate> {
  const environment = environmentOf(source);
  if (built?.environment !== environment) built = { environment, isolate: buildIsolate(source, consoleLogger()) };
  return built.isolate;
}

/** Ends the request's pool once the answer's body has been sent: a streamed body (the CSV export) still reads from it. */
function endPoolAfterBody(response: Response, pool: { end(): Promise<void> }, ctx: ExecutionContext): Response {
  const end = () => pool.end().catch(() => {});
  if (!response.body) {
    ctx.waitUntil(end());
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  ctx.waitUntil(
    response.body
      .pipeTo(writable)
      .catch(() => {})
      .finally(end),
  );
  return new Response(readable, response);
}

/** The built app shell (dist/index.html), read once per isolate from the platform's assets. */
let shell: Promise<string> | undefined;
function appShell(assets: AssetsBinding, url: string): Promise<string> {
  shell ??= assets.fetch(new Request(new URL('/', url))).then(async (answer) => {
    if (!answer.ok) throw new Error(`the app shell answered ${answer.status}`);
    return answer.text();
  });
  shell.catch(() => {
    shell = undefined;
  });
  return shell;
}

/**
 * The platform serves every file of dist/ without running the worker (decision 151); a path that is no
 * file reaches it. A hashed asset that is not there answers 404, never the app shell with a year of
 * caching; any other path is one of the app's own routes, answered with the app shell as the platform's
 * files are (dist/index.html with its headers from dist/_headers).
 */
function notAFile(request: Request, pathname: string, assets: AssetsBinding): Promise<Response> | Response {
  if (!pathname.startsWith('/assets/')) return shellAnswer(request, assets);
  const missing = new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  applyApiHeaders(missing.headers);
  return missing;
}

/** The app shell, as the platform serves dist/index.html at `/`, for a GET or HEAD of any client route. */
function shellAnswer(request: Request, assets: AssetsBinding): Promise<Response> {
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
  return assets.fetch(new Request(new URL('/', request.url), { method, headers: request.headers }));
}

/** GET /healthz before any isolate is built, as routes/health.ts answers it inside the app. */
function healthAnswer(request: Request): Response {
  const answer = Response.json(
    { status: 'ok' },
    { headers: { 'Cache-Control': 'no-store', 'X-Request-Id': requestIdOf(request.headers.get('x-request-id') ?? undefined) } },
  );
  applyApiHeaders(answer.headers);
  return answer;
}

/**
 * The same Hono app on Cloudflare Workers: Postgres through Hyperdrive, Supabase Auth and Storage. The
 * platform serves the files of dist/ (with dist/_headers) before this runs; it runs for the paths of
 * run_worker_first (/api, /files, the public pages, /healthz and /readyz) and for any path that is no file.
 */
export default {
  async fetch(request: Request, source: Record<string, unknown>, ctx: ExecutionContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    const assets = source.ASSETS as AssetsBinding | undefined;
    const servesAssets = assets !== undefined && typeof assets.fetch === 'function';
    const publicPage = servesAssets && (request.method === 'GET' || request.method === 'HEAD') && isPublicPath(pathname);
    // The process answers: nothing of the isolate is needed (a misconfigured one is still up; /readyz says whether it can serve).
    if (pathname === '/healthz') return healthAnswer(request);
    // The static app needs nothing of the isolate: a broken environment still serves it.
    if (!publicPage && pathname !== '/readyz' && !pathname.startsWith('/api/') && !pathname.startsWith('/files/') && servesAssets) {
      return notAFile(request, pathname, assets);
    }
    const isolate = await isolateFor(source);
    // A public page of a shop that cannot reach its database (or is misconfigured) is still the app shell.
    if (publicPage && (isolate.kind === 'misconfigured' || isolate.dataKeys instanceof DataKeyMismatch)) return shellAnswer(request, assets!);
    if (isolate.kind === 'misconfigured') {
      const named = isolate.problems.map((problem) => `${problem.path} ${problem.message}`).join('; ');
      return misconfiguredAnswer(`The server is not configured correctly: ${named}`, isolate.problems);
    }
    if (isolate.dataKeys instanceof DataKeyMismatch) return misconfiguredAnswer(isolate.dataKeys.message, { keys: isolate.dataKeys.keys });

    const pool = createPool({ databaseUrl: isolate.env.HYPERDRIVE.connectionString, maxConnections: CONNECTIONS_PER_REQUEST });
    // Work the app leaves running after its answer (push sends, decision 067) still uses this pool: it ends after them.
    const background: Promise<unknown>[] = [];
    const requestCtx: ExecutionContext = {
      waitUntil: (promise) => {
        background.push(promise);
        ctx.waitUntil(promise);
      },
      passThroughOnException: () => ctx.passThroughOnException(),
      props: ctx.props,
    };
    return isolate.runWithPool(pool, async () => {
      let response: Response;
      try {
        if (isolate.dataKeys === 'unchecked') {
          try {
            await verifyDataKeys(isolate.deps.db, isolate.deps.secrets);
            isolate.dataKeys = 'verified';
          } catch (error) {
            if (!(error instanceof DataKeyMismatch)) {
              isolate.deps.logger.error('worker: the data key check could not read the database', { error: String(error) });
              await pool.end().catch(() => {});
              if (publicPage) return shellAnswer(request, assets!);
              const unavailable = Response.json({ error: { code: 'internal', message: 'The database cannot be reached right now' } }, { status: 503 });
              applyApiHeaders(unavailable.headers);
              return unavailable;
            }
            isolate.dataKeys = error;
            isolate.deps.logger.error('worker: the data keys do not match this database; every API call answers 503', {
              keys: error.keys,
              reason: error.message,
            });
            await pool.end();
            return misconfiguredAnswer(error.message, { keys: error.keys });
          }
        }
        response = await isolate.app.fetch(request, source, requestCtx);
      } catch (error) {
        await pool.end().catch(() => {});
        throw error;
      }
      return endPoolAfterBody(response, { end: () => Promise.allSettled(background).then(() => pool.end()) }, ctx);
    });
  },

  /**
   * The cron trigger of wrangler.toml, every minute: the payment round (issue 26: every rail asked about
   * every waiting payment, overdue ones expired), then web push messages that are due again (put back
   * after a failed send, or left by an isolate that stopped mid-send) even when no write happens
   * (decision 067, retries). Its own pool, ended after the round.
   */
  async scheduled(_controller: unknown, source: Record<string, unknown>, ctx: ExecutionContext): Promise<void> {
    const isolate = await isolateFor(source);
    if (isolate.kind !== 'ready') return;
    const pool = createPool({ databaseUrl: isolate.env.HYPERDRIVE.connectionString, maxConnections: CONNECTIONS_PER_REQUEST });
    const work = async () => {
      await paymentRound(isolate.deps);
      if (isolate.deps.config.push) await sendWaitingPushes(isolate.deps);
      // Webhook deliveries due again (decision 174).
      await sendDueWebhooks(isolate.deps);
    };
    const round = isolate.runWithPool(pool, work).finally(() => pool.end().catch(() => {}));
    ctx.waitUntil(round);
    await round;
  },
};
