import { describe, expect, it } from 'vitest';
import { lowStockTarget, type StockAccess } from './low-stock-target.ts';
import { kindLabel, notificationLink } from './notifications-data.ts';

const VPS = '00000000-0000-0000-0000-00000000a001';
const WISE_SERVICE = '00000000-0000-0000-0000-00000000a002';
const admin: StockAccess = {
  canAdd: true,
  ownStock: new Set([VPS]),
  titles: new Map([
    [VPS, 'Linux VPS Login'],
    [WISE_SERVICE, 'Wise Business'],
  ]),
};
const moderator: StockAccess = { ...admin, canAdd: false };

describe('where a notification leads', () => {
  it("sends admins warned of a staff member's password reveals to Users, where a role is changed (decision 160)", () => {
    expect(kindLabel('reveal_budget')).toBe('Password reveals');
    expect(notificationLink({ kind: 'reveal_budget', orderId: null, serviceId: null }, admin)).toBe('/dashboard/admin-users');
  });

  it('keeps an order on its search', () => {
    expect(notificationLink({ kind: 'new_order', orderId: '00000000-0000-0000-0000-0000abcdef12', serviceId: null }, admin)).toBe('/dashboard?search=abcdef12');
    expect(notificationLink({ kind: 'new_order', orderId: null, serviceId: null }, admin)).toBeNull();
  });
});

describe('a low-stock warning leads to the stock that ran low, for staff who can add to it (decision 197)', () => {
  it("sends an admin to a service's own stock, or to Add Wise Stock for the Wise pool", () => {
    expect(lowStockTarget({ serviceId: VPS }, admin)).toEqual({ to: `/dashboard/admin-services?stock=${VPS}`, label: 'Add stock for Linux VPS Login' });
    expect(lowStockTarget({ serviceId: WISE_SERVICE }, admin)).toEqual({ to: '/dashboard/add-wise-stocks', label: 'Add Wise Stock' });
    expect(lowStockTarget({ serviceId: null }, admin)).toEqual({ to: '/dashboard/add-wise-stocks', label: 'Add Wise Stock' });
    expect(notificationLink({ kind: 'low_stock', orderId: null, serviceId: VPS }, admin)).toBe(`/dashboard/admin-services?stock=${VPS}`);
  });

  it('offers a moderator no button: the bell leads to the Wise stock list they can read, and nowhere for a service of its own', () => {
    expect(lowStockTarget({ serviceId: VPS }, moderator)).toBeNull();
    expect(lowStockTarget({ serviceId: null }, moderator)).toBeNull();
    expect(notificationLink({ kind: 'low_stock', orderId: null, serviceId: null }, moderator)).toBe('/dashboard/all-wise-stocks');
    expect(notificationLink({ kind: 'low_stock', orderId: null, serviceId: WISE_SERVICE }, moderator)).toBe('/dashboard/all-wise-stocks');
    expect(notificationLink({ kind: 'low_stock', orderId: null, serviceId: VPS }, moderator)).toBeNull();
  });
});
