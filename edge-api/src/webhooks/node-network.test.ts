import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiOrder, ApiWebhookDelivery, CreatedApiKey } from '../contract/partners.ts';
import { inProcessHarness, type TestUser } from '../testing/api-harness.ts';
import { createOrderFixtures } from '../testing/order-fixtures.ts';
import { checkEndpoint } from './endpoint-url.ts';
import { nodeWebhookNetwork, pinnedLookup } from './node-network.ts';
import { webhooksSettled } from './send.ts';

/**
 * DNS pinning on the Node entry (decision 243). Names are answered by a resolver of the test's own, never
 * the network: `.example` and `.test` names resolve nowhere else, so a post that reaches the receiver went
 * to the address the check was handed.
 */

const PUBLIC = '93.184.215.14';
/** What each name resolves to now; a test changes an entry to rebind it. */
const names = new Map<string, string[]>();
const resolve = async (hostname: string) => {
  const addresses = names.get(hostname);
  if (!addresses) throw Object.assign(new Error(`${hostname} is not a name of this test`), { code: 'ENOTFOUND' });
  return addresses;
};
const network = nodeWebhookNetwork({ resolve });

/** A receiver on 127.0.0.1: every connection counted, every request's Host kept. */
let receiver: Server;
let port: number;
let connections = 0;
const requests: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    requests.push(request.headers);
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  receiver.on('connection', () => (connections += 1));
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
  port = (receiver.address() as AddressInfo).port;
});

afterAll(() => new Promise((done) => receiver.close(done)));

describe('the checked address, on the Node entry', () => {
  it('refuses a name resolving to loopback, private, shared, link-local, multicast or unspecified addresses, IPv4 or IPv6', async () => {
    const inward = ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.169.254', '224.0.0.1', '0.0.0.0'];
    const inward6 = ['::1', '::', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'fe80::1', 'fd00::1', 'ff02::1'];
    for (const address of [...inward, ...inward6]) {
      names.set('inward.example', [address]);
      const checked = await checkEndpoint('https://inward.example/hook', [], network);
      expect(checked, address).toEqual({ ok: false, problem: expect.stringContaining(`is ${address}, a private`), final: true });
    }
    // One inward address among public ones is enough to refuse the name.
    names.set('inward.example', [PUBLIC, '10.0.0.1']);
    expect(await checkEndpoint('https://inward.example/hook', [], network)).toMatchObject({ ok: false, final: true });
    // A name that does not resolve now may later: tried again, not given up.
    expect(await checkEndpoint('https://nowhere.example/hook', [], network)).toMatchObject({ ok: false, final: false });
  });

  it('hands a public address to the connection, which asks no resolver again', async () => {
    names.set('hook.example', [PUBLIC, '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    const checked = await checkEndpoint('https://hook.example/hook', [], network);
    expect(checked).toMatchObject({ ok: true, addresses: [PUBLIC, '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    // The socket's lookup answers any name with the checked addresses only.
    const lookup = pinnedLookup([PUBLIC]);
    const all = await new Promise((done) => lookup('hook.example', { all: true }, (_error, addresses) => done(addresses)));
    expect(all).toEqual([{ address: PUBLIC, family: 4 }]);
    const one = await new Promise((done) => lookup('elsewhere.example', {}, (_error, address, family) => done([address, family])));
    expect(one).toEqual([PUBLIC, 4]);
  });

  it('connects to the address it was handed, keeping the name in the Host header', async () => {
    // No resolver knows receiver.example: only the pin can take the post to 127.0.0.1.
    const before = requests.length;
    const status = await network.post(new URL(`http://receiver.example:${port}/hook`), ['127.0.0.1'], {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(10_000),
    });
    expect(status).toBe(200);
    expect(requests.slice(before).map((headers) => headers.host)).toEqual([`receiver.example:${port}`]);
    // A named test host is still pinned: resolved by the network's resolver, taken without the public check.
    names.set('receiver.test', ['127.0.0.1']);
    expect(await checkEndpoint(`http://receiver.test:${port}/hook`, ['receiver.test'], network)).toMatchObject({ ok: true, addresses: ['127.0.0.1'] });
  });
});

describe('a webhook whose name rebinds to this machine after registration', () => {
  let api: Awaited<ReturnType<typeof inProcessHarness>>;
  let admin: TestUser;
  let reseller: TestUser;
  let moderator: TestUser;
  let fixtures: Awaited<ReturnType<typeof createOrderFixtures>>;

  beforeAll(async () => {
    api = await inProcessHarness({ webhooks: { allowHosts: [], network } });
    admin = await api.createUser('admin');
    moderator = await api.createUser('moderator');
    reseller = await api.createUser('user', 'rebind');
    fixtures = await createOrderFixtures(api, { admin, moderator, customer: reseller });
    const key = await api.call<CreatedApiKey>('POST', '/api/admin/api-keys', {
      user: admin,
      json: { userId: reseller.id, name: 'rebind', scopes: ['orders:write', 'orders:read'] },
    });
    headers = { authorization: `Bearer ${key.body.secret}` };
  });
  let headers: Record<string, string>;

  afterAll(async () => {
    await webhooksSettled();
    await api?.close();
  });

  it('is refused at send: no connection made, the attempt says why, the delivery failed', async () => {
    // Registration: the name is public.
    names.set('hook.rebind.example', [PUBLIC]);
    const url = `https://hook.rebind.example:${port}/hook`;
    const registered = await api.call<{ id: string }>('POST', '/api/v1/webhooks', { headers, json: { url, events: ['order.paid'] } });
    expect(registered.status).toBe(201);
    // Then it answers with this machine's address, where the receiver listens on that very port.
    names.set('hook.rebind.example', ['127.0.0.1']);
    const placed = await api.call<ApiOrder>('POST', '/api/v1/orders', { headers, json: { productId: fixtures.serviceId } });
    const connectionsBefore = connections;
    expect((await api.call('PUT', `/api/admin/orders/${placed.body.id}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    await webhooksSettled();

    expect(connections).toBe(connectionsBefore);
    const deliveries = await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers });
    expect(deliveries.body).toHaveLength(1);
    expect(deliveries.body[0]!.state).toBe('failed');
    expect(deliveries.body[0]!.attempts).toEqual([
      expect.objectContaining({ status: null, error: expect.stringMatching(/^not sent: .*hook\.rebind\.example is 127\.0\.0\.1, a private/) }),
    ]);

    // An admin resends the failed delivery (decision 225): the name still points inward, so it is refused again.
    const resent = await api.call('POST', `/api/admin/api-keys/webhooks/deliveries/${deliveries.body[0]!.id}/resend`, { user: admin });
    expect(resent.status).toBe(202);
    await webhooksSettled();
    const again = (await api.call<ApiWebhookDelivery[]>('GET', `/api/v1/webhooks/${registered.body.id}/deliveries`, { headers })).body[0]!;
    expect(again.state).toBe('failed');
    expect(again.attempts).toHaveLength(2);
    expect(connections).toBe(connectionsBefore);
  });
});
