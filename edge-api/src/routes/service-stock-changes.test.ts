import { describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { ServiceStockBatch, ServiceStockBatchWithdrawal, ServiceStockPasswordChange } from '../contract/service-stock-changes.ts';
import type { ServiceStock, ServiceStockImportResult } from '../contract/service-stocks.ts';
import type { Service } from '../contract/services.ts';
import type { TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Decision 228: a service's own stock has the Wise stock's rotation in place and batches, on the real API and database.
const bench = orderTestBench();

type Kind = 'server' | 'lines' | 'account';

async function newService(kind: Kind) {
  const created = await bench.api.call<Service>('POST', '/api/services', {
    user: bench.admin,
    json: { title: `Changes ${kind} ${random()}`, description: 'A service', category: 'Other', price: '$5', deliveryTime: '1hour', deliveryKind: kind },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

const add = async (serviceId: string, item: Record<string, unknown>) => {
  const added = await bench.api.call<ServiceStock>('POST', '/api/service-stocks', { user: bench.admin, json: { serviceId, ...item } });
  expect(added.status).toBe(201);
  return added.body;
};
const server = (password = `Srv-${random()}-pw`) => ({ server: { host: `h${random()}.example.net`, port: 22, user: 'root', password } });
const account = (password = `Acc-${random()}-pw`) => ({ account: { email: `own-${random()}@example.com`, password, name: 'Own account' } });
const rotate = (id: string, json: Record<string, unknown>, user: TestUser = bench.admin) =>
  bench.api.call<ServiceStockPasswordChange & ErrorBody>('POST', `/api/service-stocks/${id}/password`, { user, json });
const itemRow = (id: string) => bench.api.db.selectFrom('service_stocks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const customerOrder = async (id: string) => {
  const list = await bench.api.call<Order[]>('GET', `/api/orders/user/${bench.customer.id}`, { user: bench.customer });
  return list.body.find((order) => order.id === id)!;
};

/** An order of the service delivered by staff from this item. */
async function deliveredFrom(serviceId: string, itemId: string) {
  const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user: bench.customer, json: { productId: serviceId } });
  expect(placed.status).toBe(201);
  const orderId = placed.body.order.id;
  const delivered = await bench.api.call('PUT', `/api/admin/orders/${orderId}`, { user: bench.moderator, json: { serviceStockId: itemId } });
  expect(delivered.status).toBe(200);
  return orderId;
}

describe("rotation in place of a service's own stock", () => {
  it('gives the order delivered from a server login the new password, keeps the old one in its history, tells the customer and audits it', async () => {
    const serviceId = await newService('server');
    const old = `Old-${random()}-pw`;
    const item = await add(serviceId, server(old));
    const orderId = await deliveredFrom(serviceId, item.id);
    expect((await customerOrder(orderId)).serverPassword).toBe(old);

    const next = `Next-${random()}-pw`;
    const rotated = await rotate(item.id, { password: next, version: (await itemRow(item.id)).version });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.orderId).toBe(orderId);
    expect(rotated.body.stock.password).toBe(next);

    const mine = await customerOrder(orderId);
    expect(mine.serverPassword).toBe(next);
    expect(mine.credentialsRotatedAt).toBeTruthy();
    const order = await bench.orders.orderRow(orderId);
    expect(order.delivery_secret_indexes).toEqual([await bench.api.deps.secrets.blindIndex(next)]);
    const past = order.delivery_history.at(-1)!;
    expect(past).toMatchObject({ kind: 'rotated', serviceStockId: item.id, deliveryKind: 'server', byEmail: bench.admin.email });
    expect(await bench.api.deps.secrets.open(past.deliverySecretEnc!, { entity: 'order', id: orderId })).toBe(old);
    expect((await itemRow(item.id)).secret_indexes).toEqual([await bench.api.deps.secrets.blindIndex(next)]);

    const audit = await bench.api.db.selectFrom('audit_log').selectAll().where('entity_id', 'in', [item.id, orderId]).execute();
    const password = audit.find((row) => row.action === 'service_stock.password')!;
    expect(password.details).toEqual({ serviceId, kind: 'server', orderId });
    expect(JSON.stringify(audit)).not.toContain(next);
    expect(audit.map((row) => row.action)).toContain('order.rotate');
  });

  it('changes an account of a sold item on its order, and an unsold item alone', async () => {
    const serviceId = await newService('account');
    const sold = await add(serviceId, account());
    const orderId = await deliveredFrom(serviceId, sold.id);
    const next = `Acct-${random()}-pw`;
    const rotated = await rotate(sold.id, { password: next });
    expect(rotated.status).toBe(200);
    expect(rotated.body.orderId).toBe(orderId);
    expect((await customerOrder(orderId)).wisePassword).toBe(next);

    const free = await add(serviceId, account());
    const alone = await rotate(free.id, { password: `Free-${random()}-pw` });
    expect(alone.status).toBe(200);
    expect(alone.body.orderId).toBeNull();
  });

  it('refuses a short password, the current one, a duplicate (unless overridden), lines, a stale version and anyone but an admin, changing nothing', async () => {
    const serviceId = await newService('server');
    const old = `Keep-${random()}-pw`;
    const item = await add(serviceId, server(old));
    const orderId = await deliveredFrom(serviceId, item.id);
    const before = await bench.orders.orderRow(orderId);
    const itemBefore = await itemRow(item.id);

    for (const password of ['short', '12345', '']) {
      const refused = await rotate(item.id, { password });
      expect(refused.status, password).toBe(400);
      expect([...new Set(errorPaths(refused.body))]).toEqual(['password']);
    }
    const same = await rotate(item.id, { password: old });
    expect(same.status).toBe(400);
    expect(errorPaths(same.body)).toEqual(['password']);

    const elsewhere = `Elsewhere-${random()}-pw`;
    await add(serviceId, server(elsewhere));
    const duplicate = await rotate(item.id, { password: elsewhere });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('duplicate_credentials');

    const next = `Next-${random()}-pw`;
    expect((await rotate(item.id, { password: next, version: 1 })).status).toBe(409);
    expect((await rotate(item.id, { password: next }, bench.moderator)).status).toBe(403);
    expect((await rotate(item.id, { password: next }, bench.customer)).status).toBe(403);
    expect((await bench.api.call('POST', `/api/service-stocks/${item.id}/password`, { json: { password: next } })).status).toBe(401);
    expect((await rotate(crypto.randomUUID(), { password: next })).status).toBe(404);

    const lines = await add(await newService('lines'), { lines: [`line-${random()}`] });
    const noPassword = await rotate(lines.id, { password: next });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error.message).toMatch(/no password/);

    expect(await bench.orders.orderRow(orderId)).toMatchObject({
      version: before.version,
      delivery_history: [],
      delivery_secret_indexes: before.delivery_secret_indexes,
    });
    expect((await itemRow(item.id)).version).toBe(itemBefore.version);

    const overridden = await rotate(item.id, { password: elsewhere, overrideDuplicates: true });
    expect(overridden.status).toBe(200);
    expect((await customerOrder(orderId)).serverPassword).toBe(elsewhere);
  });
});

describe("batches of a service's own stock", () => {
  const importRows = (json: Record<string, unknown>) =>
    bench.api.call<ServiceStockImportResult & ErrorBody>('POST', '/api/service-stocks/batch', {
      user: bench.admin,
      json: { id: crypto.randomUUID(), ...json },
    });
  const batches = (serviceId: string, user: TestUser = bench.admin) =>
    bench.api.call<ServiceStockBatch[] & ErrorBody>('GET', `/api/service-stocks/batches?serviceId=${serviceId}`, { user });
  const withdraw = (id: string, user: TestUser = bench.admin) =>
    bench.api.call<ServiceStockBatchWithdrawal & ErrorBody>('POST', `/api/service-stocks/batches/${id}/withdraw`, { user });

  it('makes each import a batch (label, who, how many, how many left) that staff list per service, newest first', async () => {
    const serviceId = await newService('server');
    const other = await newService('server');
    const first = await importRows({
      serviceId,
      text: `h1-${random()}.example.net,22,root,P1-${random()}-pw\nh2-${random()}.example.net,22,root,P2-${random()}-pw`,
    });
    expect(first.status).toBe(201);
    const second = await importRows({ serviceId, label: 'Spare logins', text: `h3-${random()}.example.net,22,root,P3-${random()}-pw` });
    expect(second.status).toBe(201);
    await importRows({ serviceId: other, text: `h4-${random()}.example.net,22,root,P4-${random()}-pw` });

    const listed = await batches(serviceId, bench.moderator);
    expect(listed.status).toBe(200);
    expect(listed.body.map((batch) => [batch.id, batch.label, batch.itemCount, batch.availableCount])).toEqual([
      [second.body.id, 'Spare logins', 1, 1],
      [first.body.id, expect.stringMatching(/^2 items imported \d{4}-\d\d-\d\d$/), 2, 2],
    ]);
    expect(listed.body[0]).toMatchObject({ serviceId, kind: 'server', userEmail: bench.admin.email, withdrawnCount: 0, withdrawnAt: null });
    const rows = await bench.api.db.selectFrom('service_stocks').select('batch_id').where('service_id', '=', serviceId).execute();
    expect(rows.map((row) => row.batch_id).sort()).toEqual([first.body.id, first.body.id, second.body.id].sort());
    expect((await batches(serviceId, bench.customer)).status).toBe(403);
    expect((await batches('not-a-uuid')).status).toBe(400);
  });

  it("withdraws a batch's available items only (sold ones stay with their orders), audited, for admins only", async () => {
    const serviceId = await newService('server');
    const imported = await importRows({
      serviceId,
      text: `a-${random()}.example.net,22,root,W1-${random()}-pw\nb-${random()}.example.net,22,root,W2-${random()}-pw`,
    });
    expect(imported.status).toBe(201);
    const items = await bench.api.db.selectFrom('service_stocks').selectAll().where('batch_id', '=', imported.body.id).orderBy('created_at').execute();
    const orderId = await deliveredFrom(serviceId, items[0]!.id);

    expect((await withdraw(imported.body.id, bench.moderator)).status).toBe(403);
    expect((await itemRow(items[1]!.id)).status).toBe('available');
    const withdrawn = await withdraw(imported.body.id);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.withdrawn).toBe(1);
    expect(withdrawn.body.batch).toMatchObject({ availableCount: 0, withdrawnCount: 1, itemCount: 2 });
    expect((await itemRow(items[1]!.id)).status).toBe('disabled');
    expect((await itemRow(items[0]!.id)).status).toBe('sold');
    expect((await bench.orders.orderRow(orderId)).service_stock_id).toBe(items[0]!.id);
    const audit = await bench.api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', imported.body.id).execute();
    expect(audit.find((row) => row.action === 'service_stock_batch.withdraw')?.details).toEqual({ serviceId, withdrawn: 1 });
    expect((await withdraw(crypto.randomUUID())).status).toBe(404);
  });
});
