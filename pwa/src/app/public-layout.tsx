import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ExternalLink } from '../components/external-link.tsx';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { isStaffRole } from '../../../edge-api/src/contract/users.ts';
import { BrandMark, ChatIcon } from '../components/icons.tsx';
import { InstallButton } from '../components/install-button.tsx';
import { MenuToggle } from '../components/menu-toggle.tsx';
import { NavDropdown } from '../components/nav-dropdown.tsx';
import { OfflineBanner } from '../components/offline-banner.tsx';
import { SocialLinks } from '../components/social-icons.tsx';
import { useDismiss } from '../components/use-dismiss.ts';
import { useSignOut } from '../components/use-sign-out.ts';
import { useCurrentUser, useSettings } from '../db/device-hooks.ts';
import { useAuth } from '../lib/auth.tsx';
import { DisplayCurrencySelect } from '../lib/display-currency-select.tsx';
import { returnPath, signInHref } from '../lib/return-path.ts';

/** The customer's bell reads the device's tickets (Dexie): loaded in the browser only, so the server render of the public pages stays free of it (decision 150). */
const CustomerBell = lazy(() => import('../features/support/customer-bell.tsx').then((m) => ({ default: m.CustomerBell })));

interface MenuLink {
  to: string;
  label: string;
}

const servicesMenu: MenuLink[] = [
  // The Wise tab of the listing.
  { to: '/services?category=wise', label: 'Wise' },
  { to: '/Proxy', label: 'Proxy IP' },
];

const topLinkClass = ({ isActive }: { isActive: boolean }) => `btn btn-ghost font-medium ${isActive ? 'btn-active' : ''}`;

/** The storefront frame: top bar, sticky navigation, offline banner, the screen, footer. */
export function PublicLayout() {
  const settings = useSettings();
  return (
    <div className="flex min-h-screen flex-col bg-base-100 text-base-content">
      <a href="#main-content" className="btn btn-primary btn-sm sr-only z-[100] focus:not-sr-only focus:fixed focus:left-2 focus:top-2">
        Skip to content
      </a>
      <aside aria-label="Contact and social links" className="bg-neutral text-neutral-content">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-2 px-4 py-1">
          {settings.contactChatUrl ? (
            <ExternalLink href={settings.contactChatUrl} className="btn btn-sm btn-ghost gap-2 text-neutral-content">
              <ChatIcon />
              Contact Us
            </ExternalLink>
          ) : (
            <Link to="/contact" className="btn btn-sm btn-ghost gap-2 text-neutral-content">
              <ChatIcon />
              Contact Us
            </Link>
          )}
          <SocialLinks links={settings.socialLinks} linkClassName="text-neutral-content hover:bg-neutral-content/10" />
        </div>
      </aside>
      <header className="sticky top-0 z-40">
        <SiteNav brandName={settings.brandName} />
        <OfflineBanner />
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <footer className="footer footer-center bg-base-200 p-6 text-base-content">
        <nav aria-label="Footer" className="flex flex-wrap justify-center gap-x-4">
          <Link className="link link-hover inline-flex min-h-11 items-center px-1" to="/about">
            About
          </Link>
          <Link className="link link-hover inline-flex min-h-11 items-center px-1" to="/services">
            Services
          </Link>
          <Link className="link link-hover inline-flex min-h-11 items-center px-1" to="/contact">
            Contact
          </Link>
        </nav>
        {/* Where a phone's visitor looks for it, on every storefront screen (decision 241). */}
        <DisplayCurrencySelect enabled={settings.displayCurrencies} />
        <p>
          © {new Date().getFullYear()} {settings.brandName}. All rights reserved.
        </p>
      </footer>
    </div>
  );
}

/** The bar's links on a wide screen. */
function DesktopLinks({ signedIn, dashboardMenu }: { signedIn: boolean; dashboardMenu: MenuLink[] }) {
  return (
    <div className="navbar-center hidden lg:flex">
      <ul className="flex items-center gap-1">
        <li>
          <NavLink to="/" end className={topLinkClass}>
            Home
          </NavLink>
        </li>
        <li>
          <NavLink to="/about" className={topLinkClass}>
            About
          </NavLink>
        </li>
        <li>
          <NavDropdown label="Services">{(close) => servicesMenu.map((link) => <MenuItem key={link.to} link={link} onChoose={close} />)}</NavDropdown>
        </li>
        <li>
          <NavLink to="/contact" className={topLinkClass}>
            Contact
          </NavLink>
        </li>
        {signedIn && (
          <li>
            <NavDropdown label="Dashboard">{(close) => dashboardMenu.map((link) => <MenuItem key={link.to} link={link} onChoose={close} />)}</NavDropdown>
          </li>
        )}
      </ul>
    </div>
  );
}

/** The menu the toggle opens on a narrow screen. */
function MobileMenu({ open, signedIn, dashboardMenu }: { open: boolean; signedIn: boolean; dashboardMenu: MenuLink[] }) {
  return (
    <div id="mobile-menu" hidden={!open} className="border-t border-base-300 bg-base-100 lg:hidden">
      <ul className="menu w-full p-4 text-base">
        <li>
          <NavLink to="/" end>
            Home
          </NavLink>
        </li>
        <li>
          <NavLink to="/about">About</NavLink>
        </li>
        <li>
          <details>
            <summary>Services</summary>
            <ul>
              {servicesMenu.map((link) => (
                <MenuItem key={link.to} link={link} />
              ))}
            </ul>
          </details>
        </li>
        <li>
          <NavLink to="/contact">Contact</NavLink>
        </li>
        {signedIn && (
          <li>
            <details>
              <summary>Dashboard</summary>
              <ul>
                {dashboardMenu.map((link) => (
                  <MenuItem key={link.to} link={link} />
                ))}
              </ul>
            </details>
          </li>
        )}
      </ul>
    </div>
  );
}

function SiteNav({ brandName }: { brandName: string }) {
  const auth = useAuth();
  const signedIn = auth.status === 'signedIn';
  const currentUser = useCurrentUser();
  // Spec: the role comes from the user record; unknown or failed reads count as no role.
  const isStaff = isStaffRole(currentUser?.userRole);
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const { signOut: onLogout, signingOut } = useSignOut();
  const navRef = useRef<HTMLElement>(null);
  const mobileButtonRef = useRef<HTMLButtonElement>(null);

  // The whole bar counts as inside: tabbing from the toggle to the panel passes the brand and Login.
  useDismiss(mobileOpen, () => setMobileOpen(false), [navRef], mobileButtonRef);
  // Any navigation closes the mobile menu.
  useEffect(() => setMobileOpen(false), [location.pathname]);

  const dashboardMenu: MenuLink[] = [
    { to: '/my-orders', label: 'My Orders' },
    { to: '/support', label: 'Support' },
    { to: '/profile', label: 'Profile' },
    ...(isStaff ? [{ to: '/dashboard', label: 'Admin Dashboard' }] : []),
  ];

  // The return address is in the link too: the server renders it (decision 053), and a tap before the app
  // has taken over loads /login afresh, without the state. Not the hash: the server never sees it, and its
  // href must be the app's. On a sign-in screen, the page that screen returns to.
  const loginHref = signInHref('/login', returnPath({ from: `${location.pathname}${location.search}` }, location.search));
  const authButton = signedIn ? (
    <button type="button" className="btn btn-outline btn-primary" onClick={() => void onLogout()} disabled={signingOut}>
      {signingOut ? 'Logging Out...' : 'Logout'}
    </button>
  ) : (
    <Link to={loginHref} state={{ from: location }} className="btn btn-primary">
      Login
    </Link>
  );

  return (
    <nav ref={navRef} aria-label="Main" className="border-b border-base-300 bg-base-100/95 shadow-sm backdrop-blur">
      <div className="navbar mx-auto max-w-7xl gap-2 px-4">
        {/* Below lg (no links in the middle) the brand takes the room the buttons leave and is cut short rather than
            run under the bell or Login: a phone's bar holds the menu, the brand, the bell and Logout (issue 33 item 4). */}
        <div className="navbar-start min-w-0 gap-1 max-lg:w-auto max-lg:flex-1">
          <MenuToggle ref={mobileButtonRef} open={mobileOpen} onToggle={() => setMobileOpen((open) => !open)} controls="mobile-menu" />
          <Link to="/" className="btn btn-ghost min-w-0 shrink flex-nowrap gap-2 px-2 text-lg font-bold text-primary sm:text-xl">
            <BrandMark className="h-7 w-7 shrink-0" />
            <span className="truncate">{brandName}</span>
          </Link>
        </div>

        <DesktopLinks signedIn={signedIn} dashboardMenu={dashboardMenu} />

        <div className="navbar-end gap-2 max-lg:w-auto max-lg:flex-none">
          <InstallButton />
          {signedIn && !isStaff && (
            <Suspense fallback={null}>
              <CustomerBell />
            </Suspense>
          )}
          {authButton}
        </div>
      </div>

      <MobileMenu open={mobileOpen} signedIn={signedIn} dashboardMenu={dashboardMenu} />
    </nav>
  );
}

function MenuItem({ link, onChoose }: { link: MenuLink; onChoose?: () => void }) {
  return (
    <li>
      <NavLink to={link.to} end onClick={onChoose}>
        {link.label}
      </NavLink>
    </li>
  );
}
