import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/schema.ts';
import { currentVersion } from '../db/versions.ts';
import { sameSecret } from '../auth/embedded/auth-requests.ts';

/**
 * Prometheus metrics of the Node entry (decision 167), with prom-client: requests by route pattern,
 * method and status, their latency, the database pool, the outboxes' backlog and the sync version, and
 * the process's own (memory, CPU, event-loop lag). Route patterns, never paths: no id, email or token
 * reaches a label. Workers have Cloudflare's analytics instead; an isolate's counts would mean little.
 */
export interface Metrics {
  /** Counts and times every request; mounted first. */
  measure: MiddlewareHandler;
  /** `GET /metrics`, behind `Authorization: Bearer METRICS_TOKEN`; 404 when no token is set. */
  routes: Hono;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(options: { db: Kysely<Database>; pool: pg.Pool; token: string | undefined; databaseRestarts?: () => number }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'storefront_' });
  const requests = new Counter({
    name: 'storefront_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'storefront_http_request_duration_seconds',
    help: 'Time to answer, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  databaseGauges(registry, options.db, options.pool);
  const restarts = options.databaseRestarts ?? (() => 0);
  new Counter({
    name: 'storefront_database_restarts_total',
    help: 'Times the embedded Postgres server died and was started again by the app (always 0 with DATABASE_URL)',
    registers: [registry],
    collect() {
      // The supervisor counts; the counter shows its count.
      this.reset();
      this.inc(restarts());
    },
  });
  const measure: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeOf(c);
      requests.inc({ route, method: c.req.method, status: String(c.res.status) });
      latency.observe({ route, method: c.req.method }, (performance.now() - started) / 1000);
    }
  };
  const routes = new Hono().get('/metrics', async (c) => {
    if (!options.token) return c.text('Not found', 404);
    const bearer = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!bearer || !sameSecret(bearer, options.token)) return c.text('Unauthorized', 401, { 'WWW-Authenticate': 'Bearer' });
    return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  });
  return { measure, routes };
}

/** The matched route's pattern (`/api/orders/:id`); static files and unknown paths are one label each. */
function routeOf(c: Context): string {
  const pattern = c.req.routePath;
  if (pattern && pattern !== '*' && pattern !== '/*') return pattern;
  return c.req.path.startsWith('/api/') ? 'unmatched api' : 'static';
}

function databaseGauges(registry: Registry, db: Kysely<Database>, pool: pg.Pool): void {
  new Gauge({
    name: 'storefront_db_pool_connections',
    help: 'Database pool connections: total, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'storefront_outbox_backlog',
    help: 'Messages waiting to be sent, by outbox (push, mail)',
    labelNames: ['outbox'] as const,
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ push: string; mail: string }>`
        select (select count(*) from push_outbox) as push, (select count(*) from mail_outbox) as mail`.execute(db);
      this.set({ outbox: 'push' }, Number(rows[0]?.push ?? 0));
      this.set({ outbox: 'mail' }, Number(rows[0]?.mail ?? 0));
    },
  });
  new Gauge({
    name: 'storefront_sync_version',
    help: 'The latest sync version: every write takes one, so its rate is the write rate',
    registers: [registry],
    async collect() {
      this.set(await currentVersion(db));
    },
  });
}
