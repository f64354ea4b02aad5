import {
  Navigate,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createDataRouter,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
  UNSAFE_mapRouteProperties as mapRouteProperties,
  type RouteObject,
} from 'react-router-dom';
import { ErrorPage } from './error-page.tsx';
import { PublicLayout } from './public-layout.tsx';
import { loadAdminOrdersPage, loadDashboardFrame, loadMyOrdersPage, loadOrderStatusPage } from './start-route.ts';
import { unbuiltDashboardPaths } from './unbuilt-paths.ts';

// Each screen loads with its route, so the dashboard's code never weighs on the storefront's first load.
const dashboardFrame = () => loadDashboardFrame().then((m) => ({ Component: m.DashboardFrame }));
const underConstruction = () => import('../features/under-construction/under-construction-page.tsx').then((m) => ({ Component: m.UnderConstructionPage }));

/** Shown while the first screen's code loads. */
function RouteLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: PublicLayout,
    HydrateFallback: RouteLoading,
    ErrorBoundary: ErrorPage,
    children: [
      { index: true, lazy: () => import('../features/home/home-page.tsx').then((m) => ({ Component: m.HomePage })) },
      { path: 'about', lazy: () => import('../features/about/about-page.tsx').then((m) => ({ Component: m.AboutPage })) },
      { path: 'contact', lazy: () => import('../features/contact/contact-page.tsx').then((m) => ({ Component: m.ContactPage })) },
      // Routes match case-insensitively, so /proxy and /Proxy are one page.
      { path: 'Proxy', lazy: () => import('../features/proxy/proxy-page.tsx').then((m) => ({ Component: m.ProxyPage })) },
      { path: 'register', lazy: () => import('../features/auth/register-page.tsx').then((m) => ({ Component: m.RegisterPage })) },
      { path: 'login', lazy: () => import('../features/auth/login-page.tsx').then((m) => ({ Component: m.LoginPage })) },
      { path: 'forgot-password', lazy: () => import('../features/auth/forgot-password-page.tsx').then((m) => ({ Component: m.ForgotPasswordPage })) },
      { path: 'reset-password', lazy: () => import('../features/auth/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage })) },
      { path: 'profile', lazy: () => import('../features/profile/profile-page.tsx').then((m) => ({ Component: m.ProfilePage })) },
      { path: 'services', lazy: () => import('../features/services/services-page.tsx').then((m) => ({ Component: m.ServicesPage })) },
      {
        path: 'service-details/:id',
        lazy: () => import('../features/services/service-details-page.tsx').then((m) => ({ Component: m.ServiceDetailsPage })),
      },
      { path: 'order-status/:id', lazy: () => loadOrderStatusPage().then((m) => ({ Component: m.OrderStatusPage })) },
      { path: 'my-orders', lazy: () => loadMyOrdersPage().then((m) => ({ Component: m.MyOrdersPage })) },
      { path: 'support', lazy: () => import('../features/support/support-page.tsx').then((m) => ({ Component: m.SupportPage })) },
      { path: 'admin-users', element: <Navigate to="/dashboard/admin-users" replace /> },
      { path: 'under-construction', lazy: underConstruction },
      { path: '*', Component: ErrorPage },
    ],
  },
  {
    // One frame (and one access check) for every staff screen, so moving between them keeps it.
    id: 'dashboard',
    lazy: dashboardFrame,
    HydrateFallback: RouteLoading,
    ErrorBoundary: ErrorPage,
    children: [
      {
        path: '/dashboard',
        children: [
          {
            index: true,
            lazy: () => loadAdminOrdersPage().then((m) => ({ Component: m.AdminOrdersPage })),
          },
          {
            path: 'admin-users',
            lazy: () => import('../features/admin-users/admin-users-page.tsx').then((m) => ({ Component: m.AdminUsersPage })),
          },
          {
            path: 'add-services',
            lazy: () => import('../features/admin-services/add-service-page.tsx').then((m) => ({ Component: m.AddServicePage })),
          },
          {
            path: 'admin-services',
            lazy: () => import('../features/admin-services/admin-services-page.tsx').then((m) => ({ Component: m.AdminServicesPage })),
          },
          {
            path: 'all-wise-stocks',
            lazy: () => import('../features/wise-stocks/wise-stocks-page.tsx').then((m) => ({ Component: m.WiseStocksPage })),
          },
          {
            path: 'wise-stocks/:id',
            lazy: () => import('../features/wise-stocks/wise-stock-details-page.tsx').then((m) => ({ Component: m.WiseStockDetailsPage })),
          },
          {
            path: 'add-wise-stocks',
            lazy: () => import('../features/wise-stocks/add-wise-stock-page.tsx').then((m) => ({ Component: m.AddWiseStockPage })),
          },
          {
            path: 'import-wise-stocks',
            lazy: () => import('../features/wise-stocks/import-stock-page.tsx').then((m) => ({ Component: m.ImportStockPage })),
          },
          { path: 'settings', lazy: () => import('../features/settings/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })) },
          {
            path: 'payments',
            lazy: () => import('../features/payment-settings/payment-settings-page.tsx').then((m) => ({ Component: m.PaymentSettingsPage })),
          },
          { path: 'coupons', lazy: () => import('../features/coupons/coupons-page.tsx').then((m) => ({ Component: m.CouponsPage })) },
          { path: 'tickets', lazy: () => import('../features/support/staff-tickets-page.tsx').then((m) => ({ Component: m.StaffTicketsPage })) },
          { path: 'api-keys', lazy: () => import('../features/api-keys/api-keys-page.tsx').then((m) => ({ Component: m.ApiKeysPage })) },
          { path: 'notifications', lazy: () => import('../features/notifications/notifications-page.tsx').then((m) => ({ Component: m.NotificationsPage })) },
          { path: '*', Component: ErrorPage },
        ],
      },
      // The sidebar's Attendance and Fees links keep the spec's addresses and open inside the dashboard frame.
      ...unbuiltDashboardPaths.map((path) => ({ path, lazy: underConstruction })),
    ],
  },
];

/**
 * What `createBrowserRouter(routes)` makes, before its `initialize()`: the caller starts it, in a task of its
 * own on a server-rendered page (decision 070). Making it (the history, the routes' ids, matching the
 * address) and starting it (listening to the history, loading the page's code) were one task of 70 ms and
 * more on a phone. The same arguments as createBrowserRouter (react-router 7.18), without the hydration data
 * of a data router's server render, which the app does not use (its server render is a StaticRouter).
 */
export const createRouter = () => createDataRouter({ history: createBrowserHistory(), routes, mapRouteProperties, hydrationRouteProperties });
