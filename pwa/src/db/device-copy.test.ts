import { describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import { keepOnDevice } from './device-copy.ts';
import { getUserDb, type OutboxEntry } from './local-db.ts';

const now = new Date().toISOString();

const order = (version: number, patch: Partial<Order> = {}): Order => ({
  id: 'order-1',
  productId: 'service-1',
  title: 'Wise business',
  description: '',
  category: 'wise',
  image: '',
  price: '55',
  deliveryTime: '1hour',
  userId: 'customer',
  userEmail: 'customer@example.test',
  userName: 'Customer',
  paymentStatus: 'pending',
  orderStatus: 'pending',
  orderDate: now,
  createdAt: now,
  updatedAt: now,
  version,
  ...patch,
});

const stock = (version: number, patch: Partial<WiseStock> = {}): WiseStock => ({
  id: 'stock-1',
  wiseName: 'Stock',
  wiseEmail: 'stock@wise.test',
  wisePassword: 'stock-pass',
  authImage: '/files/stock-images/a.png?sig=1',
  docImg1: '',
  docImg2: '',
  userName: 'Admin',
  userEmail: 'admin@example.test',
  serviceName: 'WiseStock',
  status: 'available',
  soldTo: null,
  orderId: null,
  notes: '',
  createdAt: now,
  updatedAt: now,
  version,
  ...patch,
});

const queued = (target: OutboxEntry['target'], status: OutboxEntry['status'] = 'pending'): OutboxEntry => ({
  id: crypto.randomUUID(),
  name: target?.table === 'orders' ? 'setOrderStatus' : 'setStockStatus',
  args: target?.table === 'orders' ? { orderId: target.id, orderStatus: 'processing', version: 1 } : { stockId: target?.id, status: 'sold', version: 1 },
  createdAt: now,
  status,
  attempts: 0,
  target,
});

const freshDb = () => getUserDb(crypto.randomUUID());

describe('keeping rows read from the server on the device', () => {
  it('keeps new rows and newer copies, never an older copy over a newer one', async () => {
    const db = freshDb();
    await keepOnDevice(db, { orders: [order(3)], stocks: [stock(3)] });
    expect((await db.orders.get('order-1'))?.version).toBe(3);
    expect((await db.wiseStocks.get('stock-1'))?.version).toBe(3);

    await keepOnDevice(db, { orders: [order(2, { orderStatus: 'cancelled' })], stocks: [stock(2, { status: 'sold' })] });
    expect(await db.orders.get('order-1')).toMatchObject({ version: 3, orderStatus: 'pending' });
    expect(await db.wiseStocks.get('stock-1')).toMatchObject({ version: 3, status: 'available' });

    await keepOnDevice(db, { orders: [order(4, { orderStatus: 'processing' })] });
    expect(await db.orders.get('order-1')).toMatchObject({ version: 4, orderStatus: 'processing' });
  });

  it('takes a stock of the same version again, for its fresh image links', async () => {
    const db = freshDb();
    await keepOnDevice(db, { stocks: [stock(3)] });
    await keepOnDevice(db, { stocks: [stock(3, { authImage: '/files/stock-images/a.png?sig=2' })] });
    expect((await db.wiseStocks.get('stock-1'))?.authImage).toBe('/files/stock-images/a.png?sig=2');
  });

  it('leaves a row alone while a change to it waits in the outbox, but not once that change failed', async () => {
    const db = freshDb();
    await db.orders.put(order(1, { orderStatus: 'processing' }));
    await db.wiseStocks.put(stock(1, { status: 'sold' }));
    await db.outbox.bulkPut([queued({ table: 'orders', id: 'order-1' }), queued({ table: 'wiseStocks', id: 'stock-1' }, 'failed')]);

    await keepOnDevice(db, { orders: [order(2)], stocks: [stock(2)] });
    expect(await db.orders.get('order-1')).toMatchObject({ version: 1, orderStatus: 'processing' });
    expect(await db.wiseStocks.get('stock-1')).toMatchObject({ version: 2, status: 'available' });
  });

  it('keeps the delivered password the device has when staff are sent the order without it', async () => {
    const db = freshDb();
    await db.orders.put(order(1, { wiseEmail: 'buyer@wise.test', wisePassword: 'secret' }));
    await keepOnDevice(db, { orders: [order(2, { wiseEmail: 'buyer@wise.test', orderStatus: 'delivered' })] });
    expect(await db.orders.get('order-1')).toMatchObject({ version: 2, orderStatus: 'delivered', wisePassword: 'secret' });
  });
});
