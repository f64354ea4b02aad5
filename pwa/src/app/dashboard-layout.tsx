import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { BellIcon, BrandMark } from '../components/icons.tsx';
import { MenuToggle } from '../components/menu-toggle.tsx';
import { OfflineBanner } from '../components/offline-banner.tsx';
import { WIDE_SCREEN_QUERY } from '../components/use-dismiss.ts';
import { useSettings } from '../db/hooks.ts';

interface SidebarLink {
  to: string;
  label: string;
  badge?: string;
}

/** DESIGN section 7: the Attendance and Fees links open the Under Construction page. */
const sidebar: { title: string; links: SidebarLink[] }[] = [
  {
    title: 'General',
    links: [
      { to: '/dashboard', label: 'Admin Orders' },
      { to: '/dashboard/admin-services', label: 'Services' },
      { to: '/dashboard/add-services', label: 'Add Service' },
      { to: '/dashboard/settings', label: 'Settings' },
    ],
  },
  { title: 'Users', links: [{ to: '/dashboard/admin-users', label: 'User Management' }] },
  {
    title: 'WISE',
    links: [
      { to: '/dashboard/all-wise-stocks', label: 'All Wise Stocks' },
      { to: '/dashboard/add-wise-stocks', label: 'Add Wise Stock' },
    ],
  },
  {
    title: 'Attendance',
    links: [
      { to: '/student-attendance', label: 'Student Attendance' },
      { to: '/student-attn-reports', label: 'Student Attn Reports', badge: '5' },
      { to: '/employee-attendance', label: 'Employee Attendance' },
      { to: '/employee-attn-reports', label: 'Employee Attn Reports' },
      { to: '/attendance-devices', label: 'Attendance Devices' },
    ],
  },
  { title: 'Fees', links: [{ to: '/fees', label: 'Fees' }] },
];

const DRAWER_ID = 'dashboard-drawer';

/** The dashboard frame: sticky top bar, sidebar (a drawer below 1024px), offline banner, the screen. */
export function DashboardLayout() {
  const settings = useSettings();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sidebarRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);

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
          <div className="navbar gap-2 border-b border-base-300 bg-base-100 px-4 shadow-sm">
            <MenuToggle ref={toggleRef} open={open} onToggle={() => setOpen((value) => !value)} controls="dashboard-sidebar" />
            <Link to="/" className="btn btn-ghost gap-2 px-2 text-lg font-bold text-primary">
              <BrandMark />
              {settings.brandName}
            </Link>
            <div className="flex-1" />
            <button type="button" className="btn btn-ghost btn-circle" aria-label="Notifications">
              <BellIcon />
            </button>
          </div>
          <OfflineBanner />
        </header>
        <main id="main-content" tabIndex={-1} className="flex-1 p-4 focus:outline-none md:p-6">
          <Outlet />
        </main>
      </div>
      <div className="drawer-side z-40">
        {/* Pointer users close the drawer by tapping beside it; keyboard users with Escape or the Menu button. */}
        <label htmlFor={DRAWER_ID} aria-hidden="true" className="drawer-overlay" />
        <aside id="dashboard-sidebar" ref={sidebarRef} className="min-h-full w-72 border-r border-base-300 bg-base-100">
          <nav aria-label="Dashboard">
            <ul className="menu w-full gap-1 p-4">
              {sidebar.map((group) => (
                <li key={group.title}>
                  <h2 className="menu-title text-base-content/80">{group.title}</h2>
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
      </div>
    </div>
  );
}
