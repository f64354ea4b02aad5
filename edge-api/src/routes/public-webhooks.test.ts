import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminWebhook, ApiOrder, ApiWebhookDelivery, CreatedApiKey } from '../contract/partners.ts';
import { createApiHarness, remoteApi, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { createOrderFixtures, type ErrorBody } from '../testing/order-fixtures.ts';
import { sweepDeliveredWebhooks } from '../db/webhooks.ts';
import { endpointProblem } from '../webhooks/endpoint-url.ts';
import { nodeWebhookNetwork } from '../webhooks/node-network.ts';
import { sendDueWebhooks, webhooksSettled } from '../webhooks/send.ts';

/** What the receiver saw of one post. */
interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  answered: number;
}

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let reseller: TestUser;
let fixtures: Awaited<ReturnType<typeof createOrderFixtures>>;
let receiver: Server;
let port: number;
const received: Received[] = [];

/** A receiver on this machine: /hook answers 500 to the first two posts of each webhook-id, then 200; /moved redirects. */
function startReceiver(): Promise<void> {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      const seen = received.filter((r) => r.id === id && r.path === request.url).length;
      const answered = request.url === '/moved' ? 302 : seen < 2 ? 500 : 200;
      received.push({
        path: request.url ?? '',
        id,
        timestamp: String(request.headers['webhook-timestamp']),
        signature: String(request.headers['webhook-signature']),
        body,
        answered,
      });
      response.writeHead(answered, answered === 302 ? { location: `http://localhost:${port}/hook` } : {}).end();
    });
  });
  return new Promise((done) => receiver.listen(0, '127.0.0.1', () => done()));
}

/** Standard Webhooks verification, written here from the spec rather than with the server's code. */
function validSignature(secret: string, post: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${post.id}.${post.timestamp}.${post.body}`).digest();
  return post.signature.split(' ').some((part) => {
    const [version, value] = part.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * Every post the API started after a write has ended. In this process: the sends it runs. Against a
 * remote entry (the worker sends in waitUntil): until no delivery is taken and each has had an attempt.
 */
async function settled() {
  if (api.mode === 'in-process') return webhooksSettled();
  for (let i = 0; i < 200; i += 1) {
    const open = await api.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where((eb) => eb.or([eb('claimed_until', 'is not', null), eb('attempts', '=', 0)]))
      .where('state', '=', 'pending')
      .execute();
    if (open.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Time passes: every delivery put back is due now, and the sender that runs without a write runs once (the Node timer's function, or the worker's cron). */
async function nextRound() {
  await api.db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: new Date(Date.now() - 1000) })
    .where('state', '=', 'pending')
    .execute();
  if (api.mode === 'in-process') return sendDueWebhooks(api.deps);
  const answer = await fetch(`${remoteApi!.url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  await answer.text();
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  await startReceiver();
  port = (receiver.address() as AddressInfo).port;
  api = await createApiHarness();
  // The named test host; a remote entry has it from WEBHOOK_TEST_HOSTS (scripts/workers-suite.ts). In this
  // process the posts go as the Node entry sends them: pinned to the addresses checked (decision 243).
  if (api.mode === 'in-process') api.deps.config.webhooks = { allowHosts: ['localhost'], network: nodeWebhookNetwork() };
  admin = await api.createUser('admin');
  moderator = await api.createUser('moderator');
  reseller = await api.createUser('user', 'reseller');
  fixtures = await createOrderFixtures(api, { admin, moderator, customer: reseller });
});

afterAll(async () => {
  if (api) await settled();
  await api?.close();
  await new Promise((done) => receiver?.close(done));
});

async function keyFor(owner: TestUser) {
  const made = await api.call<CreatedApiKey>('POST', '/api/admin/api-keys', {
    user: admin,
    json: { userId: owner.id, name: 'hooks', scopes: ['orders:write', 'orders:read'] },
  });
  return { authorization: `Bearer ${made.body.secret}` };
}

describe('webhook endpoints', () => {
  it('refuse loopback, private, link-local, unique-local and non-https URLs at registration, writing nothing', async () => {
    const headers = await keyFor(reseller);
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[::ffff:127.0.0.1]/x',
      'http://example.com/hook',
    ]) {
      const refused = await api.call<ErrorBody>('POST', '/api/v1/webhooks', { headers, json: { url, events: ['order.paid'] } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.details?.[0]?.path).toBe('url');
    }
    expect(await api.db.selectFrom('webhook_endpoints').select('id').where('user_id', '=', reseller.id).execute()).toEqual([]);
    // A name is judged by what it resolves to; the test host is taken only where it is named.
    expect(await endpointProblem('https://localhost/hook', [])).toMatch(/public internet/);
    expect(await endpointProblem('http://localhost/hook', ['localhost'])).toBeNull();
    expect(await endpointProblem('https://user:pw@example.com/', [])).toMatch(/user name/);
  });

  it('get each order event exactly once, signed, after the receiver answers 500 twice; attempts readable', async () => {
    const headers = await keyFor(reseller);
    const registered = await api.call<{ id: string; secret: string }>('POST', '/api/v1/webhooks', {
      headers,
      json: { url: `http://localhost:${port}/hook`, events: ['order.paid', 'order.delivered', 'order.replaced', 'order.refunded'] },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.secret).toMatch(/^whsec_/);
    const row = await api.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', registered.body.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(registered.body.secret.slice(6));

    const placed = await api.call<ApiOrder>('POST', '/api/v1/orders', { headers, json: { productId: fixtures.serviceId } });
    expect((await fixtures.deliverTyped(placed.body.id, 'one@example.test', 'Pw-one-1')).status).toBe(200);
    expect((await fixtures.deliverTyped(placed.body.id, 'two@example.test', 'Pw-two-2', { replace: true })).status).toBe(200);
    const refund = await api.call('PUT', `/api/admin/orders/${placed.body.id}`, { user: moderator, json: { paymentStatus: 'refunded' } });
    expect(refund.status).toBe(200);
    await settled();
    for (let round = 0; round < 4; round += 1) await nextRound();

    const hook = received.filter((post) => post.path === '/hook');
    const accepted = hook.filter((post) => post.answered === 200);
    const events = accepted.map((post) => (JSON.parse(post.body) as { type: string }).type).sort();
    expect(events).toEqual(['order.delivered', 'order.paid', 'order.refunded', 'order.replaced']);
    expect(new Set(accepted.map((post) => post.id)).size).toBe(4);
    for (const post of hook) {
      expect(validSignature(registered.body.secret, post)).toBe(true);
      expect(JSON.parse(post.body)).toMatchObject({ data: { orderId: placed.body.id } });
      expect(post.body).not.toContain('Pw-');
    }
    // Each id was posted three times (500, 500, 200) and never again.
    for (const id of new Set(hook.map((post) => post.id))) expect(hook.filter((post) => post.id === id).map((post) => post.answered)).toEqual([500, 500, 200]);
    expect(validSignature('whsec_' + Buffer.from('another secret').toString('base64'), hook[0]!)).toBe(false);

    const deliveries = await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toHaveLength(4);
    for (const delivery of deliveries.body) {
      expect(delivery.state).toBe('delivered');
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    }
    const before = received.length;
    await nextRound();
    expect(received.length).toBe(before);
    // Admins see every account's endpoints and their attempts; moderators do not.
    const seen = await api.call<AdminWebhook[]>('GET', '/api/admin/api-keys/webhooks', { user: admin });
    expect(seen.status).toBe(200);
    const mine = seen.body.find((endpoint) => endpoint.id === registered.body.id)!;
    expect(mine.userEmail).toBe(reseller.email);
    expect(mine.deliveries.map((d) => d.attempts.map((a) => a.status))).toEqual([
      [500, 500, 200],
      [500, 500, 200],
      [500, 500, 200],
      [500, 500, 200],
    ]);
    expect(JSON.stringify(seen.body)).not.toContain(registered.body.secret);
    expect((await api.call('GET', '/api/admin/api-keys/webhooks', { user: moderator })).status).toBe(403);
  });

  it('an admin resends a finished delivery with the same webhook-id; delivered ones are swept after their keeping (decision 225)', async () => {
    const owner = await api.createUser('user', 'resent');
    const headers = await keyFor(owner);
    const registered = await api.call<{ id: string }>('POST', '/api/v1/webhooks', {
      headers,
      json: { url: `http://localhost:${port}/hook`, events: ['order.paid'] },
    });
    const placed = await api.call<ApiOrder>('POST', '/api/v1/orders', { headers, json: { productId: fixtures.serviceId } });
    expect((await api.call('PUT', `/api/admin/orders/${placed.body.id}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    await settled();
    for (let round = 0; round < 2; round += 1) await nextRound();
    const [delivery] = (await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers })).body;
    expect(delivery!.state).toBe('delivered');

    const resend = (user: TestUser, id = delivery!.id) => api.call<ErrorBody>('POST', `/api/admin/api-keys/webhooks/deliveries/${id}/resend`, { user });
    expect((await resend(moderator)).status).toBe(403);
    expect((await resend(admin, crypto.randomUUID())).status).toBe(404);
    const posted = received.filter((post) => post.id === delivery!.id).length;
    expect((await resend(admin)).status).toBe(202);
    await settled();
    expect(received.filter((post) => post.id === delivery!.id)).toHaveLength(posted + 1);
    const again = (await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers })).body[0]!;
    expect(again).toMatchObject({ id: delivery!.id, state: 'delivered' });
    expect(again.attempts.map((a) => a.status)).toEqual([500, 500, 200, 200]);
    const audit = await api.db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'webhook_delivery.resend').execute();
    expect(audit.map((a) => a.details)).toContainEqual({ deliveryId: delivery!.id, from: 'delivered' });

    // Kept 30 days once delivered, then swept with its attempts; a delivery still pending is never swept.
    await api.db
      .updateTable('webhook_deliveries')
      .set({ finished_at: new Date(Date.now() - 31 * 86_400_000) })
      .where('id', '=', delivery!.id)
      .execute();
    const pending = await api.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'pending').execute();
    expect(await sweepDeliveredWebhooks(api.db, 30)).toBeGreaterThanOrEqual(1);
    expect(await api.db.selectFrom('webhook_deliveries').select('id').where('id', '=', delivery!.id).execute()).toEqual([]);
    expect(await api.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', delivery!.id).execute()).toEqual([]);
    const stillPending = await api.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'pending').execute();
    expect(stillPending.map((d) => d.id).sort()).toEqual(pending.map((d) => d.id).sort());
    expect((await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers })).body).toEqual([]);
  });

  it('never follow a redirect: a 3xx is a failed attempt', async () => {
    const owner = await api.createUser('user', 'redirected');
    const headers = await keyFor(owner);
    const registered = await api.call<{ id: string }>('POST', '/api/v1/webhooks', {
      headers,
      json: { url: `http://localhost:${port}/moved`, events: ['order.paid'] },
    });
    const placed = await api.call<ApiOrder>('POST', '/api/v1/orders', { headers, json: { productId: fixtures.serviceId } });
    const hooksBefore = received.filter((post) => post.path === '/hook').length;
    expect((await api.call('PUT', `/api/admin/orders/${placed.body.id}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    await settled();
    const deliveries = await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers });
    expect(deliveries.body[0]!.state).toBe('pending');
    expect(deliveries.body[0]!.attempts).toEqual([expect.objectContaining({ status: 302, error: 'a redirect, not followed' })]);
    expect(received.filter((post) => post.path === '/hook').length).toBe(hooksBefore);
    // Deleted, the endpoint gets nothing more.
    expect((await api.call('DELETE', `/api/v1/webhooks/${registered.body.id}`, { headers })).status).toBe(204);
    const moved = received.filter((post) => post.path === '/moved').length;
    await nextRound();
    expect(received.filter((post) => post.path === '/moved').length).toBe(moved);
  });
});
