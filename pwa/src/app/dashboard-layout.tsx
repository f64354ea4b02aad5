import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { BrandMark, CloseIcon } from '../components/icons.tsx';
import { MenuToggle } from '../components/menu-toggle.tsx';
import { NotificationBell } from '../components/notification-bell.tsx';
import { OfflineBanner } from '../components/offline-banner.tsx';
import { useSignOut } from '../components/use-sign-out.ts';
import { WIDE_SCREEN_QUERY } from '../components/use-dismiss.ts';
import { useSettings } from '../db/hooks.ts';
import { useAuthorization } from '../lib/authorization.tsx';
import { isDemoShop } from '../lib/supabase.ts';
import { LowStockBanner } from '../features/notifications/low-stock-banner.tsx';
import { NotificationPanel } from '../features/notifications/notification-panel.tsx';
import { unreadOf, useDeviceNotifications } from '../features/notifications/notifications-data.ts';
import { useAttentionItems } from './dashboard-attention.ts';
import { sidebarFor } from './dashboard-nav.ts';

const DRAWER_ID = 'dashboard-drawer';

function StorefrontIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M3 9l1.5-5h15L21 9M3 9h18M3 9a3 3 0 0 0 6 0 3 3 0 0 0 6 0 3 3 0 0 0 6 0M5 12v8h14v-8M10 20v-5h4v5" />
    </svg>
  );
}

/** The sidebar: the screens the role may use, in groups; a drawer with a close button below 1024px. */
function Sidebar({ ref, onClose }: { ref: RefObject<HTMLElement | null>; onClose: () => void }) {
  const { can } = useAuthorization();
  return (
    <aside id="dashboard-sidebar" ref={ref} aria-labelledby="dashboard-sidebar-title" className="min-h-full w-72 border-r border-base-300 bg-base-100">
      <div className="flex items-center justify-between gap-2 border-b border-base-300 px-4 py-3">
        <h2 id="dashboard-sidebar-title" className="text-lg font-bold">
          Dashboard
        </h2>
        <button type="button" className="btn btn-ghost btn-sm btn-circle lg:hidden" aria-label="Close menu" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      <nav aria-label="Dashboard">
        <ul className="menu w-full gap-1 p-4">
          {sidebarFor(can).map((group) => (
            <li key={group.title}>
              <h3 className="menu-title text-base-content/80">{group.title}</h3>
              <ul>
                {group.links.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} end>
                      {link.label}
                      {link.badge && <span className="badge badge-sm badge-secondary">{link.badge}</span>}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}

/**
 * The drawer below 1024px: open, it takes the focus, and Escape or a wide screen closes it; any
 * navigation closes it too.
 */
function useDrawer() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sidebarRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);

  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    sidebarRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    const wide = window.matchMedia?.(WIDE_SCREEN_QUERY);
    const onWide = (event: MediaQueryListEvent) => {
      if (event.matches) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    wide?.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      wide?.removeEventListener('change', onWide);
    };
  }, [open]);
  return { open, setOpen, close, toggleRef, sidebarRef };
}

/**
 * The dashboard frame: a sticky top bar (menu, brand, the bell, back to the shop, sign out), the sidebar
 * (a titled drawer with a close button below 1024px) listing only the screens the role may use, the
 * offline banner and the screen.
 */
export function DashboardLayout() {
  const settings = useSettings();
  const attention = useAttentionItems();
  const notifications = useDeviceNotifications();
  const { signOut, signingOut } = useSignOut();
  const { open, setOpen, close, toggleRef, sidebarRef } = useDrawer();
  const [demoShop] = useState(isDemoShop);

  return (
    <div className="drawer min-h-screen bg-base-200 lg:drawer-open">
      <input
        id={DRAWER_ID}
        type="checkbox"
        className="drawer-toggle"
        checked={open}
        onChange={(event) => setOpen(event.target.checked)}
        tabIndex={-1}
        aria-hidden="true"
        aria-label="Sidebar"
      />
      <div className="drawer-content flex min-w-0 flex-col">
        <header className="sticky top-0 z-30">
          <div className="navbar gap-1 border-b border-base-300 bg-base-100 px-2 shadow-sm sm:gap-2 sm:px-4">
            <MenuToggle ref={toggleRef} open={open} onToggle={() => setOpen((value) => !value)} controls="dashboard-sidebar" />
            <Link to="/" className="btn btn-ghost gap-2 px-2 text-lg font-bold text-primary">
              <BrandMark />
              <span className="max-sm:sr-only">{settings.brandName}</span>
            </Link>
            <div className="flex-1" />
            <NotificationBell items={attention} unread={notifications ? unreadOf(notifications).length : 0}>
              <NotificationPanel />
            </NotificationBell>
            <Link to="/" className="btn btn-ghost btn-sm gap-1 px-2 sm:px-3">
              <StorefrontIcon />
              <span>Shop</span>
              <span className="sr-only"> (back to the storefront)</span>
            </Link>
            <button type="button" className="btn btn-outline btn-primary btn-sm" onClick={() => void signOut()} disabled={signingOut}>
              {signingOut ? 'Logging Out...' : 'Logout'}
            </button>
          </div>
          {demoShop && (
            <p className="bg-warning px-4 py-2 text-center text-sm text-warning-content" data-testid="demo-banner">
              <strong>Demo shop.</strong> The demo accounts and their data are still here: remove them on the server with <code>npm run demo:remove</code>{' '}
              before real customers use the shop.
            </p>
          )}
          <OfflineBanner />
        </header>
        <main id="main-content" tabIndex={-1} className="flex-1 p-4 focus:outline-none md:p-6">
          <LowStockBanner />
          <Outlet />
        </main>
      </div>
      <div className="drawer-side z-40">
        {/* Pointer users close the drawer by tapping beside it; keyboard users with Escape or the close button. */}
        <label htmlFor={DRAWER_ID} aria-hidden="true" className="drawer-overlay" />
        <Sidebar ref={sidebarRef} onClose={close} />
      </div>
    </div>
  );
}
