/**
 * Test support for the sync engine: devices that talk to the real API app in-process, with faults on
 * demand, and a few ways to make rows on the server as another device would.
 */
import { vaultHeaders } from '../lib/vault-headers.ts';
import { hc } from 'hono/client';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { AppType } from '@api-types';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { SyncResponse } from '../../../edge-api/src/contract/sync.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { getPublicDb, getUserDb } from '../db/local-db.ts';
import { createSyncEngine, type SyncEngine } from '../db/sync-engine.ts';

/** What went over the wire, for assertions on what a pull transferred. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

type Fault = 'network' | 'server-error' | 'lost-answer';

/**
 * A device talking to the real API app in-process. `faults` makes the next matching requests (by method,
 * and path with query) fail: before reaching the server (network), with a 503, or after the server acted
 * (the answer is lost).
 */
export function device(api: ApiHarness, user: TestUser | null, options: { token?: () => string; refresh?: () => Promise<boolean>; autoSync?: boolean } = {}) {
  const exchanges: Exchange[] = [];
  const faults: { match: (method: string, path: string) => boolean; fault: Fault }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const index = faults.findIndex((f) => f.match(request.method, url.pathname + url.search));
    const fault = index >= 0 ? faults.splice(index, 1)[0]!.fault : undefined;
    if (fault === 'network') throw new TypeError('Failed to fetch');
    if (fault === 'server-error') return Response.json({ error: { code: 'internal', message: 'Down for a moment' } }, { status: 503 });
    const response = await api.app.request(request);
    const type = response.headers.get('content-type');
    if (type && !type.includes('json')) return response;
    const text = await response.text();
    if (fault === 'lost-answer') throw new TypeError('Failed to fetch');
    exchanges.push({ method: request.method, path: url.pathname + url.search, status: response.status, body: text ? JSON.parse(text) : null });
    return new Response(text || null, { status: response.status, headers: response.headers });
  };
  const client = hc<AppType>('http://api.test/', {
    fetch,
    headers: (): Record<string, string> => {
      const token = options.token?.() ?? user?.token;
      return token ? { authorization: `Bearer ${token}`, ...vaultHeaders() } : {};
    },
  }).api;
  /** Images the engine asked for, for the service worker to keep (there is no worker here). */
  const imagesAsked: string[] = [];
  const engine = createSyncEngine({
    transport: {
      api: client,
      refreshSession: options.refresh ?? (async () => true),
      sessionUserId: async () => user?.id ?? null,
      fetchImage: async (url) => void imagesAsked.push(url),
    },
    locks: null,
    // On: the engine's own triggers and retry timers run (stop it at the end of the test).
    autoSync: options.autoSync ?? false,
  });
  engine.start(user?.id ?? null);
  const failNext = (count: number, fault: Fault, match: (method: string, path: string) => boolean) => {
    for (let i = 0; i < count; i++) faults.push({ match, fault });
  };
  return { engine, exchanges, failNext, imagesAsked, client, db: user ? getUserDb(user.id) : null };
}

export const pulled = (exchanges: Exchange[], scope: 'public' | 'private') =>
  exchanges.filter((e) => e.path.startsWith(`/api/sync?scope=${scope}`)).map((e) => e.body as SyncResponse);
export const rowsIn = (sync: SyncResponse) =>
  Object.values(sync.changes).reduce((n, rows) => n + (rows?.length ?? 0), 0) + Object.values(sync.deleted).reduce((n, ids) => n + (ids?.length ?? 0), 0);

export const serviceBody = (title: string) => ({
  title,
  description: `${title}, ready the same day`,
  category: 'wise',
  features: ['Verified'],
  price: '40',
  deliveryTime: 'instant',
  paymentMethods: ['binance'],
});

export async function createService(api: ApiHarness, admin: TestUser, title: string): Promise<Service> {
  const created = await api.call<Service>('POST', '/api/services', { user: admin, json: serviceBody(title) });
  expect(created.status).toBe(201);
  return created.body;
}

export async function serverOrder(api: ApiHarness, id: string) {
  return api.db.selectFrom('orders').selectAll().where('id', '=', id).execute();
}

/** An order placed by `customer` through the API, as a second device would. */
export async function orderOnServer(api: ApiHarness, customer: TestUser, service: Service): Promise<Order> {
  const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { id: crypto.randomUUID(), productId: service.id } });
  expect(placed.status).toBe(201);
  return placed.body.order;
}

/**
 * The API and an admin for a test file, and a clean public database before each test; engines passed to
 * `track` are stopped before the next test.
 */
export function syncTestBench() {
  const bench = { api: undefined as unknown as ApiHarness, admin: undefined as unknown as TestUser };
  let engines: SyncEngine[] = [];
  beforeAll(async () => {
    bench.api = await createApiHarness();
    bench.admin = await bench.api.createUser('admin');
  });
  afterAll(() => bench.api.close());
  beforeEach(async () => {
    for (const engine of engines) engine.stop();
    engines = [];
    const pub = getPublicDb();
    await Promise.all([pub.services.clear(), pub.settings.clear(), pub.meta.clear()]);
  });
  const track = <T extends { engine: SyncEngine }>(d: T) => {
    engines.push(d.engine);
    return d;
  };
  return { bench, track };
}
