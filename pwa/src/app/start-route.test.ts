import { describe, expect, it } from 'vitest';
import { routes } from './router.tsx';
import { loadAdminOrdersPage, loadDashboardFrame, loadMyOrdersPage, loadOrderStatusPage, routeCodeOf } from './start-route.ts';

describe('the screen code the app shell asks for with the app (decision 255)', () => {
  it('names the screens opened straight from the shell', () => {
    expect(routeCodeOf('/my-orders')).toEqual([loadMyOrdersPage]);
    expect(routeCodeOf('/My-Orders/')).toEqual([loadMyOrdersPage]);
    expect(routeCodeOf('/order-status/ord-1')).toEqual([loadOrderStatusPage]);
    expect(routeCodeOf('/dashboard')).toEqual([loadDashboardFrame, loadAdminOrdersPage]);
    expect(routeCodeOf('/dashboard/coupons')).toEqual([loadDashboardFrame]);
  });

  it('asks for nothing on other addresses', () => {
    for (const path of ['/', '/services', '/my-orders/extra', '/order-status', '/dashboards']) expect(routeCodeOf(path)).toEqual([]);
  });

  it('loads the modules the router shows for those addresses', async () => {
    const myOrders = routes[0]!.children!.find((route) => route.path === 'my-orders')!;
    const lazy = myOrders.lazy as () => Promise<{ Component: unknown }>;
    expect((await lazy()).Component).toBe((await loadMyOrdersPage()).MyOrdersPage);
    const frame = routes[1]!.lazy as () => Promise<{ Component: unknown }>;
    expect((await frame()).Component).toBe((await loadDashboardFrame()).DashboardFrame);
  });
});
