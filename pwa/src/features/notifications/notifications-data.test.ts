import { describe, expect, it } from 'vitest';
import { kindLabel, notificationLink } from './notifications-data.ts';

describe('where a notification leads', () => {
  it("sends admins warned of a staff member's password reveals to Users, where a role is changed (decision 160)", () => {
    expect(kindLabel('reveal_budget')).toBe('Password reveals');
    expect(notificationLink({ kind: 'reveal_budget', orderId: null })).toBe('/dashboard/admin-users');
  });

  it('keeps low stock on adding stock and an order on its search', () => {
    expect(notificationLink({ kind: 'low_stock', orderId: null })).toBe('/dashboard/add-wise-stocks');
    expect(notificationLink({ kind: 'new_order', orderId: '00000000-0000-0000-0000-0000abcdef12' })).toBe('/dashboard?search=abcdef12');
    expect(notificationLink({ kind: 'new_order', orderId: null })).toBeNull();
  });
});
