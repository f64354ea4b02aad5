import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { Service } from '../contract/services.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();

const serviceBody = {
  title: 'Wise Personal Account',
  description: 'Verified',
  category: 'wise',
  features: [],
  popular: true,
  image: '',
  price: '$30 USD',
  deliveryTime: '1hour',
  paymentMethods: [],
};

const markPaid = (orderId: string, user: TestUser = admin) =>
  api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${orderId}`, { user, json: { paymentStatus: 'paid' } });

/** No other test's stock is on the shelf: every live available stock is set aside. */
const clearShelf = () => api.db.updateTable('wise_stocks').set({ status: 'disabled' }).where('status', '=', 'available').execute();

const openNoStock = (orderId: string) =>
  api.db.selectFrom('notifications').selectAll().where('kind', '=', 'no_stock').where('order_id', '=', orderId).execute();

beforeAll(async () => {
  ({ api, admin, moderator, customer, orders } = bench);
  const answer = await api.call<Service>('PUT', `/api/services/${orders.serviceId}`, { user: admin, json: { ...serviceBody, autoDeliver: true } });
  expect(answer.status).toBe(200);
  expect(answer.body.autoDeliver).toBe(true);
});
beforeEach(clearShelf);

describe('automatic delivery from stock (issue 16, item 5)', () => {
  it('is set on the service form for a Wise service only; another category is refused and nothing changes', async () => {
    const created = await api.call<Service>('POST', '/api/services', { user: admin, json: { ...serviceBody, title: 'VPS', category: 'vps' } });
    expect(created.status).toBe(201);
    expect(created.body.autoDeliver).toBe(false);
    const refused = await api.call<ErrorBody>('PUT', `/api/services/${created.body.id}`, {
      user: admin,
      json: { ...serviceBody, title: 'VPS', category: 'vps', autoDeliver: true },
    });
    expect(refused.status).toBe(400);
    expect(errorPaths(refused.body)).toEqual(['autoDeliver']);
    expect(refused.body.error.message).toContain('only a service of the Wise category can deliver automatically');
    const row = await api.db.selectFrom('services').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.auto_deliver).toBe(false);
    expect(Number(row.version)).toBe(created.body.version);
    // A body without the field (an older client) leaves it as it is.
    const { autoDeliver: _kept, ...withoutFlag } = { ...serviceBody, autoDeliver: true };
    const kept = await api.call<Service>('PUT', `/api/services/${orders.serviceId}`, { user: admin, json: withoutFlag });
    expect(kept.body.autoDeliver).toBe(true);
  });

  it('delivers the oldest available stock when the order is marked paid, in the same transaction, and the customer reads it', async () => {
    const password = `Auto-${random()}-pw`;
    const older = await orders.seedStock(`auto-old-${random()}@wise.test`, password);
    const newer = await orders.seedStock(`auto-new-${random()}@wise.test`, `Auto-${random()}-other`);
    const id = await orders.placeOrder();
    const answer = await markPaid(id, moderator);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id, paymentStatus: 'paid', orderStatus: 'delivered', stockId: older });

    const stock = await orders.stockRow(older);
    expect(stock).toMatchObject({ status: 'sold', sold_to: customer.id, order_id: id });
    expect(Number(stock.version)).toBe(Number((await orders.orderRow(id)).version));
    expect((await orders.stockRow(newer)).status).toBe('available');
    const deliver = (await orders.auditRows(id)).filter((entry) => entry.action === 'order.deliver');
    expect(deliver).toHaveLength(1);
    expect(deliver[0]?.details).toMatchObject({ delivered: 'auto', stockId: older, to: { paymentStatus: 'paid', orderStatus: 'delivered' } });

    const own = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(own.body.find((order) => order.id === id)).toMatchObject({ orderStatus: 'delivered', wisePassword: password });
  });

  it('delivers once when staff mark the same order paid many times at once', async () => {
    const stocks = await Promise.all(Array.from({ length: 5 }, (_, i) => orders.seedStock(`same-${i}-${random()}@wise.test`, `Same-${i}-${random()}`)));
    const id = await orders.placeOrder();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => markPaid(id, i % 2 ? admin : moderator)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 12 }, () => 200));
    const order = await orders.orderRow(id);
    expect(order).toMatchObject({ payment_status: 'paid', order_status: 'delivered' });
    const sold = await api.db.selectFrom('wise_stocks').selectAll().where('id', 'in', stocks).where('status', '=', 'sold').execute();
    expect(sold.map((s) => s.id)).toEqual([order.stock_id]);
    expect(sold[0]?.order_id).toBe(id);
    expect((await orders.auditRows(id)).filter((entry) => entry.action === 'order.deliver')).toHaveLength(1);
    expect(await openNoStock(id)).toEqual([]);
  });

  it('answers a replayed keyed "paid" (a device resending its queued change) with the first answer, delivering once', async () => {
    const stocks = await Promise.all(Array.from({ length: 3 }, (_, i) => orders.seedStock(`key-${i}-${random()}@wise.test`, `Key-${i}-${random()}`)));
    const id = await orders.placeOrder();
    const headers = { 'Idempotency-Key': `auto-${random()}` };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { paymentStatus: 'paid' }, headers })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body).toMatchObject({ orderStatus: 'delivered' });
    const sold = await api.db.selectFrom('wise_stocks').select('id').where('id', 'in', stocks).where('status', '=', 'sold').execute();
    expect(sold).toHaveLength(1);
  });

  it('gives each stock to one order when more orders than stock are paid at once; the others stay paid and waiting, and staff are told once each', async () => {
    const stocks = await Promise.all(Array.from({ length: 2 }, (_, i) => orders.seedStock(`last-${i}-${random()}@wise.test`, `Last-${i}-${random()}`)));
    const buyers = await Promise.all(Array.from({ length: 8 }, () => api.createUser('user')));
    const ids = await Promise.all(buyers.map((buyer) => orders.placeOrder(buyer)));
    // Each order marked paid twice, by two staff, all at once.
    const answers = await Promise.all(ids.flatMap((id) => [markPaid(id, admin), markPaid(id, moderator)]));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    const rows = await Promise.all(ids.map((id) => orders.orderRow(id)));
    const delivered = rows.filter((row) => row.order_status === 'delivered');
    expect(delivered).toHaveLength(2);
    expect(delivered.map((row) => row.stock_id).sort()).toEqual([...stocks].sort());
    for (const row of delivered) {
      const stock = await orders.stockRow(row.stock_id!);
      expect(stock).toMatchObject({ status: 'sold', order_id: row.id, sold_to: row.user_id });
    }
    const waiting = rows.filter((row) => row.order_status !== 'delivered');
    expect(waiting).toHaveLength(6);
    for (const row of waiting) {
      expect(row).toMatchObject({ payment_status: 'paid', order_status: 'pending', wise_email: null, stock_id: null });
      const notices = await openNoStock(row.id);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ title: 'Paid, but no stock to deliver', resolved_at: null });
    }
    for (const row of delivered) expect(await openNoStock(row.id)).toEqual([]);
  });

  it('with no stock, leaves the order paid and waiting; marked paid again once stock is back, delivers it and closes the notice', async () => {
    const id = await orders.placeOrder();
    const first = await markPaid(id);
    expect(first.body).toMatchObject({ paymentStatus: 'paid', orderStatus: 'pending', stockId: null });
    expect(await markPaid(id, moderator)).toMatchObject({ status: 200 });
    expect(await openNoStock(id)).toHaveLength(1);

    const stock = await orders.seedStock(`back-${random()}@wise.test`, `Back-${random()}`);
    const again = await markPaid(id, moderator);
    expect(again.body).toMatchObject({ orderStatus: 'delivered', stockId: stock });
    const notices = await openNoStock(id);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.resolved_at).not.toBeNull();
  });

  it('leaves orders of other services, cancelled orders and already delivered orders alone', async () => {
    const stock = await orders.seedStock(`alone-${random()}@wise.test`, `Alone-${random()}`);
    const manual = await api.call<Service>('POST', '/api/services', { user: admin, json: { ...serviceBody, title: 'By hand' } });
    const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: manual.body.id } });
    expect((await markPaid(placed.body.order.id)).body).toMatchObject({ paymentStatus: 'paid', orderStatus: 'pending' });

    const cancelled = await orders.placeOrder();
    await api.call('PUT', `/api/admin/orders/${cancelled}`, { user: admin, json: { orderStatus: 'cancelled' } });
    expect((await markPaid(cancelled)).body).toMatchObject({ paymentStatus: 'paid', orderStatus: 'cancelled', stockId: null });

    const typed = await orders.placeOrder();
    expect((await orders.deliverTyped(typed, `typed-${random()}@wise.test`, `Typed-${random()}`)).status).toBe(200);
    expect((await markPaid(typed)).body).toMatchObject({ stockId: null, orderStatus: 'delivered' });

    expect((await orders.stockRow(stock)).status).toBe('available');
  });

  it("never delivers a staff member's own order: the separation of duties holds first", async () => {
    await orders.seedStock(`own-${random()}@wise.test`, `Own-${random()}`);
    const id = await orders.placeOrder(moderator);
    const refused = await markPaid(id, moderator);
    expect(refused.status).toBe(403);
    expect((await orders.orderRow(id)).payment_status).toBe('pending');
  });
});
