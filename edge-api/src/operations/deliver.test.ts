import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { orderTestBench, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
beforeAll(() => ({ api, admin, moderator, customer, orders } = bench));

describe('delivering an order (PUT /api/admin/orders/:id)', () => {
  it('delivers typed credentials: paid and delivered, password sealed at rest, audit without the password', async () => {
    const id = await orders.placeOrder();
    const password = `Typed-${random()}-pass`;
    const delivered = await orders.deliverTyped(id, '  Typed.User@Wise.test ', password, { wiseImage: 'order-proofs/proof-9.jpg' });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ id, paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'Typed.User@Wise.test', stockId: null });
    expect(delivered.body).not.toHaveProperty('wisePassword');
    expect(delivered.body.wiseImage).toMatch(/^\/files\/order-proofs\/proof-9\.jpg\?expires=/);

    const row = await orders.orderRow(id);
    expect(row.wise_image).toBe('order-proofs/proof-9.jpg');
    expect(row.wise_password_enc).not.toContain(password);
    expect(await api.deps.secrets.decrypt(row.wise_password_enc!)).toBe(password);
    expect(row.wise_password_index).toBe(await api.deps.secrets.blindIndex(password));
    expect(row.wise_email_index).toBe(await api.deps.secrets.blindIndex('typed.user@wise.test'));

    const trail = await orders.auditRows(id);
    const deliver = trail.find((entry) => entry.action === 'order.deliver');
    expect(deliver?.details).toMatchObject({
      delivered: 'typed',
      wiseEmail: 'Typed.User@Wise.test',
      proofImage: true,
      to: { paymentStatus: 'paid', orderStatus: 'delivered' },
    });
    expect(JSON.stringify(trail)).not.toContain(password);

    const owner = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(owner.body.find((o) => o.id === id)?.wisePassword).toBe(password);
  });

  it('delivers once when the same keyed delivery arrives several times at once', async () => {
    const id = await orders.placeOrder();
    const headers = { 'Idempotency-Key': `deliver-${random()}` };
    const password = `Race-key-${random()}`;
    const answers = await Promise.all(Array.from({ length: 3 }, () => orders.deliverTyped(id, 'keyed@wise.test', password, {}, headers)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[1]?.body).toEqual(answers[0]?.body);
    expect(answers[2]?.body).toEqual(answers[0]?.body);
    expect((await orders.auditRows(id)).filter((e) => e.action === 'order.deliver')).toHaveLength(1);
  });

  it('answers 422 idempotency_mismatch for a key reused with another body, and changes nothing', async () => {
    const id = await orders.placeOrder();
    const headers = { 'Idempotency-Key': `reuse-${random()}` };
    const first = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'paid' }, headers });
    expect(first.status).toBe(200);
    const before = await orders.orderRow(id);
    const reused = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { orderStatus: 'cancelled' }, headers });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_mismatch');
    expect(await orders.orderRow(id)).toEqual(before);
    // The same body under the same key is still a replay: the first answer, nothing changed.
    const replay = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'paid' }, headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await orders.orderRow(id)).toEqual(before);
  });

  it('merges a status change and a payment change made from the same version on two devices; refuses only a change to the same field', async () => {
    const id = await orders.placeOrder();
    const seen = await orders.orderRow(id);
    const status = await api.call<Order>('PUT', `/api/admin/orders/${id}`, {
      user: moderator,
      json: { orderStatus: 'processing', base: { orderStatus: seen.order_status } },
    });
    expect(status.status).toBe(200);
    const payment = await api.call<Order>('PUT', `/api/admin/orders/${id}`, {
      user: admin,
      json: { paymentStatus: 'paid', base: { paymentStatus: seen.payment_status } },
    });
    expect(payment.status).toBe(200);
    expect(await orders.orderRow(id)).toMatchObject({ order_status: 'processing', payment_status: 'paid' });

    // The same field, from the same old value, to another value: a true conflict, with both values.
    const clash = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, {
      user: admin,
      json: { orderStatus: 'cancelled', base: { orderStatus: seen.order_status } },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('conflict');
    expect(clash.body.error.details).toMatchObject({ field: 'orderStatus', from: 'pending', yours: 'cancelled', theirs: 'processing' });
    expect(await orders.orderRow(id)).toMatchObject({ order_status: 'processing', payment_status: 'paid' });
    // The same value both ways is no conflict.
    const same = await api.call<Order>('PUT', `/api/admin/orders/${id}`, {
      user: admin,
      json: { orderStatus: 'processing', base: { orderStatus: seen.order_status } },
    });
    expect(same.status).toBe(200);
  });

  it('delivers an available stock: the stock is sold to the customer and its account copied into the order', async () => {
    const id = await orders.placeOrder();
    const password = `Stock-${random()}-pw`;
    const stockId = await orders.seedStock('Stocked@Wise.test', password);
    const stockBefore = await orders.stockRow(stockId);

    const delivered = await api.call<Order>('PUT', `/api/admin/orders/${id}`, {
      user: moderator,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
    });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ id, paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'Stocked@Wise.test', stockId });
    expect(delivered.body).not.toHaveProperty('wisePassword');
    expect(delivered.body.wiseImage).toMatch(/^\/files\/stock-images\/auth-1\.png\?expires=/);

    const stock = await orders.stockRow(stockId);
    expect(stock).toMatchObject({ status: 'sold', sold_to: customer.id, order_id: id });
    expect(stock.version).toBeGreaterThan(stockBefore.version);
    expect(stock.version).toBe((await orders.orderRow(id)).version);
    const row = await orders.orderRow(id);
    expect(row.wise_email_index).toBe(await api.deps.secrets.blindIndex('stocked@wise.test'));
    expect(row.wise_password_index).toBe(await api.deps.secrets.blindIndex(password));

    const owner = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(owner.body.find((o) => o.id === id)).toMatchObject({ wiseEmail: 'Stocked@Wise.test', wisePassword: password });

    const stockTrail = await orders.auditRows(stockId);
    expect(stockTrail.map((e) => e.action)).toEqual(['wise_stock.sold']);
    expect(stockTrail[0]).toMatchObject({ entity: 'wise_stock', actor_email: moderator.email });
    expect(stockTrail[0]?.details).toEqual({ from: 'available', to: 'sold', soldTo: customer.id, orderId: id });
    expect(JSON.stringify([...stockTrail, ...(await orders.auditRows(id))])).not.toContain(password);

    // The same stock again, to another order: refused, and that order stays as it was.
    const other = await orders.placeOrder();
    const again = await api.call<ErrorBody>('PUT', `/api/admin/orders/${other}`, {
      user: admin,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('stock_unavailable');
    expect(await orders.orderRow(other)).toMatchObject({ payment_status: 'pending', order_status: 'pending', wise_email: null, stock_id: null });
  });

  it('refuses a stock that is not available or does not exist with 409 stock_unavailable', async () => {
    const id = await orders.placeOrder();
    const suspended = await orders.seedStock('suspended@wise.test', `Susp-${random()}`, 'suspended');
    const gone = await orders.seedStock('gone@wise.test', `Gone-${random()}`);
    await api.db.updateTable('wise_stocks').set({ deleted_at: new Date() }).where('id', '=', gone).execute();
    for (const stockId of [suspended, gone, crypto.randomUUID()]) {
      const refused = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, {
        user: admin,
        json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('stock_unavailable');
    }
    expect((await orders.stockRow(suspended)).status).toBe('suspended');
    expect((await orders.orderRow(id)).payment_status).toBe('pending');
  });

  it('sells one stock exactly once when ten deliveries of it race to ten orders', async () => {
    const buyers = await Promise.all(Array.from({ length: 10 }, () => api.createUser('user')));
    const orderIds = await Promise.all(buyers.map((buyer) => orders.placeOrder(buyer)));
    const stockId = await orders.seedStock('contested@wise.test', `Contested-${random()}`);

    const answers = await Promise.all(
      orderIds.map((id, i) =>
        api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${id}`, {
          user: i % 2 === 0 ? admin : moderator,
          json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
        }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    const losers = answers.filter((a) => a.status !== 200);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(9);
    expect(losers.every((a) => a.status === 409 && a.body.error.code === 'stock_unavailable')).toBe(true);

    const winner = winners[0]!.body;
    const stock = await orders.stockRow(stockId);
    expect(stock).toMatchObject({ status: 'sold', order_id: winner.id, sold_to: winner.userId });
    const holders = await api.db.selectFrom('orders').select('id').where('stock_id', '=', stockId).execute();
    expect(holders.map((h) => h.id)).toEqual([winner.id]);
    const untouched = await api.db.selectFrom('orders').selectAll().where('id', 'in', orderIds).where('id', '<>', winner.id).execute();
    expect(untouched.every((o) => o.payment_status === 'pending' && o.wise_email === null)).toBe(true);
    expect((await orders.auditRows(stockId)).filter((e) => e.action === 'wise_stock.sold')).toHaveLength(1);
  });

  it('refuses a second delivery to a delivered order with 409 already_delivered, with or without the right version', async () => {
    const id = await orders.placeOrder();
    const first = await orders.deliverTyped(id, 'first@wise.test', `First-${random()}`);
    expect(first.status).toBe(200);
    const stockId = await orders.seedStock('second@wise.test', `Second-${random()}`);
    const version = (await orders.orderRow(id)).version;
    for (const json of [
      { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
      { paymentStatus: 'paid', orderStatus: 'delivered', stockId, version },
      { wiseEmail: 'typed-again@wise.test', wisePassword: `Again-${random()}`, version },
    ]) {
      const again = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: admin, json });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('already_delivered');
      expect(again.body.error.message).toMatch(/already been delivered/);
    }
    expect(await orders.orderRow(id)).toMatchObject({ wise_email: 'first@wise.test', stock_id: null, version });
    expect((await orders.stockRow(stockId)).status).toBe('available');
    expect((await orders.auditRows(id)).filter((e) => e.action === 'order.deliver')).toHaveLength(1);
  });

  it('delivers one of twenty concurrent deliveries of different stocks to one order; the other stocks stay available', async () => {
    const id = await orders.placeOrder();
    const stockIds = await Promise.all(Array.from({ length: 20 }, (_, i) => orders.seedStock(`race-${i}-${random()}@wise.test`, `Race-${i}-${random()}`)));
    const answers = await Promise.all(
      stockIds.map((stockId, i) =>
        api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${id}`, {
          user: i % 2 === 0 ? admin : moderator,
          json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId },
        }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.error.code === 'already_delivered')).toHaveLength(19);
    const soldStock = winners[0]!.body.stockId;
    expect((await orders.orderRow(id)).stock_id).toBe(soldStock);
    const stocks = await api.db.selectFrom('wise_stocks').select(['id', 'status', 'order_id']).where('id', 'in', stockIds).execute();
    expect(stocks.filter((s) => s.status === 'sold')).toEqual([{ id: soldStock, status: 'sold', order_id: id }]);
    expect(stocks.filter((s) => s.status === 'available')).toHaveLength(19);
  });

  it('replaces delivered credentials only when asked to, and keeps the replaced ones in the audit row', async () => {
    const id = await orders.placeOrder();
    await orders.deliverTyped(id, 'wrong@wise.test', `Wrong-${random()}`);
    const replaced = await orders.deliverTyped(id, 'right@wise.test', `Right-${random()}`, { replace: true });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ wiseEmail: 'right@wise.test' });
    const deliveries = (await orders.auditRows(id)).filter((e) => e.action === 'order.deliver');
    expect(deliveries).toHaveLength(2);
    expect(deliveries.map((e) => (e.details as { replaced?: unknown }).replaced).filter(Boolean)).toEqual([{ wiseEmail: 'wrong@wise.test', stockId: null }]);
  });
});

describe('secrets at rest', () => {
  it('keeps every delivered and stocked password out of orders, audit log and idempotency records in plain text', async () => {
    expect(orders.passwordsUsed.length).toBeGreaterThan(5);
    const dump = JSON.stringify([
      (await sql`select * from orders`.execute(api.db)).rows,
      (await sql`select * from audit_log`.execute(api.db)).rows,
      (await sql`select * from idempotency_keys`.execute(api.db)).rows,
    ]);
    for (const password of orders.passwordsUsed) expect(dump).not.toContain(password);
  });
});
