import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, databaseOn } from '../db/connect.ts';
import { parseEnv } from '../env.ts';
import { testLogger } from '../testing/test-logs.ts';
import { startNodeServer, type RunningServer } from '../node-server.ts';
import { createMetrics } from './metrics.ts';

const TOKEN = 'metrics-token-for-the-test-0123456789';
let dataDir: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-metrics-'));
  server = await startNodeServer(parseEnv({ PORT: '0', DATA_DIR: dataDir, METRICS_TOKEN: TOKEN }), { logger: testLogger(), staticRoot: dataDir });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const metrics = (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });

describe('GET /metrics', () => {
  it('answers only the bearer of METRICS_TOKEN', async () => {
    expect((await metrics()).status).toBe(401);
    expect((await metrics(`Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await metrics(`Basic ${TOKEN}`)).status).toBe(401);
    const answer = await metrics(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('counts requests by route pattern and status, times them, and shows the pool, the outboxes and the sync version', async () => {
    const services = (await (await fetch(`${server.url}/api/services`)).json()) as { id: string }[];
    await fetch(`${server.url}/api/services/${services[0]!.id}`);
    await fetch(`${server.url}/api/orders/user/someone-else`);
    const text = await (await metrics(`Bearer ${TOKEN}`)).text();
    expect(text).toMatch(/storefront_http_requests_total\{route="\/api\/services",method="GET",status="200"\} \d+/);
    expect(text).toMatch(/storefront_http_requests_total\{route="\/api\/services\/:id",method="GET",status="200"\} 1/);
    expect(text).toMatch(/storefront_http_requests_total\{route="\/api\/orders\/user\/:userId",method="GET",status="401"\} 1/);
    expect(text).toMatch(/storefront_http_request_duration_seconds_bucket\{le="0.05",route="\/api\/services",method="GET"\} \d+/);
    expect(text).toMatch(/storefront_db_pool_connections\{state="total"\} \d+/);
    expect(text).toMatch(/storefront_outbox_backlog\{outbox="push"\} \d+/);
    expect(text).toMatch(/storefront_sync_version [1-9]\d*/);
    expect(text).toMatch(/storefront_process_resident_memory_bytes \d+/);
    // Patterns, never paths: no id of a service reaches a label.
    expect(text).not.toContain(services[0]!.id);
    expect(text).not.toContain(TOKEN);
  });

  it('is not there without a token', async () => {
    const pool = createPool({ databaseUrl: process.env.TEST_DATABASE_URL!, maxConnections: 1 });
    try {
      const off = createMetrics({ db: databaseOn(pool), pool, token: undefined });
      expect((await off.routes.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await pool.end();
    }
  });
});
