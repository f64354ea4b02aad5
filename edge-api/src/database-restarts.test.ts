import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authed, eventually, postmasterPid, serverProcesses, signIn, startApp, stopApp, type AppProcess } from './testing/app-process.ts';

// Issue 28 item 2, decision 193: kill -9 of the embedded Postgres of a running shop (the real entry in its
// own process, as `npm start` runs it). The app starts the server again on the same data, answers 503
// `unavailable` with Retry-After meanwhile, serves again within 5 s, and every order it acknowledged is there.

const TOKEN = 'restart-test-metrics-token-0123456789';
const dirs: string[] = [];
const apps: AppProcess[] = [];

afterAll(async () => {
  for (const app of apps) await stopApp(app);
  for (const dir of dirs) {
    await eventually(() => serverProcesses(dir).length === 0, 20_000).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

interface Outcome {
  status: number;
  orderId?: string;
  retryAfter?: string | null;
  code?: string;
}

async function placeOrder(app: AppProcess, token: string, productId: string): Promise<Outcome> {
  const response = await fetch(`${app.url}/api/orders`, { method: 'POST', headers: authed(token), body: JSON.stringify({ productId }) });
  const body = (await response.json().catch(() => ({}))) as { order?: { id: string }; error?: { code: string } };
  return { status: response.status, orderId: body.order?.id, retryAfter: response.headers.get('retry-after'), code: body.error?.code };
}

const restartsMetric = async (app: AppProcess) => {
  const text = await (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return Number(text.match(/^storefront_database_restarts_total (\d+)/m)?.[1]);
};

/** The running server's pid, or none while its pid file is being replaced. */
function currentPostmaster(app: AppProcess): number | undefined {
  try {
    return postmasterPid(app.dataDir);
  } catch {
    return undefined;
  }
}

/** Kills the postmaster with SIGKILL while orders keep coming; resolves with how long until an order is taken again. */
async function killAndMeasure(app: AppProcess, token: string, productId: string, outcomes: Outcome[]): Promise<number> {
  const postmaster = postmasterPid(app.dataDir);
  process.kill(postmaster, 'SIGKILL');
  const killedAt = Date.now();
  for (;;) {
    const outcome = await placeOrder(app, token, productId);
    outcomes.push(outcome);
    // A backend of the killed server can still finish a statement it was given (it notices the
    // postmaster's death only between statements): its order counts, and must not be lost (checked by the
    // caller), but serving again means an order taken by the new server.
    const serving = currentPostmaster(app);
    if (outcome.status === 201 && serving !== undefined && serving !== postmaster) return Date.now() - killedAt;
    if (Date.now() - killedAt > 60_000) throw new Error('the shop did not serve again within 60 s');
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('the embedded Postgres killed under a running shop', () => {
  it('is started again on the same data: 503 with Retry-After meanwhile, serving again within 5 s, no acknowledged order lost, backing off when it keeps dying', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'storefront-restarts-'));
    dirs.push(dataDir);
    const app = await startApp(dataDir, { METRICS_TOKEN: TOKEN });
    apps.push(app);
    const customer = await signIn(app, 'user');
    const services = (await (await fetch(`${app.url}/api/services`)).json()) as { id: string }[];
    const productId = services[0]!.id;
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 5; i += 1) outcomes.push(await placeOrder(app, customer.token, productId));
    expect(await restartsMetric(app)).toBe(0);

    // Orders keep arriving from four clients while the server is killed.
    let placing = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (placing) {
        outcomes.push(await placeOrder(app, customer.token, productId).catch(() => ({ status: 0 })));
        await new Promise((done) => setTimeout(done, 20));
      }
    });
    const first = await killAndMeasure(app, customer.token, productId, outcomes);
    placing = false;
    await Promise.all(clients);
    expect(first).toBeLessThan(5_000);
    expect(await restartsMetric(app)).toBe(1);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);

    // Every answer was an order or an honest 503: never a 500, never a dropped connection.
    const refused = outcomes.filter((outcome) => outcome.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) {
      expect(outcome).toMatchObject({ status: 503, code: 'unavailable' });
      expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
    }

    // Dying again right after each restart: at once, then waits that double (0.5 s, 1 s), each said in one error line.
    const again = [await killAndMeasure(app, customer.token, productId, outcomes), await killAndMeasure(app, customer.token, productId, outcomes)];
    expect(again[1]).toBeGreaterThan(1_000);
    expect(await restartsMetric(app)).toBe(3);
    const lines = app
      .output()
      .split('\n')
      .filter((line) => line.includes('stopped unexpectedly'))
      .map((line) => JSON.parse(line) as { level: string; message: string; delayMs: number; failuresInARow: number });
    expect(lines.map((line) => [line.level, line.delayMs, line.failuresInARow])).toEqual([
      ['error', 0, 1],
      ['error', 500, 2],
      ['error', 1000, 3],
    ]);
    expect(lines[0]!.message).toContain('killed by SIGKILL');

    // Nothing acknowledged is lost: every 201 is in the customer's orders.
    const acknowledged = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => outcome.orderId!);
    const listed = (await (await fetch(`${app.url}/api/orders/user/${customer.id}`, { headers: authed(customer.token) })).json()) as { id: string }[];
    const ids = new Set(listed.map((order) => order.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(7);

    // And it still stops cleanly, its server with it.
    expect(await stopApp(app)).toBe(0);
    expect(serverProcesses(dataDir)).toEqual([]);
  }, 180_000);
});
