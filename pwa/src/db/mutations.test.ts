import { describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import { getPublicDb, getUserDb } from './local-db.ts';
import { declineReport, deliverOrder, placeOrder, reportProblem, setOrderStatus, setStockStatus } from './mutations.ts';

const now = new Date().toISOString();

const service: Service = {
  id: crypto.randomUUID(),
  title: 'Wise business',
  description: 'Verified business account',
  category: 'wise',
  features: [],
  popular: false,
  image: '/files/service-images/wise.png',
  price: '55',
  deliveryTime: '1hour',
  paymentMethods: ['binance'],
  createdAt: now,
  updatedAt: now,
  version: 4,
};

const stock = (status: WiseStock['status']): WiseStock => ({
  id: crypto.randomUUID(),
  wiseName: 'Stock',
  wiseEmail: 'stock@wise.test',
  wisePassword: 'stock-pass',
  authImage: '',
  docImg1: '',
  docImg2: '',
  userName: 'Admin',
  userEmail: 'admin@example.test',
  serviceName: 'WiseStock',
  status,
  soldTo: null,
  orderId: null,
  notes: '',
  createdAt: now,
  updatedAt: now,
  version: 2,
});

describe('mutations', () => {
  it('writes the optimistic order and one outbox entry, however often the same order is placed', async () => {
    const userId = crypto.randomUUID();
    const db = getUserDb(userId);
    await getPublicDb().services.put(service);
    await db.users.put({ uid: userId, email: 'me@example.test', displayName: 'Me', mobile: '', userRole: 'user', createdAt: now, updatedAt: now, version: 1 });
    const id = crypto.randomUUID();

    await placeOrder(userId, { id, productId: service.id }).saved;
    await placeOrder(userId, { id, productId: service.id }).saved;
    expect(await db.outbox.count()).toBe(1);
    expect(await db.outbox.get(id)).toMatchObject({ name: 'placeOrder', status: 'pending', target: { table: 'orders', id } });
    const order = (await db.orders.get(id)) as Order;
    expect(order).toMatchObject({ title: 'Wise business', price: '55', userEmail: 'me@example.test', paymentStatus: 'pending', orderStatus: 'pending' });
  });

  it('refuses a change to something this device does not have, and queues nothing', async () => {
    const userId = crypto.randomUUID();
    const db = getUserDb(userId);
    const missing = setOrderStatus(userId, { orderId: crypto.randomUUID(), orderStatus: 'processing', version: 1 });
    await expect(missing.saved).rejects.toMatchObject({ code: 'not_on_device' });
    await expect(missing.done).rejects.toMatchObject({ code: 'not_on_device' });
    await expect(placeOrder(userId, { id: crypto.randomUUID(), productId: crypto.randomUUID() }).saved).rejects.toThrow('Service not found');
    expect(await db.outbox.count()).toBe(0);
  });

  it('will not deliver a stock that is no longer available', async () => {
    const userId = crypto.randomUUID();
    const db = getUserDb(userId);
    const sold = stock('sold');
    const orderId = crypto.randomUUID();
    await db.wiseStocks.put(sold);
    await db.orders.put({
      id: orderId,
      productId: service.id,
      title: 't',
      description: '',
      category: 'wise',
      image: '',
      price: '1',
      deliveryTime: '',
      userId: 'u',
      userEmail: '',
      userName: '',
      paymentStatus: 'pending',
      orderStatus: 'pending',
      orderDate: now,
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
    await expect(deliverOrder(userId, { orderId, version: 1, stockId: sold.id }).saved).rejects.toMatchObject({
      code: 'stock_unavailable',
      message: expect.stringMatching(/no longer available/),
    });
    await expect(deliverOrder(userId, { orderId, version: 1, stockId: crypto.randomUUID() }).saved).rejects.toMatchObject({ code: 'stock_unavailable' });
    expect((await db.orders.get(orderId))?.orderStatus).toBe('pending');
    expect(await db.outbox.count()).toBe(0);
  });

  it('clears soldTo locally when a stock leaves the sold status', async () => {
    const userId = crypto.randomUUID();
    const db = getUserDb(userId);
    const row = { ...stock('sold'), soldTo: crypto.randomUUID() };
    await db.wiseStocks.put(row);
    await setStockStatus(userId, { stockId: row.id, status: 'suspended', version: row.version }).saved;
    expect(await db.wiseStocks.get(row.id)).toMatchObject({ status: 'suspended', soldTo: null });
  });

  it('queues a problem report with its screenshot on the device, shown at once as open; a decline needs a report', async () => {
    const userId = crypto.randomUUID();
    const db = getUserDb(userId);
    const orderId = crypto.randomUUID();
    await db.orders.put({
      id: orderId,
      productId: service.id,
      title: 't',
      description: '',
      category: 'wise',
      image: '',
      price: '1',
      deliveryTime: '',
      userId,
      userEmail: '',
      userName: '',
      paymentStatus: 'paid',
      orderStatus: 'delivered',
      orderDate: now,
      createdAt: now,
      updatedAt: now,
      version: 3,
      wiseEmail: 'a@wise.test',
      warrantyEndsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await expect(declineReport(userId, { orderId, message: 'No' }).saved).rejects.toMatchObject({ code: 'not_on_device' });
    const screenshot = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    const handle = reportProblem(userId, { orderId, reason: 'locked', note: 'Suspended', screenshot, screenshotName: 'shot.png' });
    await handle.saved;
    expect((await db.orders.get(orderId))?.report).toMatchObject({ status: 'open', reason: 'locked', note: 'Suspended' });
    const entry = await db.outbox.get(handle.id);
    expect(entry).toMatchObject({ name: 'reportProblem', status: 'pending', target: { table: 'orders', id: orderId } });
    expect(entry?.args.screenshotName).toBe('shot.png');
    expect(entry?.args.screenshot).toBeTruthy();
  });
});
