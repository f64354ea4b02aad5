// The code of the screens a person opens straight from the app shell (a cold start, offline or not), asked
// for by the entry (main.tsx) before the app's code has loaded, so a screen's chunk and every chunk it
// imports are fetched beside React and the frame instead of after the router has matched the address
// (decision 255). router.tsx loads the same modules through these functions: one module each, fetched once.
// No React here, nothing that grows the entry of every page by more than these few lines.

export const loadMyOrdersPage = () => import('../features/orders/my-orders-page.tsx');
export const loadOrderStatusPage = () => import('../features/orders/order-status-page.tsx');
export const loadDashboardFrame = () => import('./dashboard-frame.tsx');
export const loadAdminOrdersPage = () => import('../features/admin-orders/admin-orders-page.tsx');

/** What a path's first screen needs, for the paths of the screens opened from the shell; the router matches the rest itself. */
const startRoutes: [RegExp, (() => Promise<unknown>)[]][] = [
  [/^\/my-orders\/?$/i, [loadMyOrdersPage]],
  [/^\/order-status\/[^/]+\/?$/i, [loadOrderStatusPage]],
  [/^\/dashboard\/?$/i, [loadDashboardFrame, loadAdminOrdersPage]],
  [/^\/dashboard\//i, [loadDashboardFrame]],
];

/** The loaders of `pathname`'s first screen, when it is one of those above; none for every other address. */
export function routeCodeOf(pathname: string): (() => Promise<unknown>)[] {
  return startRoutes.find(([pattern]) => pattern.test(pathname))?.[1] ?? [];
}

/** Starts loading the code of `pathname`'s screen; a failure is left to the router, which asks again. */
export function startRouteCode(pathname: string): void {
  for (const load of routeCodeOf(pathname)) load().catch(() => undefined);
}
