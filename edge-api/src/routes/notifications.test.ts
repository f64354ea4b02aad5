import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationList, NotificationsRead } from '../contract/notifications.ts';
import type { Order } from '../contract/orders.ts';
import type { Service } from '../contract/services.ts';
import { defaultSettings, type SiteSettings } from '../contract/settings.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
beforeAll(() => ({ api, admin, moderator, customer, orders } = bench));

const serviceBody = {
  title: 'Wise Business Account',
  description: 'Verified',
  category: 'wise',
  features: [],
  popular: false,
  image: '',
  price: '$40 USD',
  deliveryTime: '1hour',
  paymentMethods: [],
};

const setThreshold = (lowStockThreshold: number | undefined) =>
  api.call<SiteSettings & ErrorBody>('PUT', '/api/settings', { user: admin, json: { ...defaultSettings, lowStockThreshold } });

const lowStock = () => api.db.selectFrom('notifications').selectAll().where('kind', '=', 'low_stock').orderBy('created_at').execute();
const openLowStock = async (key = 'low_stock:all') => (await lowStock()).filter((n) => n.dedupe_key === key && n.resolved_at === null);
const available = () => api.db.updateTable('wise_stocks').set({ status: 'disabled' }).where('status', '=', 'available').execute();
const list = (user: TestUser) => api.call<NotificationList & ErrorBody>('GET', '/api/notifications', { user });

describe('low-stock warnings (issue 16, item 6)', () => {
  beforeEach(async () => {
    await available();
    await setThreshold(0);
  });

  it('keeps an overall threshold in settings: 0 by default, refused when not a whole number of 0 or more, kept when a body leaves it out', async () => {
    expect((await api.call<SiteSettings>('GET', '/api/settings')).body.lowStockThreshold).toBe(0);
    for (const bad of [-1, 1.5, '3']) {
      const refused = await api.call<ErrorBody>('PUT', '/api/settings', { user: admin, json: { ...defaultSettings, lowStockThreshold: bad } });
      expect(refused.status).toBe(400);
      expect(errorPaths(refused.body)).toEqual(['lowStockThreshold']);
    }
    expect((await setThreshold(4)).body.lowStockThreshold).toBe(4);
    const { lowStockThreshold: _left, ...older } = defaultSettings;
    const kept = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json: older });
    expect(kept.body.lowStockThreshold).toBe(4);
    expect((await api.call<SiteSettings>('GET', '/api/settings')).body.lowStockThreshold).toBe(4);
    expect((await api.call('PUT', '/api/settings', { user: moderator, json: { ...defaultSettings, lowStockThreshold: 9 } })).status).toBe(403);
  });

  it('tells staff once when stock falls under the threshold, closes the warning when stock is back, and warns again on the next fall', async () => {
    const stocks = await Promise.all(Array.from({ length: 3 }, (_, i) => orders.seedStock(`low-${i}-${random()}@wise.test`, `Low-${i}-${random()}`)));
    await setThreshold(3);
    expect(await openLowStock()).toEqual([]);

    // A delivery takes one: 2 of 3.
    const first = await orders.placeOrder();
    expect((await api.call('PUT', `/api/admin/orders/${first}`, { user: admin, json: { stockId: stocks[0] } })).status).toBe(200);
    const open = await openLowStock();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ title: 'Wise stock is running low', body: '2 available Wise stock accounts, below the threshold of 3. Add stock.' });

    // Another fall while the warning is open: no second notification.
    const second = await orders.placeOrder();
    expect((await api.call('PUT', `/api/admin/orders/${second}`, { user: admin, json: { stockId: stocks[1] } })).status).toBe(200);
    expect(await openLowStock()).toHaveLength(1);

    // Stock added through the API: back to 3, the warning is resolved.
    for (let i = 0; i < 2; i++) {
      const added = await api.call('POST', '/api/wise-stocks', {
        user: admin,
        json: {
          wiseName: 'Refill',
          wiseEmail: `refill-${i}-${random()}@wise.test`,
          wisePassword: `Refill-${i}-${random()}`,
          authImage: 'https://example.test/a.png',
          userName: 'Admin',
        },
      });
      expect(added.status).toBe(201);
    }
    expect(await openLowStock()).toEqual([]);
    expect((await lowStock()).filter((n) => n.dedupe_key === 'low_stock:all').every((n) => n.resolved_at !== null)).toBe(true);

    // A status change takes one off the shelf: a new warning.
    const stockList = await api.db.selectFrom('wise_stocks').select(['id', 'version']).where('status', '=', 'available').execute();
    const suspend = await api.call('PUT', `/api/wise-stocks/${stockList[0]!.id}`, { user: admin, json: { status: 'suspended' } });
    expect(suspend.status).toBe(200);
    expect(await openLowStock()).toHaveLength(1);
  });

  it('takes a per-service threshold on the service form, and warns for that service by name', async () => {
    await orders.seedStock(`svc-${random()}@wise.test`, `Svc-${random()}`);
    const refused = await api.call<ErrorBody>('POST', '/api/services', { user: admin, json: { ...serviceBody, lowStockThreshold: -2 } });
    expect(refused.status).toBe(400);
    expect(errorPaths(refused.body)).toEqual(['lowStockThreshold']);

    const created = await api.call<Service>('POST', '/api/services', { user: admin, json: { ...serviceBody, lowStockThreshold: 5 } });
    expect(created.status).toBe(201);
    expect(created.body.lowStockThreshold).toBe(5);
    const key = `low_stock:service:${created.body.id}`;
    const open = await openLowStock(key);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      title: 'Low stock for Wise Business Account',
      service_id: created.body.id,
      body: '1 available Wise stock account, below the threshold of 5. Add stock.',
    });
    // The overall threshold is 0 (off): no overall warning.
    expect(await openLowStock()).toEqual([]);

    const lowered = await api.call<Service>('PUT', `/api/services/${created.body.id}`, { user: admin, json: { ...serviceBody, lowStockThreshold: 1 } });
    expect(lowered.body.lowStockThreshold).toBe(1);
    expect(await openLowStock(key)).toEqual([]);

    // Warned again, then the service is deleted: its warning is over.
    await api.call('PUT', `/api/services/${created.body.id}`, { user: admin, json: { ...serviceBody, lowStockThreshold: 9 } });
    expect(await openLowStock(key)).toHaveLength(1);
    expect((await api.call('DELETE', `/api/services/${created.body.id}`, { user: admin })).status).toBe(204);
    expect(await openLowStock(key)).toEqual([]);
  });
});

describe('the notification centre (issue 16, item 7)', () => {
  it('tells staff of a new order, with unread counts per staff member; customers may not read it', async () => {
    const before = (await list(admin)).body;
    const id = await orders.placeOrder();
    const after = await list(admin);
    expect(after.status).toBe(200);
    const notice = after.body.notifications.find((n) => n.orderId === id);
    expect(notice).toMatchObject({ kind: 'new_order', title: 'New order', readAt: null, resolved: false });
    expect(notice?.body).toContain(`#${id.slice(-8)}`);
    expect(after.body.unread).toBe(before.unread + 1);
    expect(after.body.unreadByKind.new_order).toBe((before.unreadByKind.new_order ?? 0) + 1);

    expect((await list(customer)).status).toBe(403);
    expect((await api.call('POST', '/api/notifications/read', { user: customer, json: { all: true } })).status).toBe(403);
  });

  it('writes the price of a new order as every screen shows it, in dollars', async () => {
    const service = await api.call<Service>('POST', '/api/services', { user: admin, json: { ...serviceBody, title: 'Priced in dollars', price: '30' } });
    expect(service.status).toBe(201);
    const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: service.body.id } });
    expect(placed.status).toBe(201);
    const notice = (await list(admin)).body.notifications.find((n) => n.orderId === placed.body.order.id);
    expect(notice?.body).toMatch(/^Order #\S{8} \(Priced in dollars\) by .+, \$30\.$/);
  });

  it('tells staff once when a payment proof waits for their check, and closes it when the payment is settled or the order cancelled', async () => {
    const checks = async (orderId: string) =>
      api.db.selectFrom('notifications').select(['resolved_at']).where('kind', '=', 'payment_check').where('order_id', '=', orderId).execute();
    const proof = (orderId: string, transactionId: string) =>
      api.call('PUT', `/api/orders/${orderId}/payment-proof`, { user: customer, json: { transactionId } });

    const paid = await orders.placeOrder();
    expect((await proof(paid, `TX-${random()}`)).status).toBe(200);
    expect((await proof(paid, `TX-${random()}`)).status).toBe(200);
    expect(await checks(paid)).toEqual([{ resolved_at: null }]);
    const notice = (await list(admin)).body.notifications.find((n) => n.orderId === paid && n.kind === 'payment_check');
    expect(notice).toMatchObject({ title: 'Payment to check', resolved: false });
    expect((await api.call('PUT', `/api/admin/orders/${paid}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    expect((await checks(paid))[0]!.resolved_at).not.toBeNull();

    // A proof for a failed payment waits too: an edit that leaves the payment as it is keeps the check open.
    const failed = await orders.placeOrder();
    expect((await api.call('PUT', `/api/admin/orders/${failed}`, { user: moderator, json: { paymentStatus: 'failed' } })).status).toBe(200);
    expect((await proof(failed, `TX-${random()}`)).status).toBe(200);
    expect((await api.call('PUT', `/api/admin/orders/${failed}`, { user: moderator, json: { orderStatus: 'processing' } })).status).toBe(200);
    expect(await checks(failed)).toEqual([{ resolved_at: null }]);
    expect((await api.call('PUT', `/api/admin/orders/${failed}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    expect((await checks(failed))[0]!.resolved_at).not.toBeNull();

    const cancelled = await orders.placeOrder();
    expect((await proof(cancelled, `TX-${random()}`)).status).toBe(200);
    expect((await api.call('POST', `/api/orders/${cancelled}/cancel`, { user: customer })).status).toBe(200);
    expect((await checks(cancelled))[0]!.resolved_at).not.toBeNull();
  });

  it('marks notifications read for one staff member only; bad input changes nothing', async () => {
    const id = await orders.placeOrder();
    const notice = (await list(admin)).body.notifications.find((n) => n.orderId === id)!;
    const bad = await api.call<ErrorBody>('POST', '/api/notifications/read', { user: admin, json: { ids: [notice.id, 'nope'] } });
    expect(bad.status).toBe(400);
    expect((await list(admin)).body.notifications.find((n) => n.id === notice.id)?.readAt).toBeNull();

    const read = await api.call<NotificationsRead>('POST', '/api/notifications/read', { user: admin, json: { ids: [notice.id] } });
    expect(read.body.read).toBe(1);
    expect((await api.call<NotificationsRead>('POST', '/api/notifications/read', { user: admin, json: { ids: [notice.id] } })).body.read).toBe(0);
    expect((await list(admin)).body.notifications.find((n) => n.id === notice.id)?.readAt).not.toBeNull();
    expect((await list(moderator)).body.notifications.find((n) => n.id === notice.id)?.readAt).toBeNull();

    const all = await api.call<NotificationsRead>('POST', '/api/notifications/read', { user: moderator, json: { all: true } });
    expect(all.body.read).toBeGreaterThan(0);
    expect((await list(moderator)).body.unread).toBe(0);
  });

  it('syncs to staff devices with their own read state, and a reading comes down as a change; customers get none', async () => {
    const full = await api.call<SyncResponse>('GET', '/api/sync?scope=private&cursor=0', { user: moderator });
    let cursor = full.body.cursor;
    const id = await orders.placeOrder();
    const delta = await api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user: moderator });
    const notice = delta.body.changes.notifications?.find((n) => n.orderId === id);
    expect(notice).toMatchObject({ kind: 'new_order', readAt: null });
    cursor = delta.body.cursor;

    await api.call('POST', '/api/notifications/read', { user: moderator, json: { ids: [notice!.id] } });
    const afterRead = await api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user: moderator });
    const again = afterRead.body.changes.notifications?.find((n) => n.id === notice!.id);
    expect(again?.readAt).not.toBeNull();
    expect(again!.version).toBeGreaterThan(notice!.version);
    // Another staff member's reading is not a change for the admin.
    const adminDelta = await api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user: admin });
    expect(adminDelta.body.changes.notifications?.find((n) => n.id === notice!.id)).toBeUndefined();

    const customerPull = await api.call<SyncResponse>('GET', '/api/sync?scope=private&cursor=0', { user: customer });
    expect(customerPull.body.changes.notifications).toBeUndefined();
  });

  it('tells staff when a paid order has no stock to deliver, with an unread count of its kind', async () => {
    await api.call('PUT', `/api/services/${orders.serviceId}`, {
      user: admin,
      json: { ...serviceBody, title: 'Wise Personal Account', autoDeliver: true },
    });
    await available();
    const id = await orders.placeOrder();
    const paid = await api.call<Order>('PUT', `/api/admin/orders/${id}`, { user: admin, json: { paymentStatus: 'paid' } });
    expect(paid.body).toMatchObject({ paymentStatus: 'paid', orderStatus: 'pending' });
    const answer = (await list(moderator)).body;
    expect(answer.notifications.find((n) => n.orderId === id && n.kind === 'no_stock')).toMatchObject({ title: 'Paid, but no stock to deliver', readAt: null });
    expect(answer.unreadByKind.no_stock).toBeGreaterThanOrEqual(1);
  });
});
