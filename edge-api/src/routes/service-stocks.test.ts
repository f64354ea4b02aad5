import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { ServiceStock } from '../contract/service-stocks.ts';
import type { Service } from '../contract/services.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Decision 072: stock kept for a service that delivers an account, a server login or lines, on the real
// API and database.
const bench = orderTestBench();
const services = {} as Record<'server' | 'lines' | 'account' | 'file', string>;

type Answer = ServiceStock & ErrorBody & { error: { details?: unknown } };

beforeAll(async () => {
  for (const kind of ['server', 'lines', 'account', 'file'] as const) {
    const created = await bench.api.call<Service>('POST', '/api/services', {
      user: bench.admin,
      json: { title: `Own stock ${kind} ${random()}`, description: 'A service', category: 'Other', price: '$5', deliveryTime: '1hour', deliveryKind: kind },
    });
    expect(created.status).toBe(201);
    services[kind] = created.body.id;
  }
});

const add = (json: Record<string, unknown>, user: TestUser = bench.admin) => bench.api.call<Answer>('POST', '/api/service-stocks', { user, json });
const list = (serviceId: string, user: TestUser = bench.admin) =>
  bench.api.call<ServiceStock[] & ErrorBody>('GET', `/api/service-stocks?serviceId=${serviceId}`, { user });
const stockRow = (id: string) => bench.api.db.selectFrom('service_stocks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const countRows = async (serviceId: string) =>
  (await bench.api.db.selectFrom('service_stocks').select('id').where('service_id', '=', serviceId).execute()).length;
const server = (password = `Srv-${random()}-pw`, host = `h${random()}.example.net`) => ({ host, port: 22, user: 'root', password });

async function newService(kind: 'server' | 'lines' | 'account', extra: Record<string, unknown> = {}) {
  const created = await bench.api.call<Service>('POST', '/api/services', {
    user: bench.admin,
    json: { title: `Auto ${kind} ${random()}`, description: 'A service', category: 'Other', price: '$5', deliveryTime: '1hour', deliveryKind: kind, ...extra },
  });
  expect(created.status).toBe(201);
  return created.body;
}

const turnOnAuto = (service: Service, extra: Record<string, unknown> = {}) =>
  bench.api.call<Service & ErrorBody>('PUT', `/api/services/${service.id}`, {
    user: bench.admin,
    json: {
      title: service.title,
      description: service.description,
      category: service.category,
      price: service.price,
      deliveryTime: service.deliveryTime,
      autoDeliver: true,
      ...extra,
    },
  });

async function placeFor(serviceId: string, user: TestUser = bench.customer) {
  const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user, json: { productId: serviceId } });
  expect(placed.status).toBe(201);
  return placed.body.order.id;
}

const markPaid = (orderId: string, user: TestUser = bench.admin) =>
  bench.api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${orderId}`, { user, json: { paymentStatus: 'paid' } });

describe("who may keep a service's stock", () => {
  it('lets staff list it (moderators with secrets masked), admins alone add and withdraw; others are refused and nothing changes', async () => {
    const password = `Role-${random()}-pw`;
    const added = await add({ serviceId: services.server, server: server(password) });
    expect(added.status).toBe(201);
    expect(added.headers.get('cache-control')).toBe('no-store');

    const before = await countRows(services.server);
    expect((await add({ serviceId: services.server, server: server() }, bench.moderator)).status).toBe(403);
    expect((await add({ serviceId: services.server, server: server() }, bench.customer)).status).toBe(403);
    expect((await bench.api.call('POST', '/api/service-stocks', { json: { serviceId: services.server, server: server() } })).status).toBe(401);
    expect(await countRows(services.server)).toBe(before);

    expect((await list(services.server, bench.customer)).status).toBe(403);
    expect((await bench.api.call('GET', `/api/service-stocks?serviceId=${services.server}`)).status).toBe(401);
    const asModerator = await list(services.server, bench.moderator);
    expect(asModerator.status).toBe(200);
    const seen = asModerator.body.find((item) => item.id === added.body.id)!;
    expect(seen).toMatchObject({ kind: 'server', user: 'root', port: 22, password: '', secretMasked: true, status: 'available' });
    expect(JSON.stringify(asModerator.body)).not.toContain(password);
    const asAdmin = await list(services.server);
    expect(asAdmin.body.find((item) => item.id === added.body.id)).toMatchObject({ password });

    for (const user of [bench.moderator, bench.customer]) {
      expect((await bench.api.call('POST', `/api/service-stocks/${added.body.id}/withdraw`, { user, json: {} })).status).toBe(403);
    }
    expect((await stockRow(added.body.id)).status).toBe('available');
    const withdrawn = await bench.api.call<ServiceStock>('POST', `/api/service-stocks/${added.body.id}/withdraw`, { user: bench.admin, json: {} });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('disabled');
    const again = await bench.api.call<ErrorBody>('POST', `/api/service-stocks/${added.body.id}/withdraw`, { user: bench.admin, json: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('stock_unavailable');
  });
});

describe('what an item holds', () => {
  it("refuses a body that is not exactly one item of the service's kind, naming the field, and writes nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ serviceId: services.server }, 'account'],
      [{ serviceId: services.server, server: server(), lines: ['a'] }, 'account'],
      [{ serviceId: services.server, lines: ['10.0.0.1:8080'] }, 'lines'],
      [{ serviceId: services.lines, account: { email: `a-${random()}@x.test`, password: 'Pw-123456', name: 'A' } }, 'account'],
      [{ serviceId: services.file, lines: ['x'] }, 'lines'],
      [{ serviceId: services.server, server: { ...server(), port: 70000 } }, 'server.port'],
      [{ serviceId: services.server, server: { ...server(), host: 'http://x.test/' } }, 'server.host'],
      [{ serviceId: services.lines, lines: ['  ', ''] }, 'lines'],
      [{ serviceId: crypto.randomUUID(), lines: ['x'] }, 'serviceId'],
    ];
    const before = await bench.api.db.selectFrom('service_stocks').select('id').execute();
    for (const [json, path] of cases) {
      const answer = await add(json);
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(errorPaths(answer.body), JSON.stringify(json)).toContain(path);
    }
    expect(await bench.api.db.selectFrom('service_stocks').select('id').execute()).toHaveLength(before.length);
  });

  it('seals every secret at rest with a blind index each, and answers a replayed create with the first item', async () => {
    const lines = [`10.1.${random()}:8080:u:p`, `10.2.${random()}:8080:u:p`];
    const id = crypto.randomUUID();
    const first = await add({ id, serviceId: services.lines, lines: [...lines, '   '] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ kind: 'lines', lineCount: 2, lines });
    const replay = await add({ id, serviceId: services.lines, lines });
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(id);
    const row = await stockRow(id);
    expect(row.secret_indexes).toHaveLength(2);
    for (const line of lines) expect(JSON.stringify(row)).not.toContain(line);
    expect(row.details).toEqual({ kind: 'lines', count: 2 });

    const password = `Acct-${random()}-pw`;
    const account = await add({ serviceId: services.account, account: { email: `own-${random()}@acct.test`, password, name: 'Own Account' } });
    expect(account.status).toBe(201);
    const accountRow = await stockRow(account.body.id);
    expect(JSON.stringify(accountRow)).not.toContain(password);
    expect(accountRow.email).toBe(account.body.email);
  });
});

describe('duplicates are refused at the door unless overridden', () => {
  it('refuses a server password or a line already in any stock or delivered, and adds it with overrideDuplicates (audited)', async () => {
    const password = `Dup-${random()}-pw`;
    expect((await add({ serviceId: services.server, server: server(password) })).status).toBe(201);
    const again = await add({ serviceId: services.server, server: server(password) });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate_credentials');
    expect(again.body.error.message).toContain('in stock');

    // A line already delivered to an order (decision 069) is refused too.
    const line = `192.168.${random()}:3128`;
    const linesService = await newService('lines');
    const orderId = await placeFor(linesService.id);
    expect((await bench.api.call('PUT', `/api/admin/orders/${orderId}`, { user: bench.moderator, json: { lines: [line] } })).status).toBe(200);
    const delivered = await add({ serviceId: services.lines, lines: [`fresh-${random()}`, line] });
    expect(delivered.status).toBe(409);
    expect(delivered.body.error.message).toContain('delivered to another order');

    const before = await countRows(services.server);
    const overridden = await add({ serviceId: services.server, server: server(password), overrideDuplicates: true });
    expect(overridden.status).toBe(201);
    expect(await countRows(services.server)).toBe(before + 1);
    const audit = await bench.api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', overridden.body.id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'service_stock.create' });
    expect(audit.details).toMatchObject({ overrodeDuplicates: true });
    expect(JSON.stringify(audit.details)).not.toContain(password);
  });

  it("checks across pools: an account of a service's stock against Wise stock, and Wise stock against a service's stock", async () => {
    const wiseEmail = `pool-${random()}@wise.test`;
    await bench.orders.seedStock(wiseEmail, `Pool-${random()}-pw`);
    const sameEmail = await add({ serviceId: services.account, account: { email: wiseEmail.toUpperCase(), password: `Other-${random()}`, name: 'X' } });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error.details).toMatchObject({ emailExists: true, emailIn: ['stock'] });

    const password = `Shared-${random()}-pw`;
    expect((await add({ serviceId: services.server, server: server(password) })).status).toBe(201);
    const wise = await bench.api.call<ErrorBody>('POST', '/api/wise-stocks', {
      user: bench.admin,
      json: { wiseName: 'W', wiseEmail: `w-${random()}@wise.test`, wisePassword: password, authImage: 'https://img.test/a.png', userName: 'Admin' },
    });
    expect(wise.status).toBe(409);
    expect(wise.body.error.code).toBe('duplicate_credentials');
  });
});

describe("automatic delivery from a service's own stock", () => {
  it('is allowed only once the service keeps stock, and delivers exactly once when two staff mark one order paid at once', async () => {
    const service = await newService('server');
    const refused = await turnOnAuto(service);
    expect(refused.status).toBe(400);
    expect(errorPaths(refused.body)).toContain('autoDeliver');

    const passwords = [`Once-a-${random()}`, `Once-b-${random()}`];
    const items: string[] = [];
    for (const password of passwords) items.push((await add({ serviceId: service.id, server: server(password) })).body.id);
    const on = await turnOnAuto(service, { version: service.version });
    expect(on.status).toBe(200);
    expect(on.body.autoDeliver).toBe(true);

    const orderId = await placeFor(service.id);
    const answers = await Promise.all([markPaid(orderId, bench.admin), markPaid(orderId, bench.moderator)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const order = await bench.orders.orderRow(orderId);
    expect(order).toMatchObject({ payment_status: 'paid', order_status: 'delivered', delivery_kind: 'server', service_stock_id: items[0], stock_id: null });
    const sold = await bench.api.db.selectFrom('service_stocks').selectAll().where('id', 'in', items).where('status', '=', 'sold').execute();
    expect(sold.map((row) => row.id)).toEqual([items[0]]);
    expect(sold[0]).toMatchObject({ order_id: orderId, sold_to: bench.customer.id });
    const deliveries = (await bench.orders.auditRows(orderId)).filter((row) => row.action === 'order.deliver');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.details).toMatchObject({ delivered: 'auto', serviceStockId: items[0], deliveryKind: 'server' });

    const mine = await bench.api.call<Order[]>('GET', `/api/orders/user/${bench.customer.id}`, { user: bench.customer });
    expect(mine.body.find((o) => o.id === orderId)).toMatchObject({ deliveryKind: 'server', serverUser: 'root', serverPassword: passwords[0] });
  });

  it("gives the last item to one of two orders paid at once; the other waits paid and staff are told about this service's stock", async () => {
    const service = await newService('lines');
    const item = (await add({ serviceId: service.id, lines: [`last-${random()}:1080`] })).body.id;
    expect((await turnOnAuto(service)).status).toBe(200);
    const buyer = await bench.api.createUser('user');
    const ids = [await placeFor(service.id), await placeFor(service.id, buyer)];
    const answers = await Promise.all(ids.map((id, i) => markPaid(id, i ? bench.admin : bench.moderator)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const rows = await Promise.all(ids.map((id) => bench.orders.orderRow(id)));
    const delivered = rows.filter((row) => row.order_status === 'delivered');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ service_stock_id: item, delivery_kind: 'lines' });
    const waiting = rows.find((row) => row.order_status !== 'delivered')!;
    expect(waiting).toMatchObject({ payment_status: 'paid', service_stock_id: null, delivery_kind: null });
    const notice = await bench.api.db.selectFrom('notifications').selectAll().where('kind', '=', 'no_stock').where('order_id', '=', waiting.id).execute();
    expect(notice).toHaveLength(1);
    expect(notice[0]?.body).toContain(`no stock of ${service.title}`);

    // A withdrawn item is never drawn: the waiting order still waits when marked paid again.
    const spare = (await add({ serviceId: service.id, lines: [`spare-${random()}:1080`] })).body.id;
    expect((await bench.api.call('POST', `/api/service-stocks/${spare}/withdraw`, { user: bench.admin, json: {} })).status).toBe(200);
    expect((await markPaid(waiting.id)).body).toMatchObject({ orderStatus: 'pending' });
    const fresh = (await add({ serviceId: service.id, lines: [`fresh-${random()}:1080`] })).body.id;
    expect((await markPaid(waiting.id)).body).toMatchObject({ orderStatus: 'delivered' });
    expect((await stockRow(fresh)).status).toBe('sold');
  });

  it('draws an account service with stock of its own from that stock, not from the Wise pool', async () => {
    const service = await newService('account');
    const password = `OwnAcct-${random()}`;
    const item = (await add({ serviceId: service.id, account: { email: `own-${random()}@acct.test`, password, name: 'Own' } })).body;
    expect((await turnOnAuto(service)).status).toBe(200);
    const wise = await bench.orders.seedStock(`pool-${random()}@wise.test`, `Pool-${random()}`);
    const orderId = await placeFor(service.id);
    expect((await markPaid(orderId)).body).toMatchObject({ orderStatus: 'delivered', wiseEmail: item.email, stockId: null });
    expect((await bench.orders.orderRow(orderId)).service_stock_id).toBe(item.id);
    expect((await bench.orders.stockRow(wise)).status).toBe('available');
    const mine = await bench.api.call<Order[]>('GET', `/api/orders/user/${bench.customer.id}`, { user: bench.customer });
    expect(mine.body.find((o) => o.id === orderId)).toMatchObject({ wisePassword: password });
  });
});

describe("staff delivering from a service's stock, and replacements", () => {
  it("delivers a chosen item of the order's own service only, and a replacement from stock marks the faulty item", async () => {
    const service = await newService('server');
    const [first, second] = [
      (await add({ serviceId: service.id, server: server() })).body.id,
      (await add({ serviceId: service.id, server: server() })).body.id,
    ];
    const foreign = (await add({ serviceId: services.server, server: server() })).body.id;
    const orderId = await placeFor(service.id);
    const wrong = await bench.api.call<ErrorBody>('PUT', `/api/admin/orders/${orderId}`, { user: bench.moderator, json: { serviceStockId: foreign } });
    expect(wrong.status).toBe(400);
    expect(errorPaths(wrong.body)).toEqual(['serviceStockId']);
    expect((await stockRow(foreign)).status).toBe('available');

    expect((await bench.api.call('PUT', `/api/admin/orders/${orderId}`, { user: bench.moderator, json: { serviceStockId: first } })).status).toBe(200);
    expect((await stockRow(first)).status).toBe('sold');
    const sold = (await bench.orders.auditRows(first)).filter((row) => row.action === 'service_stock.sold');
    expect(sold).toHaveLength(1);
    expect(sold[0]).toMatchObject({ entity: 'service_stock', actor_email: bench.moderator.email });
    expect(sold[0]?.details).toEqual({ from: 'available', to: 'sold', soldTo: bench.customer.id, orderId, serviceId: service.id });
    const twice = await bench.api.call<ErrorBody>('PUT', `/api/admin/orders/${orderId}`, { user: bench.moderator, json: { serviceStockId: second } });
    expect(twice.body.error.code).toBe('already_delivered');

    const replaced = await bench.api.call<Order>('PUT', `/api/admin/orders/${orderId}`, {
      user: bench.moderator,
      json: { serviceStockId: second, replace: true },
    });
    expect(replaced.status).toBe(200);
    const faulty = await stockRow(first);
    expect(faulty.status).toBe('disabled');
    expect(faulty.faulty_at).not.toBeNull();
    expect(faulty.notes).toContain(`Replaced as faulty on order ${orderId}`);
    const order = await bench.orders.orderRow(orderId);
    expect(order.service_stock_id).toBe(second);
    expect(order.delivery_history.at(-1)).toMatchObject({ kind: 'replaced', serviceStockId: first, deliveryKind: 'server' });
    // A faulty item can never be withdrawn back or sold again.
    const again = await bench.api.call<ErrorBody>('PUT', `/api/admin/orders/${orderId}`, {
      user: bench.moderator,
      json: { serviceStockId: first, replace: true },
    });
    expect(again.body.error.code).toBe('stock_unavailable');
  });
});

describe('low stock per service', () => {
  it("compares a service's threshold with its own available stock, and resolves the warning when stock is back", async () => {
    const service = await newService('lines', { lowStockThreshold: 2 });
    const key = `low_stock:service:${service.id}`;
    const open = () => bench.api.db.selectFrom('notifications').selectAll().where('dedupe_key', '=', key).where('resolved_at', 'is', null).execute();
    await add({ serviceId: service.id, lines: [`low-a-${random()}`] });
    const warned = await open();
    expect(warned).toHaveLength(1);
    expect(warned[0]?.body).toContain('1 available stock item of its own, below the threshold of 2');
    await add({ serviceId: service.id, lines: [`low-b-${random()}`] });
    expect(await open()).toEqual([]);
  });
});

describe('sync', () => {
  it("brings a service's stock to staff devices (moderators masked) and to no customer", async () => {
    const password = `Sync-${random()}-pw`;
    const item = (await add({ serviceId: services.server, server: server(password) })).body;
    // From just before the item's version: a full pull of a shared database comes in pages.
    const cursor = Number((await stockRow(item.id)).version) - 1;
    const pull = (user: TestUser) => bench.api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user });
    const admin = await pull(bench.admin);
    expect(admin.body.changes.serviceStocks?.find((row) => row.id === item.id)).toMatchObject({ password });
    const moderator = await pull(bench.moderator);
    expect(moderator.body.changes.serviceStocks?.find((row) => row.id === item.id)).toMatchObject({ password: '', secretMasked: true });
    expect(JSON.stringify(moderator.body)).not.toContain(password);
    const customer = await pull(bench.customer);
    expect(customer.body.changes.serviceStocks).toBeUndefined();
    expect(JSON.stringify(customer.body)).not.toContain(password);
  });
});

describe("export of a service's stock (decision 198)", () => {
  const exportCsv = (serviceId: string, query = '', user: TestUser = bench.admin) =>
    bench.api.call<string>('GET', `/api/service-stocks/export.csv?serviceId=${serviceId}${query}`, { user });

  it('gives admins the items as CSV, secrets only when asked and audited each time; moderators and customers are refused', async () => {
    const password = `Exp-${random()}-pw`;
    const item = server(password);
    expect((await add({ serviceId: services.server, server: item, notes: 'rack 4' })).status).toBe(201);

    const plain = await exportCsv(services.server);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('no-store');
    const [header, ...lines] = plain.body.trim().split('\r\n');
    expect(header).toBe('host,port,user,notes,status,soldTo,orderId,createdAt,id');
    expect(lines.some((line) => line.startsWith(`${item.host},22,root,rack 4,available,`))).toBe(true);
    expect(plain.body).not.toContain(password);

    const withSecrets = await exportCsv(services.server, '&passwords=true');
    expect(withSecrets.status).toBe(200);
    expect(withSecrets.body.split('\r\n')[0]).toBe('host,port,user,password,notes,status,soldTo,orderId,createdAt,id');
    expect(withSecrets.body).toContain(`${item.host},22,root,${password},rack 4,available,`);
    expect(withSecrets.headers.get('content-disposition')).toMatch(/-with-passwords\.csv"$/);

    const audits = await bench.api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'service_stock.export')
      .where('entity_id', '=', services.server)
      .execute();
    expect(audits.map((row) => (row.details as { passwords: boolean }).passwords).sort()).toEqual([false, true]);
    expect(JSON.stringify(audits)).not.toContain(password);

    for (const user of [bench.moderator, bench.customer]) expect((await exportCsv(services.server, '&passwords=true', user)).status).toBe(403);
    expect((await exportCsv(services.file)).status).toBe(400);
    expect((await exportCsv(services.server, '&passwords=maybe')).status).toBe(400);
  });
});
