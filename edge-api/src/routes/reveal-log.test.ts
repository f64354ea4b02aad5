import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../contract/audit.ts';
import type { Order } from '../contract/orders.ts';
import type { SyncResponse } from '../contract/sync.ts';
import { inProcessHarness, type TestUser } from '../testing/api-harness.ts';
import { clockInNextWindow } from '../testing/limit-window.ts';
import { createOrderFixtures, errorPaths, orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Issue 17, item 6: the reveal log (decision 066).

const bench = orderTestBench();

async function deliveredOrder(user?: TestUser) {
  const id = await bench.orders.placeOrder(user);
  const delivered = await bench.orders.deliverTyped(id, `reveal-${random()}@wise.test`, `Reveal-${random()}`);
  expect(delivered.status).toBe(200);
  return id;
}

const reveal = (user: TestUser, orderId: string, json: unknown, key?: string) =>
  bench.api.call<Order & ErrorBody>('POST', `/api/orders/${orderId}/reveals`, { user, json, headers: key ? { 'idempotency-key': key } : undefined });

const phone = (revealedAt: string, deviceId = 'device-phone-1') => ({ deviceId, deviceLabel: 'Chrome on Android', revealedAt });

const revealRows = (orderId: string) =>
  bench.api.db.selectFrom('credential_reveals').selectAll().where('order_id', '=', orderId).orderBy('revealed_at').execute();

describe('the reveal log', () => {
  it('records the owner’s reveal with its time and device, and the owner sees their own views on the order', async () => {
    const id = await deliveredOrder();
    const first = new Date().toISOString();
    const logged = await reveal(bench.customer, id, phone(first), crypto.randomUUID());
    expect(logged.status).toBe(200);
    expect(logged.body.views).toEqual({ count: 1, firstAt: first, firstDevice: 'Chrome on Android' });
    // The answer is the owner's order: the delivered password is still there for the card.
    expect(logged.body.wisePassword).toMatch(/^Reveal-/);

    const second = await reveal(bench.customer, id, phone(new Date().toISOString(), 'device-tablet-2'), crypto.randomUUID());
    expect(second.body.views).toEqual({ count: 2, firstAt: first, firstDevice: 'Chrome on Android' });

    const rows = await revealRows(id);
    expect(rows.map((row) => [row.user_id, row.device_id, row.device_label])).toEqual([
      [bench.customer.id, 'device-phone-1', 'Chrome on Android'],
      [bench.customer.id, 'device-tablet-2', 'Chrome on Android'],
    ]);
    expect(new Date(rows[0]!.revealed_at).toISOString()).toBe(first);

    // The customer's own list and sync carry the same views.
    const mine = await bench.api.call<Order[]>('GET', `/api/orders/user/${bench.customer.id}`, { user: bench.customer });
    expect(mine.body.find((order) => order.id === id)?.views).toEqual({ count: 2, firstAt: first, firstDevice: 'Chrome on Android' });
  });

  it('records a replayed reveal (same idempotency key) once', async () => {
    const id = await deliveredOrder();
    const key = crypto.randomUUID();
    const body = phone(new Date().toISOString());
    const once = await reveal(bench.customer, id, body, key);
    const again = await reveal(bench.customer, id, body, key);
    expect(once.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.views?.count).toBe(1);
    expect(await revealRows(id)).toHaveLength(1);
    // What is kept for the replay (plain JSON) holds no password, though the answer does.
    expect(once.body.wisePassword).toMatch(/^Reveal-/);
    const stored = await bench.api.db
      .selectFrom('idempotency_keys')
      .select('response')
      .where('user_id', '=', bench.customer.id)
      .where('key', 'like', `%${key}`)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.response)).not.toContain(once.body.wisePassword!);
    expect((await bench.orders.auditRows(id)).filter((row) => row.action === 'order.first_view')).toHaveLength(1);
    // The same key with another body is refused and records nothing.
    const reused = await reveal(bench.customer, id, phone(new Date().toISOString(), 'other-device'), key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_mismatch');
    expect(await revealRows(id)).toHaveLength(1);
  });

  it('lets only the order’s owner log a reveal: another customer and staff are refused and nothing is recorded', async () => {
    const id = await deliveredOrder();
    const stranger = await bench.api.createUser('user');
    for (const user of [stranger, bench.moderator, bench.admin]) {
      const refused = await reveal(user, id, phone(new Date().toISOString()), crypto.randomUUID());
      expect(refused.status).toBe(403);
    }
    expect(await revealRows(id)).toHaveLength(0);
    expect((await bench.orders.orderRow(id)).reveal_count).toBe(0);
    const anonymous = await bench.api.call('POST', `/api/orders/${id}/reveals`, { json: phone(new Date().toISOString()) });
    expect(anonymous.status).toBe(401);
  });

  it('refuses an order with no delivered password, and a missing one', async () => {
    const pending = await bench.orders.placeOrder();
    const early = await reveal(bench.customer, pending, phone(new Date().toISOString()));
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('not_delivered');
    const missing = await reveal(bench.customer, crypto.randomUUID(), phone(new Date().toISOString()));
    expect(missing.status).toBe(404);
    expect(await revealRows(pending)).toHaveLength(0);
  });

  it('answers 400 to bad input, naming the field, and changes nothing', async () => {
    const id = await deliveredOrder();
    const before = await bench.orders.orderRow(id);
    const cases: [unknown, string][] = [
      [{ deviceLabel: 'Chrome', revealedAt: new Date().toISOString() }, 'deviceId'],
      [{ deviceId: 'a b', deviceLabel: 'Chrome', revealedAt: new Date().toISOString() }, 'deviceId'],
      [{ deviceId: 'x'.repeat(101), deviceLabel: 'Chrome', revealedAt: new Date().toISOString() }, 'deviceId'],
      [{ deviceId: 'd1', deviceLabel: '   ', revealedAt: new Date().toISOString() }, 'deviceLabel'],
      [{ deviceId: 'd1', deviceLabel: 'Chrome', revealedAt: 'last tuesday' }, 'revealedAt'],
      [{ deviceId: 'd1', deviceLabel: 'Chrome', revealedAt: new Date().toISOString(), ip: '10.0.0.1' }, ''],
    ];
    for (const [json, path] of cases) {
      const refused = await reveal(bench.customer, id, json, crypto.randomUUID());
      expect(refused.status, JSON.stringify(json)).toBe(400);
      if (path) expect(errorPaths(refused.body)).toContain(path);
    }
    expect(await revealRows(id)).toHaveLength(0);
    const after = await bench.orders.orderRow(id);
    expect(after.version).toBe(before.version);
    expect(after.reveal_count).toBe(0);
  });

  it('takes an offline reveal’s own time, never one ahead of the server or before the delivery', async () => {
    const id = await deliveredOrder();
    const row = await bench.orders.orderRow(id);
    const future = await reveal(bench.customer, id, phone(new Date(Date.now() + 86_400_000).toISOString()), crypto.randomUUID());
    expect(Date.parse(future.body.views!.firstAt)).toBeLessThanOrEqual(Date.now());
    const past = await reveal(bench.customer, id, phone('2020-01-01T00:00:00.000Z'), crypto.randomUUID());
    // An earlier reveal sent later becomes the first one, at the delivery at the earliest.
    expect(past.body.views).toMatchObject({ count: 2, firstAt: new Date(row.delivered_at!).toISOString() });
  });

  it('shows staff the first view on the order, in its sync and in its history, with the device label', async () => {
    const id = await deliveredOrder();
    const firstAt = new Date().toISOString();
    await reveal(bench.customer, id, { deviceId: 'dev-a', deviceLabel: 'Safari on iPhone', revealedAt: firstAt }, crypto.randomUUID());
    await reveal(bench.customer, id, { deviceId: 'dev-b', deviceLabel: 'Firefox on Windows', revealedAt: new Date().toISOString() }, crypto.randomUUID());

    const staff = await bench.api.call<Order>('GET', `/api/admin/orders/${id}`, { user: bench.moderator });
    expect(staff.body.views).toEqual({ count: 2, firstAt, firstDevice: 'Safari on iPhone' });
    expect(staff.body.wisePassword).toBeUndefined();

    const synced = await bench.api.call<SyncResponse>('GET', '/api/sync?scope=private&cursor=0', { user: bench.moderator });
    expect(synced.body.changes.orders?.find((order) => order.id === id)?.views?.firstDevice).toBe('Safari on iPhone');

    const history = await bench.api.call<AuditEntry[]>('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: bench.admin });
    const firstViews = history.body.filter((entry) => entry.action === 'order.first_view');
    expect(firstViews).toHaveLength(1);
    expect(firstViews[0]).toMatchObject({
      actorEmail: bench.customer.email,
      details: { revealedAt: firstAt, deviceLabel: 'Safari on iPhone', deviceId: 'dev-a' },
    });
  });
});

describe('the reveal log’s limit per customer', () => {
  it('answers 429 with Retry-After past the limit, recording nothing; replays and other customers go on as before', async () => {
    const limited = await inProcessHarness({ rateLimits: { revealsPer10Min: 3 } }, undefined, { clock: clockInNextWindow(600_000) });
    try {
      const [admin, moderator, customer, other] = await Promise.all([
        limited.createUser('admin'),
        limited.createUser('moderator'),
        limited.createUser('user'),
        limited.createUser('user'),
      ]);
      const orders = await createOrderFixtures(limited, { admin, moderator, customer });
      const delivered = async (user: TestUser) => {
        const id = await orders.placeOrder(user);
        expect((await orders.deliverTyped(id, `limit-${random()}@wise.test`, `Limit-${random()}`)).status).toBe(200);
        return id;
      };
      const [id, othersId] = [await delivered(customer), await delivered(other)];
      const send = (user: TestUser, orderId: string, key: string, body = phone(new Date().toISOString())) =>
        limited.app.request(`/api/orders/${orderId}/reveals`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
      const rows = (orderId: string) => limited.db.selectFrom('credential_reveals').select('id').where('order_id', '=', orderId).execute();

      const firstKey = crypto.randomUUID();
      const firstBody = phone(new Date().toISOString());
      expect((await send(customer, id, firstKey, firstBody)).status).toBe(200);
      expect((await send(customer, id, crypto.randomUUID())).status).toBe(200);
      // A replay of a logged reveal (the outbox sending an entry again) answers as the first time and is not counted.
      for (let i = 0; i < 3; i += 1) {
        const replay = await send(customer, id, firstKey, firstBody);
        expect(replay.status).toBe(200);
        expect(((await replay.json()) as Order).views?.count).toBe(2);
      }
      expect((await send(customer, id, crypto.randomUUID())).status).toBe(200);
      const before = await orders.orderRow(id);
      expect(before.reveal_count).toBe(3);

      const refusedKey = crypto.randomUUID();
      const refused = await send(customer, id, refusedKey);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(((await refused.json()) as ErrorBody).error.code).toBe('rate_limited');
      // Nothing written: no row, no new version for staff devices to sync, no key kept (the retry later is logged).
      expect(await rows(id)).toHaveLength(3);
      const after = await orders.orderRow(id);
      expect(after.version).toBe(before.version);
      expect(after.reveal_count).toBe(3);
      const kept = await limited.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('user_id', '=', customer.id)
        .where('key', 'like', `%${refusedKey}`)
        .execute();
      expect(kept).toHaveLength(0);
      // Replays still answer their first result past the limit.
      const lateReplay = await send(customer, id, firstKey, firstBody);
      expect(lateReplay.status).toBe(200);

      // Another customer has a budget of their own.
      for (let i = 0; i < 3; i += 1) expect((await send(other, othersId, crypto.randomUUID())).status).toBe(200);
      expect(await rows(othersId)).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});
