import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import { claimPushes, PUSH_DEVICES_MAX } from '../db/push.ts';
import type { Logger } from '../lib/logger.ts';
import { PUSH_LEASE_MS, pushesSettled, sendDuePushesEvery, sendWaitingPushes } from '../push/send.ts';
import { generateVapidKeys, pushConfigFrom, type PushConfig } from '../push/vapid.ts';
import { remoteApi, type TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';
import { decryptPush, startPushService, type TestSubscription } from '../testing/push-service.ts';

// Issue 17, item 4: web push (decision 067). The push service is a third party: a stand-in on this
// machine records what the API posts, and each message is decrypted with the subscription's private key
// as a browser would.

const bench = orderTestBench();
let pushService: Awaited<ReturnType<typeof startPushService>>;
let push: PushConfig | undefined;

beforeAll(async () => {
  pushService = await startPushService();
  if (bench.api.mode === 'in-process') {
    push = await pushConfigFrom(await generateVapidKeys(), 'mailto:owner@example.test', true);
    bench.api.deps.config.push = push;
    if (process.env.PUSH_DEBUG) bench.api.deps.logger = (await import('../lib/logger.ts')).consoleLogger();
  }
});
afterAll(() => pushService.close());

const subscribeBody = (sub: TestSubscription, deviceId = 'device-phone-1') => ({
  endpoint: sub.endpoint,
  expirationTime: null,
  keys: sub.keys,
  deviceId,
  deviceLabel: 'Chrome on Android',
});
const subscribe = (user: TestUser | undefined, json: unknown) =>
  bench.api.call<{ subscribed: true; createdAt: string } & ErrorBody>('POST', '/api/push/subscriptions', { user, json });
const unsubscribe = (user: TestUser | undefined, json: unknown) =>
  bench.api.call<{ removed: boolean } & ErrorBody>('DELETE', '/api/push/subscriptions', { user, json });
const rowsOf = (endpoint: string) => bench.api.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).execute();

/** In this process: every send the API started has finished. Against a remote entry: until the condition holds. */
async function settled(until?: () => Promise<boolean>) {
  if (bench.api.mode === 'in-process') return pushesSettled();
  while (until && !(await until())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('push subscriptions', () => {
  it('need a signed-in user with a user record', async () => {
    const sub = pushService.subscription();
    expect((await subscribe(undefined, subscribeBody(sub))).status).toBe(401);
    expect((await unsubscribe(undefined, { endpoint: sub.endpoint })).status).toBe(401);
    const account = await bench.api.createAccount();
    expect((await bench.api.call('POST', '/api/push/subscriptions', { user: account, json: subscribeBody(sub) })).status).toBe(403);
    expect(await rowsOf(sub.endpoint)).toEqual([]);
  });

  it('refuse a bad body with 400 naming the field, and keep nothing', async () => {
    const sub = pushService.subscription();
    const good = subscribeBody(sub);
    const bad: [unknown, string][] = [
      [{ ...good, endpoint: 'not a url' }, 'endpoint'],
      [{ ...good, endpoint: 'ftp://push.example.test/x' }, 'endpoint'],
      [{ ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } }, 'keys.p256dh'],
      [{ ...good, keys: { ...good.keys, auth: 'not base64url!' } }, 'keys.auth'],
      [{ ...good, keys: { p256dh: good.keys.p256dh } }, 'keys.auth'],
      [{ ...good, deviceId: '' }, 'deviceId'],
      [{ ...good, extra: 1 }, ''],
      [{ endpoint: sub.endpoint }, 'keys'],
    ];
    for (const [json, path] of bad) {
      const refused = await subscribe(bench.customer, json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(errorPaths(refused.body).join(',')).toContain(path);
    }
    expect((await unsubscribe(bench.customer, {})).status).toBe(400);
    expect(await rowsOf(sub.endpoint)).toEqual([]);
  });

  it.skipIf(remoteApi !== undefined)('refuse a plain-http endpoint unless local push services are allowed (tests only)', async () => {
    const sub = pushService.subscription();
    bench.api.deps.config.push = { ...push!, allowLocalEndpoints: false };
    try {
      const refused = await subscribe(bench.customer, subscribeBody(sub));
      expect(refused.status).toBe(400);
      expect(errorPaths(refused.body)).toEqual(['endpoint']);
    } finally {
      bench.api.deps.config.push = push;
    }
    expect(await rowsOf(sub.endpoint)).toEqual([]);
  });

  it('refuse an https endpoint that is not a browser push service, so the server never posts where an account says', async () => {
    const sub = pushService.subscription();
    for (const endpoint of ['https://internal.example.test/hook', 'https://fcm.googleapis.com.evil.test/fcm/send/x', 'https://169.254.169.254/latest']) {
      const refused = await subscribe(bench.customer, { ...subscribeBody(sub), endpoint });
      expect(refused.status, endpoint).toBe(400);
      expect(errorPaths(refused.body)).toEqual(['endpoint']);
      expect(await rowsOf(endpoint)).toEqual([]);
    }
    const chrome = 'https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91b-test';
    const firefox = 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABtest';
    for (const endpoint of [chrome, firefox]) {
      expect((await subscribe(bench.customer, { ...subscribeBody(sub), endpoint })).status, endpoint).toBe(201);
      expect((await unsubscribe(bench.customer, { endpoint })).body).toEqual({ removed: true });
    }
  });

  it('keep one row per endpoint: subscribing again replaces the keys, and another account on the same browser takes it over', async () => {
    const sub = pushService.subscription();
    const first = await subscribe(bench.customer, subscribeBody(sub));
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const renewed = pushService.subscription();
    expect((await subscribe(bench.customer, { ...subscribeBody(sub), keys: renewed.keys })).status).toBe(201);
    let rows = await rowsOf(sub.endpoint);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: bench.customer.id,
      p256dh: renewed.keys.p256dh,
      auth: renewed.keys.auth,
      device_id: 'device-phone-1',
      device_label: 'Chrome on Android',
    });

    const other = await bench.api.createUser('user');
    expect((await subscribe(other, subscribeBody(sub, 'device-shared'))).status).toBe(201);
    rows = await rowsOf(sub.endpoint);
    expect(rows.map((row) => [row.user_id, row.device_id])).toEqual([[other.id, 'device-shared']]);
  });

  it('keep at most PUSH_DEVICES_MAX per account, the newest: an account cannot pile up endpoints for the server to post to', async () => {
    const user = await bench.api.createUser('user');
    const other = await bench.api.createUser('user');
    const theirs = pushService.subscription();
    expect((await subscribe(other, subscribeBody(theirs, 'device-theirs'))).status).toBe(201);
    const subs = Array.from({ length: PUSH_DEVICES_MAX + 3 }, () => pushService.subscription());
    for (const [i, sub] of subs.entries()) expect((await subscribe(user, subscribeBody(sub, `device-${i}`))).status).toBe(201);
    const kept = await bench.api.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', user.id).execute();
    expect(kept.map((row) => row.endpoint).sort()).toEqual(
      subs
        .slice(3)
        .map((sub) => sub.endpoint)
        .sort(),
    );
    // Subscribing again an endpoint already kept takes no other one's place; another account's are not touched.
    expect((await subscribe(user, subscribeBody(subs.at(-1)!, 'device-again'))).status).toBe(201);
    expect(await bench.api.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(PUSH_DEVICES_MAX);
    expect(await rowsOf(theirs.endpoint)).toHaveLength(1);
  });

  it('are removed at sign-out by their owner only', async () => {
    const sub = pushService.subscription();
    expect((await subscribe(bench.customer, subscribeBody(sub))).status).toBe(201);
    const stranger = await bench.api.createUser('user');
    expect((await unsubscribe(stranger, { endpoint: sub.endpoint })).body).toEqual({ removed: false });
    expect(await rowsOf(sub.endpoint)).toHaveLength(1);
    const removed = await unsubscribe(bench.customer, { endpoint: sub.endpoint });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ removed: true });
    expect(await rowsOf(sub.endpoint)).toEqual([]);
    // Signing out twice (or on a device that never subscribed) is not an error.
    expect((await unsubscribe(bench.customer, { endpoint: sub.endpoint })).body).toEqual({ removed: false });
  });

  it('after "sign out other devices", only this device keeps its subscription', async () => {
    const user = await bench.api.createUser('user');
    const [here, lost, old] = [pushService.subscription(), pushService.subscription(), pushService.subscription()];
    for (const [sub, device] of [
      [here, 'device-here'],
      [lost, 'device-lost'],
      [old, 'device-old'],
    ] as const) {
      expect((await subscribe(user, subscribeBody(sub, device))).status).toBe(201);
    }
    const other = await bench.api.createUser('user');
    const theirs = pushService.subscription();
    expect((await subscribe(other, subscribeBody(theirs))).status).toBe(201);

    expect((await bench.api.call('POST', '/api/push/subscriptions/others', { json: { keep: here.endpoint } })).status).toBe(401);
    expect((await bench.api.call('POST', '/api/push/subscriptions/others', { user, json: { keep: 'nope' } })).status).toBe(400);
    const pruned = await bench.api.call<{ removed: number }>('POST', '/api/push/subscriptions/others', { user, json: { keep: here.endpoint } });
    expect(pruned.status).toBe(200);
    expect(pruned.body).toEqual({ removed: 2 });
    expect(await rowsOf(here.endpoint)).toHaveLength(1);
    expect([...(await rowsOf(lost.endpoint)), ...(await rowsOf(old.endpoint))]).toEqual([]);
    // Someone else's are not touched; with no device of its own kept, every one of the caller's goes.
    expect(await rowsOf(theirs.endpoint)).toHaveLength(1);
    expect((await bench.api.call<{ removed: number }>('POST', '/api/push/subscriptions/others', { user, json: { keep: null } })).body).toEqual({ removed: 1 });
  });
});

describe('push messages', () => {
  it('the browser gets the public key at runtime, never the private one', async () => {
    const config = await bench.api.call<{ pushPublicKey: string | null }>('GET', '/api/config');
    // Against a remote entry, the keys it was started with (scripts/workers-suite.ts).
    expect(config.body.pushPublicKey).toBe(push?.publicKey ?? process.env.TEST_PUSH_PUBLIC_KEY);
    expect(config.body.pushPublicKey).toMatch(/^[\w-]{87}$/);
    expect(JSON.stringify(config.body)).not.toContain(push?.privateKey ?? process.env.TEST_PUSH_PRIVATE_KEY);
  });

  it('queue nothing in a shop where nobody subscribed (the outbox stays empty without a send)', async () => {
    const customer = await bench.api.createUser('user');
    const orderId = await bench.orders.placeOrder(customer);
    const version = await bench.api.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
      const { tellCustomer } = await import('../operations/customer-push.ts');
      await tellCustomer(trx, before, { ...before, order_status: 'processing' });
      return (await trx.selectFrom('push_outbox').select('id').where('user_id', '=', customer.id).execute()).length;
    });
    expect(version).toBe(0);
  });

  // In this process only: that no round ran is known from pushesSettled(); against a remote entry a round
  // that has not run yet cannot be told from one that never will.
  it.skipIf(remoteApi !== undefined)('send after a write that queued a message, and run no send round after one that told nobody', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    // A message left waiting (as by a process stopped before its round): a write telling nobody leaves it.
    await bench.api.db
      .insertInto('push_outbox')
      .values({ user_id: customer.id, to_staff: false, payload: JSON.stringify({ title: 'Left waiting', body: 'x', url: '/my-orders', tag: 't' }) })
      .execute();
    const quiet = await bench.api.createUser('user');
    expect((await subscribe(quiet, subscribeBody(pushService.subscription(), 'device-quiet'))).status).toBe(201);
    await settled();
    expect(await bench.api.db.selectFrom('push_outbox').select('id').where('user_id', '=', customer.id).execute()).toHaveLength(1);
    // A delivery that tells the customer: its round takes the waiting message too.
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `round-${random()}@wise.test`, `Round-${random()}`)).status).toBe(200);
    const titles = [
      (decryptPush(await pushService.next(sub), sub) as { title: string }).title,
      (decryptPush(await pushService.next(sub), sub) as { title: string }).title,
    ];
    expect(titles.sort()).toEqual(['Left waiting', 'Order delivered']);
    await settled();
    expect(await bench.api.db.selectFrom('push_outbox').select('id').where('user_id', '=', customer.id).execute()).toEqual([]);
  });

  it('tell a subscribed customer that the order is delivered, encrypted to the subscription, with no credential in it', async () => {
    const customer = await bench.api.createUser('user');
    const phone = pushService.subscription();
    const tablet = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(phone))).status).toBe(201);
    expect((await subscribe(customer, subscribeBody(tablet, 'device-tablet-2'))).status).toBe(201);
    const orderId = await bench.orders.placeOrder(customer);
    const password = `Push-${random()}`;
    const delivered = await bench.orders.deliverTyped(orderId, `push-${random()}@wise.test`, password);
    expect(delivered.status).toBe(200);

    for (const sub of [phone, tablet]) {
      const message = await pushService.next(sub);
      expect(message.headers['content-encoding']).toBe('aes128gcm');
      expect(message.headers.ttl).toBeDefined();
      // VAPID (RFC 8292): signed by the shop's key, which the browser subscribed with.
      expect(message.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
      expect(message.headers.authorization).toContain(`k=${push?.publicKey ?? process.env.TEST_PUSH_PUBLIC_KEY}`);
      expect(message.body.includes(Buffer.from(password))).toBe(false);
      const payload = decryptPush(message, sub);
      expect(payload).toEqual({
        title: 'Order delivered',
        body: expect.stringContaining('your order is delivered') as unknown,
        url: `/my-orders#order-${orderId}`,
        tag: `order-${orderId}`,
      });
      expect(JSON.stringify(payload)).not.toContain(password);
    }
    // Sent, then deleted: the row goes a moment after the messages arrive.
    await settled(async () => (await outboxOf(customer)).length === 0);
    expect(await outboxOf(customer)).toEqual([]);
  });

  it('tell the customer of a status change and of a replacement, and nobody else', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    const orderId = await bench.orders.placeOrder(customer);
    const processing = await bench.api.call<Order>('PUT', `/api/admin/orders/${orderId}`, { user: bench.moderator, json: { orderStatus: 'processing' } });
    expect(processing.status).toBe(200);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({
      title: 'Order status changed',
      body: expect.stringContaining('now Processing') as unknown,
    });

    expect((await bench.orders.deliverTyped(orderId, `first-${random()}@wise.test`, `First-${random()}`)).status).toBe(200);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Order delivered' });
    expect((await bench.orders.deliverTyped(orderId, `second-${random()}@wise.test`, `Second-${random()}`, { replace: true })).status).toBe(200);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Delivery replaced', url: `/my-orders#order-${orderId}` });
    await settled();
    // The customer's own messages only: three, all to this endpoint.
    expect(pushService.received.filter((message) => message.path === new URL(sub.endpoint).pathname)).toHaveLength(3);
  });

  it('tell the customer when the password of their delivery is rotated and when their problem report is answered', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    const stockId = await bench.orders.seedStock(`rotate-${random()}@wise.test`, `Rotate-${random()}`);
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.api.call('PUT', `/api/admin/orders/${orderId}`, { user: bench.admin, json: { stockId } })).status).toBe(200);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Order delivered' });

    const rotated = await bench.api.call('POST', `/api/wise-stocks/${stockId}/password`, { user: bench.admin, json: { wisePassword: `Rotated-${random()}` } });
    expect(rotated.status).toBe(200);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Password changed', url: `/my-orders#order-${orderId}` });

    // A report as the customer's (warranty rules are after-sales.test.ts's): open on the order.
    await bench.api.db.updateTable('orders').set({ report_status: 'open', report_reason: 'login_fails' }).where('id', '=', orderId).execute();
    const declined = await bench.api.call('POST', `/api/admin/orders/${orderId}/report/decline`, {
      user: bench.moderator,
      json: { message: 'It works: use the new password.' },
    });
    expect(declined.status).toBe(200);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Problem report answered' });
  });

  it('tell subscribed staff of a new order and of a payment proof, not customers', async () => {
    const admin = await bench.api.createUser('admin');
    const staffSub = pushService.subscription();
    expect((await subscribe(admin, subscribeBody(staffSub, 'device-office'))).status).toBe(201);
    const customer = await bench.api.createUser('user');
    const customerSub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(customerSub))).status).toBe(201);

    const orderId = await bench.orders.placeOrder(customer);
    const newOrder = decryptPush(await pushService.next(staffSub), staffSub) as { title: string; body: string; url: string };
    expect(newOrder).toMatchObject({ title: 'New order', url: '/dashboard/notifications' });
    expect(newOrder.body).toContain(orderId.slice(-8));

    const proof = await bench.api.call('PUT', `/api/orders/${orderId}/payment-proof`, { user: customer, json: { transactionId: `TX-${random()}` } });
    expect(proof.status).toBe(200);
    expect(decryptPush(await pushService.next(staffSub), staffSub)).toMatchObject({ title: 'Payment to check' });
    await settled();
    // The customer placed the order and sent the proof: nothing was sent to them.
    expect(pushService.received.filter((message) => message.path === new URL(customerSub.endpoint).pathname)).toEqual([]);
    // Staff subscriptions stay for the other tests' orders; this one goes.
    expect((await unsubscribe(admin, { endpoint: staffSub.endpoint })).body).toEqual({ removed: true });
  });

  it('remove a subscription the push service says is gone (410), and the delivery is not failed by it', async () => {
    const customer = await bench.api.createUser('user');
    const gone = { ...pushService.subscription(`gone/${random()}`) };
    expect((await subscribe(customer, subscribeBody(gone))).status).toBe(201);
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `gone-${random()}@wise.test`, `Gone-${random()}`)).status).toBe(200);
    await pushService.next(gone);
    await settled(async () => (await rowsOf(gone.endpoint)).length === 0);
    expect(await rowsOf(gone.endpoint)).toEqual([]);
  });

  it('a push service that cannot be reached does not fail the change, and the message waits for its next attempt', async () => {
    const customer = await bench.api.createUser('user');
    // A port nobody listens on: the stand-in's own, once closed.
    const dead = await startPushService();
    const sub = dead.subscription();
    await dead.close();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `dead-${random()}@wise.test`, `Dead-${random()}`)).status).toBe(200);
    const [waiting] = await putBack(customer);
    expect(waiting).toMatchObject({ attempts: 1, sent_to: [] });
    // Not a 404/410: the subscription stays for the next attempt and the next message.
    expect(await rowsOf(sub.endpoint)).toHaveLength(1);
    // Gone from the account: the next attempt finds nobody to send to, and the message goes.
    expect((await unsubscribe(customer, { endpoint: sub.endpoint })).body).toEqual({ removed: true });
    await retryNow(customer);
    await waitFor(async () => (await outboxOf(customer)).length === 0, 'the message to go');
  });
});

/** The customer's waiting messages. */
const outboxOf = (user: TestUser) => bench.api.db.selectFrom('push_outbox').selectAll().where('user_id', '=', user.id).orderBy('id').execute();

/** Until `condition` holds (a send in the background: this process's, or the worker's). */
async function waitFor(condition: () => Promise<boolean>, what: string) {
  for (let waited = 0; !(await condition()); waited += 50) {
    if (waited > 20_000) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Until the user's messages are all back in the outbox after a failed attempt (no sender holds one). */
async function putBack(user: TestUser) {
  await settled();
  await waitFor(async () => {
    const rows = await outboxOf(user);
    return rows.length > 0 && rows.every((row) => row.claimed_until === null && row.attempts > 0);
  }, 'a message put back after a failed attempt');
  return outboxOf(user);
}

/**
 * The sender that runs when no write happens, once: the Node entry's timer (the same function), or the
 * worker's cron trigger (wrangler dev runs the scheduled handler on /cdn-cgi/local/scheduled).
 */
async function runSender() {
  if (bench.api.mode === 'in-process') return sendWaitingPushes(bench.api.deps);
  const answer = await fetch(`${remoteApi!.url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  await answer.text();
  expect(answer.status).toBe(200);
}

/** The wait after a failed attempt has passed (the database's clock is the one senders read): then the sender runs. */
async function retryNow(user: TestUser) {
  await bench.api.db
    .updateTable('push_outbox')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('user_id', '=', user.id)
    .where('claimed_until', 'is', null)
    .execute();
  await runSender();
}

const secondsFromNow = async (at: Date) => {
  const { rows } = await sql<{ seconds: number }>`select extract(epoch from (${at}::timestamptz - now()))::float8 as seconds`.execute(bench.api.db);
  return rows[0]!.seconds;
};

describe('push retries (decision 134)', () => {
  it('a message the push service failed (503, 429 with Retry-After, a dropped connection) is sent again later, and arrives once', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    const path = new URL(sub.endpoint).pathname;
    pushService.failNext(sub, 1, { status: 503 });
    pushService.failNext(sub, 1, { status: 429, retryAfter: '900' });
    pushService.failNext(sub, 1, 'drop');
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `retry-${random()}@wise.test`, `Retry-${random()}`)).status).toBe(200);

    // 503: back in the outbox, due after the first wait (30 s), not before.
    let [row] = await putBack(customer);
    expect(row).toMatchObject({ attempts: 1 });
    expect(await secondsFromNow(row!.next_attempt_at)).toBeGreaterThan(15);
    await runSender();
    expect(pushService.failed.filter((message) => message.path === path)).toHaveLength(1);

    // 429 asking for 15 minutes: longer than the second wait (2 min), so it is followed.
    await retryNow(customer);
    [row] = await putBack(customer);
    expect(row).toMatchObject({ attempts: 2 });
    expect(await secondsFromNow(row!.next_attempt_at)).toBeGreaterThan(800);

    // The connection cut without an answer: tried again too.
    await retryNow(customer);
    [row] = await putBack(customer);
    expect(row).toMatchObject({ attempts: 3 });
    expect(pushService.failed.filter((message) => message.path === path)).toHaveLength(3);
    expect(pushService.received.filter((message) => message.path === path)).toEqual([]);

    await retryNow(customer);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Order delivered', url: `/my-orders#order-${orderId}` });
    await waitFor(async () => (await outboxOf(customer)).length === 0, 'the sent message to leave the outbox');
    expect(pushService.received.filter((message) => message.path === path)).toHaveLength(1);
  });

  it('a retry goes only to the devices that have not had the message', async () => {
    const customer = await bench.api.createUser('user');
    const [phone, laptop] = [pushService.subscription(), pushService.subscription()];
    expect((await subscribe(customer, subscribeBody(phone))).status).toBe(201);
    expect((await subscribe(customer, subscribeBody(laptop, 'device-laptop'))).status).toBe(201);
    pushService.failNext(laptop, 1, { status: 500 });
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `two-${random()}@wise.test`, `Two-${random()}`)).status).toBe(200);
    expect(decryptPush(await pushService.next(phone), phone)).toMatchObject({ title: 'Order delivered' });
    const [row] = await putBack(customer);
    expect(row!.sent_to).toHaveLength(1);
    await retryNow(customer);
    expect(decryptPush(await pushService.next(laptop), laptop)).toMatchObject({ title: 'Order delivered' });
    await waitFor(async () => (await outboxOf(customer)).length === 0, 'the sent message to leave the outbox');
    expect(pushService.received.filter((message) => message.path === new URL(phone.endpoint).pathname)).toHaveLength(1);
  });

  it('a subscription gone (410) on a retry is removed, and its message with it', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription(`gone/${random()}`);
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    pushService.failNext(sub, 1, { status: 502 });
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `gone-${random()}@wise.test`, `Gone-${random()}`)).status).toBe(200);
    await putBack(customer);
    await retryNow(customer);
    await pushService.next(sub);
    await waitFor(async () => (await rowsOf(sub.endpoint)).length === 0 && (await outboxOf(customer)).length === 0, 'the subscription and its message to go');
  });

  it('a message is dropped after its fifth attempt, logged with the subscription and host but never the endpoint path', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    const path = new URL(sub.endpoint).pathname;
    pushService.failNext(sub, 6, { status: 503 });
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const original = bench.api.mode === 'in-process' ? bench.api.deps.logger : undefined;
    if (bench.api.mode === 'in-process') {
      const keep = (message: string, fields?: Record<string, unknown>) => void logged.push([message, fields]);
      bench.api.deps.logger = { info: keep, warn: keep, error: keep } satisfies Logger;
    }
    try {
      const orderId = await bench.orders.placeOrder(customer);
      expect((await bench.orders.deliverTyped(orderId, `drop-${random()}@wise.test`, `Drop-${random()}`)).status).toBe(200);
      for (let attempt = 1; attempt < 5; attempt++) {
        expect(await putBack(customer)).toMatchObject([{ attempts: attempt }]);
        await retryNow(customer);
      }
      await waitFor(async () => (await outboxOf(customer)).length === 0, 'the message to be dropped');
      expect(pushService.failed.filter((message) => message.path === path)).toHaveLength(5);
      expect(pushService.received.filter((message) => message.path === path)).toEqual([]);
      // The subscription stays: only this message is given up on.
      expect(await rowsOf(sub.endpoint)).toHaveLength(1);
    } finally {
      if (original && bench.api.mode === 'in-process') bench.api.deps.logger = original;
      await unsubscribe(customer, { endpoint: sub.endpoint });
    }
    if (bench.api.mode === 'in-process') {
      const dropped = logged.filter(([message]) => message.includes('dropped after its last attempt'));
      expect(dropped).toHaveLength(1);
      expect(dropped[0]![1]).toMatchObject({ host: new URL(sub.endpoint).host, status: 503, attempt: 5 });
      expect(dropped[0]![1]!.subscription).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(logged)).not.toContain(path);
      expect(JSON.stringify(logged)).not.toContain(sub.keys.auth);
    }
  });

  it('two senders at once never send one message twice, and a message held by a sender (its lease) is left to it', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    const path = new URL(sub.endpoint).pathname;
    const queue = (count: number, title: string) =>
      bench.api.db
        .insertInto('push_outbox')
        .values(
          Array.from({ length: count }, (_, i) => ({
            user_id: customer.id,
            to_staff: false,
            payload: JSON.stringify({ title: `${title} ${i}`, body: 'x', url: '/my-orders', tag: `t${i}` }),
          })),
        )
        .execute();
    await queue(30, 'Burst');
    await Promise.all([runSender(), runSender(), runSender()]);
    await settled();
    await waitFor(
      async () => pushService.received.filter((message) => message.path === path).length >= 30 && (await outboxOf(customer)).length === 0,
      'the burst',
    );
    const titles = pushService.received.filter((message) => message.path === path).map((message) => (decryptPush(message, sub) as { title: string }).title);
    expect(titles).toHaveLength(30);
    expect(new Set(titles).size).toBe(30);

    // A sender took a message and stopped mid-send (a process killed): while its lease holds nobody sends
    // it; once the lease is over the next sender does, and the attempt it lost counts.
    await queue(1, 'Held');
    const taken = await claimPushes(bench.api.db, 10, PUSH_LEASE_MS);
    expect(taken.map((message) => message.user_id)).toEqual([customer.id]);
    await runSender();
    expect(pushService.received.filter((message) => message.path === path)).toHaveLength(30);
    expect(await outboxOf(customer)).toMatchObject([{ attempts: 1 }]);
    await bench.api.db
      .updateTable('push_outbox')
      .set({ claimed_until: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', customer.id)
      .execute();
    await runSender();
    // The push service records a delivery after it has answered: wait for the record too, not only the outbox.
    // As the cron does, a later run sends it if this one did not (CI saw it still waiting after 20 s once,
    // under workerd, cause not found; a failed read or send is logged and left to a later run, after its
    // wait): never twice, checked below.
    let checks = 0;
    await waitFor(async () => {
      const done = (await outboxOf(customer)).length === 0 && pushService.received.filter((message) => message.path === path).length >= 31;
      if (!done && ++checks % 40 === 0) await retryNow(customer);
      return done;
    }, 'the held message to be sent');
    const sent = pushService.received.filter((message) => message.path === path);
    expect(sent).toHaveLength(31);
    expect(decryptPush(sent.at(-1)!, sub)).toMatchObject({ title: 'Held 0' });
    await unsubscribe(customer, { endpoint: sub.endpoint });
  });

  // The Node entry's timer (node-server.ts starts it every 30 s with the server and stops it before the database closes).
  it.skipIf(remoteApi !== undefined)('the Node entry sends a message that is due again with no write happening, and stops when told', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    pushService.failNext(sub, 1, { status: 503 });
    const orderId = await bench.orders.placeOrder(customer);
    expect((await bench.orders.deliverTyped(orderId, `timer-${random()}@wise.test`, `Timer-${random()}`)).status).toBe(200);
    await putBack(customer);
    if (bench.api.mode !== 'in-process') throw new Error('in this process only');
    const timer = sendDuePushesEvery(bench.api.deps, 50);
    try {
      await bench.api.db
        .updateTable('push_outbox')
        .set({ next_attempt_at: sql<Date>`now()` })
        .where('user_id', '=', customer.id)
        .execute();
      expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Order delivered' });
      await waitFor(async () => (await outboxOf(customer)).length === 0, 'the sent message to leave the outbox');
    } finally {
      await timer.stop();
    }
    await unsubscribe(customer, { endpoint: sub.endpoint });
  });

  it.skipIf(remoteApi !== undefined)('the Node entry stopping cuts a send short and puts the message back for the next sender', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    pushService.failNext(sub, 1, 'hang');
    const path = new URL(sub.endpoint).pathname;
    if (bench.api.mode !== 'in-process') throw new Error('in this process only');
    await bench.api.db
      .insertInto('push_outbox')
      .values({ user_id: customer.id, to_staff: false, payload: JSON.stringify({ title: 'Cut short', body: 'x', url: '/my-orders', tag: 't' }) })
      .execute();
    const timer = sendDuePushesEvery(bench.api.deps, 20);
    await waitFor(async () => pushService.failed.some((message) => message.path === path), 'the post that gets no answer');
    const stopping = performance.now();
    await timer.stop();
    // Well within the process's shutdown budget, not the 10 s a push service is given.
    expect(performance.now() - stopping).toBeLessThan(2000);
    expect(await outboxOf(customer)).toMatchObject([{ attempts: 1, claimed_until: null }]);
    await retryNow(customer);
    expect(decryptPush(await pushService.next(sub), sub)).toMatchObject({ title: 'Cut short' });
    await waitFor(async () => (await outboxOf(customer)).length === 0, 'the message to be sent');
    await unsubscribe(customer, { endpoint: sub.endpoint });
  });

  it("a message that cannot be encrypted to a subscription's keys is not tried again", async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    // Keys of the right length that are no point on the curve (the API refuses none of that shape).
    const broken = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
    await bench.api.db
      .insertInto('push_subscriptions')
      .values({ user_id: customer.id, endpoint: sub.endpoint, p256dh: broken, auth: sub.keys.auth, device_id: 'd', device_label: 'x' })
      .execute();
    await bench.api.db
      .insertInto('push_outbox')
      .values({ user_id: customer.id, to_staff: false, payload: JSON.stringify({ title: 'Broken', body: 'x', url: '/my-orders', tag: 't' }) })
      .execute();
    await runSender();
    await waitFor(async () => (await outboxOf(customer)).length === 0, 'the message to go');
    expect(pushService.received.filter((message) => message.path === new URL(sub.endpoint).pathname)).toEqual([]);
    await bench.api.db.deleteFrom('push_subscriptions').where('endpoint', '=', sub.endpoint).execute();
  });

  it('a message older than a day is dropped unsent (the order card has said it all by then)', async () => {
    const customer = await bench.api.createUser('user');
    const sub = pushService.subscription();
    expect((await subscribe(customer, subscribeBody(sub))).status).toBe(201);
    await bench.api.db
      .insertInto('push_outbox')
      .values({
        user_id: customer.id,
        to_staff: false,
        payload: JSON.stringify({ title: 'Stale', body: 'x', url: '/my-orders', tag: 't' }),
        created_at: sql<Date>`now() - interval '25 hours'`,
      })
      .execute();
    await runSender();
    expect(await outboxOf(customer)).toEqual([]);
    expect(pushService.received.filter((message) => message.path === new URL(sub.endpoint).pathname)).toEqual([]);
    await unsubscribe(customer, { endpoint: sub.endpoint });
  });
});
