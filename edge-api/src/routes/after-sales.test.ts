import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderPage, Order } from '../contract/orders.ts';
import type { Service } from '../contract/services.ts';
import type { StockPasswordChange, WiseStock } from '../contract/wise-stocks.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

// Issue 16, items 8 and 9: replacements under warranty (decision 063) and rotation in place (decision 064).

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
const DAY = 86_400_000;

beforeAll(async () => {
  ({ api, admin, moderator, customer, orders } = bench);
  await api.db.updateTable('services').set({ warranty_days: 7 }).where('id', '=', orders.serviceId).execute();
});

/** An order of the customer's, delivered typed by the moderator. */
async function deliveredOrder(user: TestUser = customer) {
  const id = await orders.placeOrder(user);
  const delivered = await orders.deliverTyped(id, `first-${random()}@wise.test`, `First-${random()}`);
  expect(delivered.status).toBe(200);
  return id;
}

/** An order of the customer's, delivered from a stock by the moderator: the order's and the stock's ids. */
async function deliveredFromStock() {
  const id = await orders.placeOrder();
  const email = `stock-${random()}@wise.test`;
  const password = `Stock-${random()}`;
  const stockId = await orders.seedStock(email, password);
  const delivered = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { stockId } });
  expect(delivered.status).toBe(200);
  return { id, stockId, email, password };
}

const report = (
  id: string,
  json: unknown = { reason: 'login_fails', note: 'It says the password is wrong' },
  user: TestUser = customer,
  headers?: Record<string, string>,
) => api.call<Order & ErrorBody>('POST', `/api/orders/${id}/report`, { user, json, headers });

const customerOrder = async (id: string, user: TestUser = customer) => {
  const list = await api.call<Order[]>('GET', `/api/orders/user/${user.id}`, { user });
  return list.body.find((order) => order.id === id)!;
};

describe('the warranty window', () => {
  it('a service keeps its warranty days, set by the admin', async () => {
    const created = await api.call<Service & ErrorBody>('POST', '/api/services', {
      user: admin,
      json: { title: 'VPS', description: 'x', category: 'vps', price: '5', deliveryTime: '1h', warrantyDays: 30 },
    });
    expect(created.status).toBe(201);
    expect(created.body.warrantyDays).toBe(30);
    for (const warrantyDays of [-1, 1.5, 3651, '7']) {
      const bad = await api.call<ErrorBody>('PUT', `/api/services/${created.body.id}`, {
        user: admin,
        json: { title: 'VPS', description: 'x', category: 'vps', price: '5', deliveryTime: '1h', warrantyDays },
      });
      expect(bad.status).toBe(400);
      expect(errorPaths(bad.body)).toEqual(['warrantyDays']);
    }
    const unchanged = await api.call<Service>('GET', `/api/services/${created.body.id}`);
    expect(unchanged.body.warrantyDays).toBe(30);
    // A caller that sends no warranty (an older client) leaves it as it is.
    const older = await api.call<Service>('PUT', `/api/services/${created.body.id}`, {
      user: admin,
      json: { title: 'VPS 2', description: 'x', category: 'vps', price: '5', deliveryTime: '1h' },
    });
    expect(older.status).toBe(200);
    expect(older.body).toMatchObject({ title: 'VPS 2', warrantyDays: 30 });
  });

  it('starts at the first delivery and lasts the service warranty', async () => {
    const before = Date.now();
    const id = await deliveredOrder();
    const order = await customerOrder(id);
    const deliveredAt = Date.parse(order.deliveredAt!);
    expect(deliveredAt).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(order.warrantyEndsAt!) - deliveredAt).toBe(7 * DAY);
  });

  it('takes a report within the window, and says so to staff in their own filter', async () => {
    const id = await deliveredOrder();
    const reported = await report(id, { reason: 'locked', note: 'Suspended after one login' });
    expect(reported.status).toBe(200);
    expect(reported.body.report).toMatchObject({ status: 'open', reason: 'locked', note: 'Suspended after one login' });
    const filtered = await api.call<AdminOrderPage>('GET', '/api/admin/orders?report=open&limit=100', { user: moderator });
    expect(filtered.status).toBe(200);
    expect(filtered.body.orders.map((order) => order.id)).toContain(id);
    expect(filtered.body.orders.every((order) => order.report?.status === 'open')).toBe(true);
    // One open report at a time.
    const again = await report(id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('report_open');
  });

  it('refuses a report after the window with a clear error, and changes nothing', async () => {
    const id = await deliveredOrder();
    const ended = new Date(Date.now() - 60_000);
    await api.db.updateTable('orders').set({ warranty_ends_at: ended }).where('id', '=', id).execute();
    const before = await orders.orderRow(id);
    const refused = await report(id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('warranty_expired');
    expect(refused.body.error.message).toBe(
      `The warranty of this order ended on ${ended.toISOString().slice(0, 10)}. Problems can only be reported within the warranty. Please contact support.`,
    );
    const after = await orders.orderRow(id);
    expect(after.version).toBe(before.version);
    expect(after.report_status).toBeNull();
  });

  it('refuses a report on a service without warranty and on an order not delivered', async () => {
    const noWarranty = await deliveredOrder();
    await api.db.updateTable('orders').set({ warranty_ends_at: null }).where('id', '=', noWarranty).execute();
    const refused = await report(noWarranty);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('no_warranty');

    const pending = await orders.placeOrder();
    const early = await report(pending);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('not_delivered');
    expect((await orders.orderRow(pending)).report_status).toBeNull();
  });

  it('is the customer own order only: another customer and staff are refused', async () => {
    const id = await deliveredOrder();
    const other = await api.createUser('user');
    expect((await report(id, undefined, other)).status).toBe(403);
    expect((await report(id, undefined, moderator)).status).toBe(403);
    expect((await report(id, undefined, admin)).status).toBe(403);
    expect((await orders.orderRow(id)).report_status).toBeNull();
    expect((await report(crypto.randomUUID())).status).toBe(404);
  });

  it('refuses bad input and changes nothing', async () => {
    const id = await deliveredOrder();
    for (const json of [
      { reason: 'bored' },
      { reason: 'other' },
      { reason: 'locked', note: 'x'.repeat(1001) },
      { reason: 'locked', image: 'order-proofs/not-a-report.png' },
    ]) {
      const refused = await report(id, json);
      expect(refused.status).toBe(400);
    }
    expect((await orders.orderRow(id)).report_status).toBeNull();
  });

  it('takes a screenshot uploaded for the report and shows it to staff and the customer', async () => {
    const id = await deliveredOrder();
    const form = new FormData();
    // A 1x1 PNG.
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) =>
      c.charCodeAt(0),
    );
    form.set('kind', 'report');
    form.set('file', new File([png], 'shot.png', { type: 'image/png' }));
    const uploaded = await api.call<{ path: string; url: string }>('POST', '/api/uploads', { user: customer, body: form });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.path).toMatch(/^order-proofs\/reports\//);
    // Other kinds stay staff's.
    const proof = new FormData();
    proof.set('kind', 'proof');
    proof.set('file', new File([png], 'shot.png', { type: 'image/png' }));
    expect((await api.call('POST', '/api/uploads', { user: customer, body: proof })).status).toBe(403);

    const reported = await report(id, { reason: 'wrong_password', image: uploaded.body.path });
    expect(reported.status).toBe(200);
    expect(reported.body.report?.image).toBeTruthy();
    const staffView = await api.call<Order>('GET', `/api/admin/orders/${id}`, { user: moderator });
    expect(staffView.body.report?.image).toBeTruthy();
  });

  it('a replayed report (same idempotency key) answers the first answer once', async () => {
    const id = await deliveredOrder();
    const key = crypto.randomUUID();
    const first = await report(id, undefined, customer, { 'idempotency-key': key });
    const second = await report(id, undefined, customer, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.report).toEqual(first.body.report);
    expect((await orders.auditRows(id)).filter((row) => row.action === 'order.report')).toHaveLength(1);
    // The same key with another body: 422, nothing changed (decision 044).
    const reused = await report(id, { reason: 'other', note: 'Something else entirely' }, customer, { 'idempotency-key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_mismatch');
    expect((await orders.orderRow(id)).report_reason).toBe('login_fails');
  });

  it('keeps no delivered password in the stored answer of a report, and a replay reads the order again', async () => {
    const id = await orders.placeOrder();
    const firstPassword = `Stored-${random()}`;
    expect((await orders.deliverTyped(id, `stored-${random()}@wise.test`, firstPassword)).status).toBe(200);
    const key = crypto.randomUUID();
    const first = await report(id, undefined, customer, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.body.wisePassword).toBe(firstPassword);
    // The idempotency table holds answers in plain JSON: a delivered password there would be unsealed at rest.
    const stored = await api.db
      .selectFrom('idempotency_keys')
      .select(sql<string>`response::text`.as('response'))
      .where('user_id', '=', customer.id)
      .where('key', 'like', `%${key}`)
      .executeTakeFirstOrThrow();
    expect(stored.response).not.toContain(firstPassword);
    // Staff replace the delivery; the device sends its queued report again: it gets the order as it is now.
    const secondPassword = `Replaced-${random()}`;
    expect((await orders.deliverTyped(id, `replaced-${random()}@wise.test`, secondPassword, { replace: true })).status).toBe(200);
    const replayed = await report(id, undefined, customer, { 'idempotency-key': key });
    expect(replayed.status).toBe(200);
    expect(replayed.body.wisePassword).toBe(secondPassword);
    expect((await orders.auditRows(id)).filter((row) => row.action === 'order.report')).toHaveLength(1);
  });

  it('a migration removes the passwords that report answers stored before, and leaves other answers', async () => {
    const { up } = await import('../../../migrations/2026-11-26-0300_report_answers_without_passwords.ts');
    const user = await api.createUser('user');
    const reportKey = `POST /orders/${crypto.randomUUID()}/report ${crypto.randomUUID()}`;
    const otherKey = `PUT /admin/orders/${crypto.randomUUID()}/x ${crypto.randomUUID()}`;
    const values = (key: string, password: string) => ({ key, user_id: user.id, status: 200, response: JSON.stringify({ id: 'x', wisePassword: password }) });
    await api.db
      .insertInto('idempotency_keys')
      .values([values(reportKey, 'Old-Report-Secret'), values(otherKey, 'Not-A-Report')])
      .execute();
    await up(api.db);
    const rows = await api.db
      .selectFrom('idempotency_keys')
      .select(['key', sql<string>`response::text`.as('response')])
      .where('user_id', '=', user.id)
      .execute();
    const byKey = new Map(rows.map((row) => [row.key, row.response]));
    expect(byKey.get(reportKey)).toBe('{"reported": true}');
    expect(byKey.get(otherKey)).toContain('Not-A-Report');
  });
});

describe('replacement', () => {
  it('from stock keeps the earlier delivery in the history, marks the faulty stock and answers the report', async () => {
    const { id, stockId: faultyId, email: faultyEmail, password: faultyPassword } = await deliveredFromStock();
    expect((await report(id)).status).toBe(200);
    const newEmail = `fresh-${random()}@wise.test`;
    const newPassword = `Fresh-${random()}`;
    const freshId = await orders.seedStock(newEmail, newPassword);

    const replaced = await api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { stockId: freshId, replace: true } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ wiseEmail: newEmail, stockId: freshId });
    expect(replaced.body.report).toMatchObject({ status: 'replaced' });
    // Staff see the earlier delivery in full (never a password).
    expect(replaced.body.deliveryHistory).toEqual([{ at: expect.any(String), kind: 'replaced', wiseEmail: faultyEmail, stockId: faultyId }]);

    // The customer sees the new credentials, the outcome, and the earlier delivery masked.
    const mine = await customerOrder(id);
    expect(mine).toMatchObject({ wiseEmail: newEmail, wisePassword: newPassword, report: { status: 'replaced' } });
    expect(mine.deliveryHistory).toEqual([{ at: expect.any(String), kind: 'replaced', wiseEmail: `${faultyEmail.slice(0, 2)}•••@wise.test` }]);
    expect(JSON.stringify(mine.deliveryHistory)).not.toContain(faultyPassword);

    // The faulty stock is disabled and can never be sold again; the fresh one is sold to the customer.
    const faulty = await orders.stockRow(faultyId);
    expect(faulty).toMatchObject({ status: 'disabled', sold_to: customer.id, order_id: id });
    expect(faulty.faulty_at).not.toBeNull();
    expect(await orders.stockRow(freshId)).toMatchObject({ status: 'sold', sold_to: customer.id, order_id: id });
    const reopen = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${faultyId}`, { user: admin, json: { status: 'available' } });
    expect(reopen.status).toBe(409);
    expect(reopen.body.error.code).toBe('stock_faulty');
    await expect(sql`update wise_stocks set status = 'available' where id = ${faultyId}`.execute(api.db)).rejects.toThrow(/wise_stocks_faulty_never_available/);
    const other = await orders.placeOrder();
    const resold = await api.call<ErrorBody>('PUT', `/api/admin/orders/${other}`, { user: moderator, json: { stockId: faultyId } });
    expect(resold.status).toBe(409);
    expect(resold.body.error.code).toBe('stock_unavailable');

    // The history keeps the earlier password sealed, never in plain text.
    const row = await orders.orderRow(id);
    expect(row.delivery_history).toHaveLength(1);
    expect(row.delivery_history[0]!.wisePasswordEnc).toBeTruthy();
    expect(JSON.stringify(row.delivery_history)).not.toContain(faultyPassword);
    expect(await api.deps.secrets.open(row.delivery_history[0]!.wisePasswordEnc!, { entity: 'order', id })).toBe(faultyPassword);
    const audit = (await orders.auditRows(faultyId)).map((entry) => entry.action);
    expect(audit).toContain('wise_stock.faulty');
  });

  it('typed keeps the earlier delivery and answers the report', async () => {
    const id = await deliveredOrder();
    const firstEmail = (await orders.orderRow(id)).wise_email;
    expect((await report(id, { reason: 'other', note: 'Asks for a phone code' })).status).toBe(200);
    const replaced = await orders.deliverTyped(id, 'typed-again@wise.test', `Typed-${random()}`, { replace: true });
    expect(replaced.status).toBe(200);
    expect(replaced.body.report?.status).toBe('replaced');
    expect(replaced.body.deliveryHistory?.map((past) => past.wiseEmail)).toEqual([firstEmail]);
    // The staff notification of the report is closed by the replacement.
    const told = await api.db.selectFrom('notifications').select('resolved_at').where('kind', '=', 'problem_report').where('order_id', '=', id).execute();
    expect(told).toHaveLength(1);
    expect(told[0]!.resolved_at).not.toBeNull();
  });

  it('happens in one transaction: a refused replacement leaves the order, its history and its stock as they were', async () => {
    const { id, stockId } = await deliveredFromStock();
    expect((await report(id)).status).toBe(200);
    const taken = await orders.seedStock(`taken-${random()}@wise.test`, `Taken-${random()}`, 'sold');
    const before = await orders.orderRow(id);
    const refused = await api.call<ErrorBody>('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { stockId: taken, replace: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('stock_unavailable');
    const after = await orders.orderRow(id);
    expect(after).toMatchObject({ version: before.version, stock_id: stockId, report_status: 'open', delivery_history: [] });
    expect(await orders.stockRow(stockId)).toMatchObject({ status: 'sold', faulty_at: null });
  });

  it('a customer cannot replace, and a delivery without replace is still refused', async () => {
    const id = await deliveredOrder();
    const byCustomer = await api.call('PUT', `/api/admin/orders/${id}`, {
      user: customer,
      json: { wiseEmail: 'a@wise.test', wisePassword: 'Secret-1', replace: true },
    });
    expect(byCustomer.status).toBe(403);
    const again = await orders.deliverTyped(id, 'again@wise.test', `Again-${random()}`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_delivered');
    expect((await orders.orderRow(id)).delivery_history).toEqual([]);
  });
});

describe('declining a report', () => {
  it('answers the customer with a message; the customer may report again within the window', async () => {
    const id = await deliveredOrder();
    expect((await report(id)).status).toBe(200);
    const told = () =>
      api.db.selectFrom('notifications').select(['title', 'resolved_at']).where('kind', '=', 'problem_report').where('order_id', '=', id).execute();
    expect(await told()).toEqual([{ title: 'Problem reported', resolved_at: null }]);
    const byCustomer = await api.call('POST', `/api/admin/orders/${id}/report/decline`, { user: customer, json: { message: 'No' } });
    expect(byCustomer.status).toBe(403);
    const blank = await api.call<ErrorBody>('POST', `/api/admin/orders/${id}/report/decline`, { user: moderator, json: { message: '  ' } });
    expect(blank.status).toBe(400);
    expect((await orders.orderRow(id)).report_status).toBe('open');

    const declined = await api.call<Order>('POST', `/api/admin/orders/${id}/report/decline`, {
      user: moderator,
      json: { message: 'The account works: log in with the email, not the name.' },
    });
    expect(declined.status).toBe(200);
    expect((await told())[0]!.resolved_at).not.toBeNull();
    const mine = await customerOrder(id);
    expect(mine.report).toMatchObject({ status: 'declined', reply: 'The account works: log in with the email, not the name.' });
    expect(mine.deliveryHistory).toBeUndefined();

    const twice = await api.call<ErrorBody>('POST', `/api/admin/orders/${id}/report/decline`, { user: moderator, json: { message: 'again' } });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('no_open_report');
    expect((await report(id)).status).toBe(200);
  });
});

describe('rotation in place', () => {
  const rotate = (stockId: string, json: unknown, user: TestUser = admin) =>
    api.call<StockPasswordChange & ErrorBody>('POST', `/api/wise-stocks/${stockId}/password`, { user, json });

  it('gives the order that received the stock the new password, keeps the old one in its history and tells the customer', async () => {
    const { id, stockId, email, password } = await deliveredFromStock();
    const next = `Rotated-${random()}`;
    orders.passwordsUsed.push(next);
    const rotated = await rotate(stockId, { wisePassword: next });
    expect(rotated.status).toBe(200);
    expect(rotated.body.orderId).toBe(id);
    expect(rotated.body.stock.wisePassword).toBe(next);

    const mine = await customerOrder(id);
    expect(mine).toMatchObject({ wiseEmail: email, wisePassword: next });
    expect(mine.credentialsRotatedAt).toBeTruthy();
    expect(mine.deliveryHistory).toEqual([{ at: expect.any(String), kind: 'rotated', wiseEmail: `${email.slice(0, 2)}•••@wise.test` }]);

    const row = await orders.orderRow(id);
    expect(row.wise_password_enc).not.toContain(next);
    expect(row.wise_password_index).toBe(await api.deps.secrets.blindIndex(next));
    expect(await api.deps.secrets.open(row.delivery_history[0]!.wisePasswordEnc!, { entity: 'order', id })).toBe(password);
    const stock = await orders.stockRow(stockId);
    expect(stock.wise_password_index).toBe(await api.deps.secrets.blindIndex(next));
    expect((await orders.auditRows(id)).map((entry) => entry.action)).toContain('order.rotate');
    // The old password is free again; the new one is a duplicate for anything that comes after.
    const check = await api.call<{ passwordExists: boolean }>('GET', `/api/wise-stocks/check?password=${encodeURIComponent(next)}`, { user: admin });
    expect(check.body.passwordExists).toBe(true);
  });

  it('refuses a password already in stock or delivered unless overridden, and the current password', async () => {
    const { id, stockId, password } = await deliveredFromStock();
    const elsewhere = `Elsewhere-${random()}`;
    await orders.seedStock(`else-${random()}@wise.test`, elsewhere);
    const before = await orders.orderRow(id);
    const duplicate = await rotate(stockId, { wisePassword: elsewhere });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('duplicate_credentials');
    expect(await orders.orderRow(id)).toMatchObject({ version: before.version, wise_password_index: before.wise_password_index, delivery_history: [] });
    const same = await rotate(stockId, { wisePassword: password });
    expect(same.status).toBe(400);
    expect(errorPaths(same.body)).toEqual(['wisePassword']);
    const overridden = await rotate(stockId, { wisePassword: elsewhere, overrideDuplicates: true });
    expect(overridden.status).toBe(200);
    expect((await customerOrder(id)).wisePassword).toBe(elsewhere);
  });

  it('refuses a new password under the account rules (at least 6 characters), changing nothing the customer sees (decision 221)', async () => {
    const { id, stockId } = await deliveredFromStock();
    const before = await orders.orderRow(id);
    const stockBefore = await orders.stockRow(stockId);
    for (const wisePassword of ['short', '     ', '12345', '😀😀😀😀😀']) {
      const refused = await rotate(stockId, { wisePassword });
      expect(refused.status, wisePassword).toBe(400);
      expect([...new Set(errorPaths(refused.body))]).toEqual(['wisePassword']);
    }
    expect((await rotate(stockId, { wisePassword: 'short' })).body.error.message).toMatch(/at least 6 characters/);
    expect(await orders.orderRow(id)).toMatchObject({ version: before.version, wise_password_index: before.wise_password_index, delivery_history: [] });
    expect((await orders.stockRow(stockId)).version).toBe(stockBefore.version);
    const six = `S${random().slice(0, 5)}`;
    orders.passwordsUsed.push(six);
    expect((await rotate(stockId, { wisePassword: six })).status).toBe(200);
  });

  it('of an unsold stock changes only the stock; a stale version, a moderator and a customer are refused', async () => {
    const stockId = await orders.seedStock(`free-${random()}@wise.test`, `Free-${random()}`);
    const next = `Next-${random()}`;
    orders.passwordsUsed.push(next);
    expect((await rotate(stockId, { wisePassword: next }, moderator)).status).toBe(403);
    expect((await rotate(stockId, { wisePassword: next }, customer)).status).toBe(403);
    const stale = await rotate(stockId, { wisePassword: next, version: 1 });
    expect(stale.status).toBe(409);
    const rotated = await rotate(stockId, { wisePassword: next });
    expect(rotated.status).toBe(200);
    expect(rotated.body.orderId).toBeNull();
    const revealed = await api.call<WiseStock>('GET', `/api/wise-stocks/${stockId}`, { user: admin });
    expect(revealed.body.wisePassword).toBe(next);
    expect((await rotate(crypto.randomUUID(), { wisePassword: next })).status).toBe(404);
  });

  it('after a replacement touches only the order that holds the stock now', async () => {
    const { id, stockId: faultyId } = await deliveredFromStock();
    const freshId = await orders.seedStock(`fresh2-${random()}@wise.test`, `Fresh2-${random()}`);
    expect((await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { stockId: freshId, replace: true } })).status).toBe(200);
    const before = await orders.orderRow(id);
    const rotated = await rotate(faultyId, { wisePassword: `Late-${random()}` });
    expect(rotated.status).toBe(200);
    expect(rotated.body.orderId).toBeNull();
    expect((await orders.orderRow(id)).wise_password_index).toBe(before.wise_password_index);
  });
});

describe('the customer report upload kind', () => {
  it('needs a signed-in user', async () => {
    const form = new FormData();
    form.set('kind', 'report');
    expect((await api.call('POST', '/api/uploads', { body: form })).status).toBe(401);
  });
});
