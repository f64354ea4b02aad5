import { beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryKind } from '../contract/deliveries.ts';
import type { Order } from '../contract/orders.ts';
import type { Service } from '../contract/services.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Decision 069: every kind of delivery, on the real API and database.
const bench = orderTestBench();
let other: TestUser;
const services = {} as Record<DeliveryKind, string>;

beforeAll(async () => {
  other = await bench.api.createUser('user');
  for (const kind of ['file', 'server', 'lines'] as const) {
    const created = await bench.api.call<Service>('POST', '/api/services', {
      user: bench.admin,
      json: { title: `Kind ${kind}`, description: 'A service', category: 'Other', price: '$5', deliveryTime: '1hour', deliveryKind: kind },
    });
    expect(created.status).toBe(201);
    expect(created.body.deliveryKind).toBe(kind);
    services[kind] = created.body.id;
  }
  services.account = bench.orders.serviceId;
});

async function placeFor(kind: DeliveryKind, user: TestUser = bench.customer) {
  const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user, json: { productId: services[kind] } });
  expect(placed.status).toBe(201);
  return placed.body.order.id;
}

const deliver = (orderId: string, json: Record<string, unknown>, user: TestUser = bench.moderator) =>
  bench.api.call<Order & ErrorBody & { error: { details?: unknown } }>('PUT', `/api/admin/orders/${orderId}`, { user, json });

const ownerView = async (orderId: string, user: TestUser = bench.customer) =>
  (await bench.api.call<Order[]>('GET', `/api/orders/user/${user.id}`, { user })).body.find((order) => order.id === orderId)!;

async function uploadFile(user: TestUser, text: string, name = 'Edited résumé.pdf') {
  const body = new FormData();
  body.append('kind', 'delivery');
  body.append('file', new File([new TextEncoder().encode(text)], name, { type: 'application/pdf' }));
  return bench.api.call<{ path: string; name: string; size: number } & ErrorBody>('POST', '/api/uploads', { user, body });
}

describe('services say what they deliver', () => {
  it('defaults to an account, and refuses an unknown kind or automatic delivery of another kind', async () => {
    const wise = await bench.api.call<Service>('GET', `/api/services/${services.account}`);
    expect(wise.body.deliveryKind).toBe('account');
    const base = { title: 'X', description: 'Y', category: 'wise', price: '$1', deliveryTime: '1hour' };
    const unknown = await bench.api.call<ErrorBody>('POST', '/api/services', { user: bench.admin, json: { ...base, deliveryKind: 'vps' } });
    expect(unknown.status).toBe(400);
    expect(errorPaths(unknown.body)).toContain('deliveryKind');
    const auto = await bench.api.call<ErrorBody>('POST', '/api/services', { user: bench.admin, json: { ...base, deliveryKind: 'server', autoDeliver: true } });
    expect(auto.status).toBe(400);
    expect(errorPaths(auto.body)).toContain('autoDeliver');
  });
});

describe('a server login', () => {
  it('is delivered sealed at rest, shown to staff without the password and to its customer in full', async () => {
    const id = await placeFor('server');
    const password = `Srv-${random()}-pw`;
    const delivered = await deliver(id, { server: { host: 'vps1.example.net', port: 2222, user: 'root', password } });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({
      paymentStatus: 'paid',
      orderStatus: 'delivered',
      deliveryKind: 'server',
      serverHost: 'vps1.example.net',
      serverPort: 2222,
      serverUser: 'root',
    });
    expect(delivered.body).not.toHaveProperty('serverPassword');

    const row = await bench.orders.orderRow(id);
    expect(JSON.stringify(row)).not.toContain(password);
    expect(await bench.api.deps.secrets.decrypt(row.delivery_secret_enc!)).toBe(password);
    expect(row.delivery_secret_indexes).toEqual([await bench.api.deps.secrets.blindIndex(password)]);
    expect(row.delivered_at).not.toBeNull();
    const audit = await bench.orders.auditRows(id);
    expect(JSON.stringify(audit)).not.toContain(password);
    expect(audit.find((entry) => entry.action === 'order.deliver')?.details).toMatchObject({ deliveryKind: 'server', host: 'vps1.example.net', user: 'root' });

    expect(await ownerView(id)).toMatchObject({
      deliveryKind: 'server',
      serverHost: 'vps1.example.net',
      serverPort: 2222,
      serverUser: 'root',
      serverPassword: password,
    });
    // The sync carries the same to the device.
    const synced = await bench.api.call<SyncResponse>('GET', '/api/sync?scope=private&cursor=0', { user: bench.customer });
    expect(synced.body.changes.orders?.find((order) => order.id === id)).toMatchObject({ serverPassword: password, serverUser: 'root' });
  });

  it('answers clear 400s for a bad host, port, user or password, and changes nothing', async () => {
    const id = await placeFor('server');
    const before = await bench.orders.orderRow(id);
    for (const [server, field] of [
      [{ host: 'http://x.test/a', port: 22, user: 'root', password: 'p' }, 'server.host'],
      [{ host: 'x.test', port: 70000, user: 'root', password: 'p' }, 'server.port'],
      [{ host: 'x.test', port: 22, user: 'ro ot', password: 'p' }, 'server.user'],
      [{ host: 'x.test', port: 22, user: 'root', password: '  ' }, 'server.password'],
      [{ host: 'x.test', port: 22, user: 'root' }, 'server.password'],
    ] as const) {
      const answer = await deliver(id, { server });
      expect(answer.status, field).toBe(400);
      expect(errorPaths(answer.body), field).toContain(field);
    }
    const mixed = await deliver(id, { server: { host: 'x.test', port: 22, user: 'root', password: 'p' }, lines: ['a'] });
    expect(mixed.status).toBe(400);
    // An account for a service that delivers a server login is refused too.
    const wrongKind = await deliver(id, { wiseEmail: 'a@b.test', wisePassword: 'pw-1' });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.message).toMatch(/delivers a server login/);
    expect(await bench.orders.orderRow(id)).toEqual(before);
  });

  it('refuses customers, and the staff member who placed the order', async () => {
    const id = await placeFor('server');
    const server = { host: '10.0.0.1', port: 22, user: 'root', password: `x-${random()}` };
    expect((await deliver(id, { server }, bench.customer)).status).toBe(403);
    const own = await placeFor('server', bench.moderator);
    expect((await deliver(own, { server })).body.error.code).toBe('own_account');
  });

  it('warns of a password already delivered, and delivers it only with an explicit override', async () => {
    const password = `Dup-${random()}`;
    const first = await placeFor('server');
    expect((await deliver(first, { server: { host: 'a.test', port: 22, user: 'u', password } })).status).toBe(200);
    const second = await placeFor('server');
    const refused = await deliver(second, { server: { host: 'b.test', port: 22, user: 'u', password } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('duplicate_credentials');
    expect(refused.body.error.details).toMatchObject({ passwordExists: true, passwordIn: ['order'] });
    expect((await bench.orders.orderRow(second)).delivery_kind).toBeNull();
    const overridden = await deliver(second, { server: { host: 'b.test', port: 22, user: 'u', password }, overrideDuplicates: true });
    expect(overridden.status).toBe(200);
    expect((await bench.orders.auditRows(second)).find((e) => e.action === 'order.deliver')?.details).toMatchObject({ overrideDuplicates: true });
    // A Wise password in stock counts too.
    const stocked = `Stocked-${random()}`;
    await bench.orders.seedStock(`s-${random()}@wise.test`, stocked);
    const third = await placeFor('server');
    const againstStock = await deliver(third, { server: { host: 'c.test', port: 22, user: 'u', password: stocked } });
    expect(againstStock.status).toBe(409);
    expect(againstStock.body.error.details).toMatchObject({ passwordIn: ['stock'] });
  });
});

describe('lines', () => {
  it('are trimmed, limited, sealed and duplicate-checked line by line', async () => {
    const id = await placeFor('lines');
    const lines = [`1.2.3.4:8080:u1:${random()}`, `5.6.7.8:8080:u2:${random()}`];
    expect((await deliver(id, { lines: ['   ', ''] })).status).toBe(400);
    expect((await deliver(id, { lines: Array.from({ length: 501 }, (_, n) => `l${n}`) })).status).toBe(400);
    expect((await deliver(id, { lines: ['x'.repeat(301)] })).status).toBe(400);
    expect((await deliver(id, { lines: ['a\nb'] })).status).toBe(400);
    const delivered = await deliver(id, { lines: [`  ${lines[0]}  `, '', lines[1]] });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ deliveryKind: 'lines', deliveryLineCount: 2 });
    expect(delivered.body).not.toHaveProperty('deliveryLines');
    const row = await bench.orders.orderRow(id);
    expect(JSON.stringify(row)).not.toContain(lines[0]);
    expect(row.delivery_secret_indexes).toHaveLength(2);
    expect((await ownerView(id)).deliveryLines).toEqual(lines);

    const next = await placeFor('lines');
    const refused = await deliver(next, { lines: ['9.9.9.9:1:a:b', lines[1]] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/1 of these lines is already delivered/);
    expect((await deliver(next, { lines: ['9.9.9.9:1:a:b', lines[1]], overrideDuplicates: true })).status).toBe(200);
  });

  it('replaces a delivery with replace: true, keeping the earlier one in the history without its secret', async () => {
    const id = await placeFor('lines');
    const first = `first-${random()}`;
    expect((await deliver(id, { lines: [first] })).status).toBe(200);
    expect((await deliver(id, { lines: [`second-${random()}`] })).body.error.code).toBe('already_delivered');
    const replaced = await deliver(id, { lines: [`second-${random()}`], replace: true });
    expect(replaced.status).toBe(200);
    expect(replaced.body.deliveryHistory).toEqual([expect.objectContaining({ kind: 'replaced', deliveryKind: 'lines', label: '1 line' })]);
    const row = await bench.orders.orderRow(id);
    expect(JSON.stringify(row.delivery_history)).not.toContain(first);
  });
});

describe('a file', () => {
  it('is uploaded privately, delivered, and downloaded by its customer and staff only', async () => {
    const id = await placeFor('file');
    expect((await uploadFile(bench.customer, 'nope')).status).toBe(403);
    const uploaded = await uploadFile(bench.moderator, 'The finished document');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.path).toMatch(/^order-proofs\/deliveries\/[0-9a-f-]{36}$/);
    expect(uploaded.body).toMatchObject({ name: 'Edited résumé.pdf', size: 21 });
    // Never through a /files link, signed or not.
    expect((await bench.api.call('GET', `/files/${uploaded.body.path}`)).status).toBe(404);

    expect((await deliver(id, { file: { path: 'order-proofs/deliveries/nothing-here', name: 'a.pdf' } })).status).toBe(400);
    expect((await deliver(id, { file: { path: 'order-proofs/proof-1.png', name: 'a.pdf' } })).status).toBe(400);
    expect((await deliver(id, { file: { path: uploaded.body.path, name: '../a.pdf' } })).status).toBe(400);
    const early = await bench.api.call('GET', `/api/orders/${id}/file`, { user: bench.customer });
    expect(early.status).toBe(404);

    const delivered = await deliver(id, { file: { path: uploaded.body.path, name: uploaded.body.name } });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ deliveryKind: 'file', deliveryFile: { name: 'Edited résumé.pdf', size: 21 } });
    expect(await ownerView(id)).toMatchObject({ deliveryKind: 'file', deliveryFile: { name: 'Edited résumé.pdf', size: 21 } });

    const mine = await bench.api.call<string>('GET', `/api/orders/${id}/file`, { user: bench.customer });
    expect(mine.status).toBe(200);
    expect(mine.body).toBe('The finished document');
    expect(mine.headers.get('content-type')).toBe('application/pdf');
    expect(mine.headers.get('cache-control')).toBe('no-store');
    expect(mine.headers.get('content-disposition')).toContain("filename*=UTF-8''Edited%20r%C3%A9sum%C3%A9.pdf");
    expect((await bench.api.call('GET', `/api/orders/${id}/file`, { user: bench.moderator })).status).toBe(200);
    expect((await bench.api.call('GET', `/api/orders/${id}/file`, { user: bench.admin })).status).toBe(200);
    expect((await bench.api.call('GET', `/api/orders/${id}/file`, { user: other })).status).toBe(403);
    expect((await bench.api.call('GET', `/api/orders/${id}/file`)).status).toBe(401);
    // An order of another kind has no file.
    const server = await placeFor('server');
    expect((await bench.api.call('GET', `/api/orders/${server}/file`, { user: bench.customer })).status).toBe(404);
  });
});

describe('accounts stay as they were', () => {
  it('delivers typed Wise credentials to an account service, and refuses lines there', async () => {
    const id = await placeFor('account');
    expect((await deliver(id, { lines: ['a'] })).status).toBe(400);
    const delivered = await bench.orders.deliverTyped(id, `acct-${random()}@wise.test`, `Pw-${random()}`);
    expect(delivered.status).toBe(200);
    expect(delivered.body).not.toHaveProperty('deliveryKind');
  });
});
