import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { inProcessHarness, type ApiHarness, type TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { AppError } from '../lib/app-error.ts';
import { logReveal } from './mutations.ts';
import { createService, device, orderOnServer, syncTestBench } from '../test/sync-bench.ts';

// Issue 17, item 6 (decision 066): a reveal made on the device goes through the outbox like every change.

const { bench, track } = syncTestBench();
let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  ({ api, admin } = bench);
  moderator = await api.createUser('moderator');
});

const staffView = async (id: string) => (await api.call<Order>('GET', `/api/admin/orders/${id}`, { user: moderator })).body;

describe('a reveal through the outbox', () => {
  it('counts on the device at once, is sent later, and a push whose answer was lost is logged once', async () => {
    const service = await createService(api, admin, 'Wise revealed');
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, service);
    const delivered = await api.call('PUT', `/api/admin/orders/${order.id}`, {
      user: moderator,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'shown@wise.test', wisePassword: 'Shown-Pass-1' },
    });
    expect(delivered.status).toBe(200);
    const { engine, db, failNext } = track(device(api, customer));
    await engine.syncNow();

    const revealedAt = new Date().toISOString();
    const handle = logReveal(customer.id, { orderId: order.id, deviceId: 'phone-1', deviceLabel: 'Chrome on Android', revealedAt });
    await handle.saved;
    expect((await db!.orders.get(order.id))?.views).toEqual({ count: 1, firstAt: revealedAt, firstDevice: 'Chrome on Android' });
    expect(await db!.outbox.count()).toBe(1);

    failNext(1, 'lost-answer', (method, path) => method === 'POST' && path.endsWith('/reveals'));
    await expect(engine.syncNow()).rejects.toThrow();
    await engine.syncNow();
    await handle.done;

    expect(await db!.outbox.count()).toBe(0);
    const local = await db!.orders.get(order.id);
    expect(local?.views).toEqual({ count: 1, firstAt: revealedAt, firstDevice: 'Chrome on Android' });
    expect(local?.wisePassword).toBe('Shown-Pass-1');
    expect((await staffView(order.id)).views).toEqual({ count: 1, firstAt: revealedAt, firstDevice: 'Chrome on Android' });
    const rows = await api.db.selectFrom('credential_reveals').selectAll().where('order_id', '=', order.id).execute();
    expect(rows).toHaveLength(1);
  });
});

/** A customer of an API that logs at most `limit` reveals per 10 minutes, with a delivered order and a device. */
async function limitedShop(limit: number, autoSync = false) {
  // The limit counts in 10-minute windows of the clock: a test started at the edge of one waits for the next.
  const toNextWindow = 600_000 - (Date.now() % 600_000);
  if (toNextWindow < 5_000) await new Promise((resolve) => setTimeout(resolve, toNextWindow + 50));
  const limited = await inProcessHarness({ rateLimits: { revealsPer10Min: limit } });
  const [limitedAdmin, limitedModerator, customer] = await Promise.all([
    limited.createUser('admin'),
    limited.createUser('moderator'),
    limited.createUser('user'),
  ]);
  const service = await createService(limited, limitedAdmin, 'Wise limited');
  const order = await orderOnServer(limited, customer, service);
  const delivered = await limited.call('PUT', `/api/admin/orders/${order.id}`, {
    user: limitedModerator,
    json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'limit@wise.test', wisePassword: 'Limit-Pass-1' },
  });
  expect(delivered.status).toBe(200);
  const phone = track(device(limited, customer, { autoSync }));
  if (autoSync) await phone.engine.idle();
  else await phone.engine.syncNow();
  const show = () =>
    logReveal(customer.id, { orderId: order.id, deviceId: 'phone-1', deviceLabel: 'Chrome on Android', revealedAt: new Date().toISOString() }).saved;
  const posts = () => phone.exchanges.filter((e) => e.method === 'POST' && e.path.endsWith('/reveals'));
  const rows = () => limited.db.selectFrom('credential_reveals').select('id').where('order_id', '=', order.id).execute();
  return { limited, order, ...phone, show, posts, rows };
}

describe('a reveal past the server’s limit', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('stays queued with the changes behind it, and nothing is pushed again until the Retry-After has passed', async () => {
    const { limited, order, engine, db, exchanges, show, posts, rows } = await limitedShop(2);
    try {
      for (let i = 0; i < 4; i += 1) await show();

      const refused = await engine.syncNow().then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'rate_limited', status: 429 });
      const waitMs = (refused as AppError).retryAfterMs!;
      expect(waitMs).toBeGreaterThan(0);
      expect(waitMs).toBeLessThanOrEqual(600_000);
      expect(posts().map((e) => e.status)).toEqual([200, 200, 429]);
      // The refused reveal and the one behind it wait, pending: nothing dropped, nothing marked failed.
      expect((await db!.outbox.toArray()).map((entry) => entry.status)).toEqual(['pending', 'pending']);
      expect((await db!.orders.get(order.id))?.views?.count).toBe(4);

      // Syncs meanwhile (a write, the timer, the tab coming back) still pull, but send nothing.
      const pullsBefore = exchanges.filter((e) => e.path.startsWith('/api/sync?scope=private')).length;
      await expect(engine.syncNow()).rejects.toMatchObject({ code: 'rate_limited' });
      await expect(engine.syncNow()).rejects.toMatchObject({ code: 'rate_limited' });
      expect(posts()).toHaveLength(3);
      expect(exchanges.filter((e) => e.path.startsWith('/api/sync?scope=private')).length).toBeGreaterThan(pullsBefore);
      expect(await db!.outbox.count()).toBe(2);

      // Once the wait is over (the server's window with it), the queue goes out in order.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + waitMs + 1_000);
      await engine.syncNow();
      expect(posts().map((e) => e.status)).toEqual([200, 200, 429, 200, 200]);
      expect(await db!.outbox.count()).toBe(0);
      expect(await rows()).toHaveLength(4);
      expect((await db!.orders.get(order.id))?.views?.count).toBe(4);
    } finally {
      await limited.close();
    }
  });

  it('schedules its next try for when the Retry-After ends, not after its one-second backoff', async () => {
    const { limited, engine, db, show, posts } = await limitedShop(1, true);
    try {
      // Timers are only watched, not changed: the engine's retry is one of them.
      const realSetTimeout = globalThis.setTimeout;
      const delays: number[] = [];
      vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
        delays.push(ms ?? 0);
        return realSetTimeout(handler, ms, ...args);
      }) as typeof setTimeout);
      await show();
      await show();
      // Each Show asks for a push soon; the engine's own triggers send them.
      await vi.waitFor(() => expect(posts().map((e) => e.status)).toEqual([200, 429]), { timeout: 10_000 });
      await engine.idle();
      const waitMs = 1000 * Number((posts()[1]!.body as { error: { message: string } }).error.message.match(/(\d+) seconds/)![1]);
      expect(delays.some((ms) => ms > waitMs - 5_000 && ms <= waitMs)).toBe(true);
      expect(await db!.outbox.count()).toBe(1);
      expect(posts()).toHaveLength(2);
    } finally {
      engine.stop();
      await limited.close();
    }
  });
});
