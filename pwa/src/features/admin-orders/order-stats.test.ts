import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { formatRevenue, priceAmount, statsFromOrders } from './order-stats.ts';

const base: Omit<Order, 'id' | 'userId' | 'price' | 'paymentStatus' | 'orderStatus' | 'createdAt'> = {
  productId: 'p',
  title: 't',
  description: '',
  category: 'vps',
  image: '',
  deliveryTime: 'instant',
  userEmail: 'e@x.test',
  userName: 'n',
  orderDate: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
};

describe('stats from the orders on this device', () => {
  it('reads the leading number of a price as the server does', () => {
    expect(priceAmount('$1,250.50 USD')).toBe(1250.5);
    expect(priceAmount('25')).toBe(25);
    expect(priceAmount('from 9.99')).toBe(9.99);
    expect(priceAmount('ask us')).toBe(0);
  });

  it('counts orders, paid revenue, distinct customers, pending payments and deliveries, per UTC day', () => {
    const now = new Date('2026-11-21T15:00:00Z');
    const orders: Order[] = [
      { ...base, id: '1', userId: 'a', price: '$10.10', paymentStatus: 'paid', orderStatus: 'delivered', createdAt: '2026-11-21T01:00:00Z' },
      { ...base, id: '2', userId: 'a', price: '5', paymentStatus: 'pending', orderStatus: 'pending', createdAt: '2026-11-21T02:00:00Z' },
      { ...base, id: '3', userId: 'b', price: '20.20', paymentStatus: 'paid', orderStatus: 'processing', createdAt: '2026-10-23T00:00:00Z' },
      { ...base, id: '4', userId: 'c', price: '7', paymentStatus: 'paid', orderStatus: 'completed', createdAt: '2026-10-01T00:00:00Z' },
    ];
    const stats = statsFromOrders(orders, now);
    expect(stats).toMatchObject({ totalOrders: 4, totalRevenue: 37.3, activeCustomers: 3, pendingPayments: 1, delivered: 1 });
    expect(stats.daily).toHaveLength(30);
    expect(stats.daily[0]).toEqual({ date: '2026-10-23', orders: 1, revenue: 20.2 });
    expect(stats.daily[29]).toEqual({ date: '2026-11-21', orders: 2, revenue: 10.1 });
    expect(stats.daily.reduce((sum, day) => sum + day.orders, 0)).toBe(3);
  });

  it('shows revenue to 2 decimals', () => {
    expect(formatRevenue(1234.5)).toBe('$1,234.50');
    expect(formatRevenue(0)).toBe('$0.00');
  });
});
