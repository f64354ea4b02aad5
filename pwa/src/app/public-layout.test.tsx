import type { Session } from '@supabase/auth-js';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../../edge-api/src/contract/settings.ts';
import type { Role } from '../../../edge-api/src/contract/users.ts';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { deleteUserDb, getUserDb } from '../db/local-db.ts';
import { AuthContext, type AuthState } from '../lib/auth.tsx';
import { PublicLayout } from './public-layout.tsx';

const uid = '5f0c6d7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await deleteUserDb(uid);
});

function renderLayout(auth: AuthState, path = '/') {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <PublicLayout />,
        children: [
          { index: true, element: <h1>Home screen</h1> },
          { path: 'about', element: <h1>About screen</h1> },
          { path: 'services', element: <h1>Services screen</h1> },
          { path: 'register', element: <h1>Register screen</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AuthContext value={auth}>
      <ToastProvider>
        <ConfirmProvider>
          <RouterProvider router={router} />
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
  return router;
}

async function signedInAs(role: Role): Promise<AuthState> {
  const now = new Date().toISOString();
  await getUserDb(uid).users.put({
    uid,
    email: 'ada@example.com',
    displayName: 'Ada',
    mobile: '123',
    userRole: role,
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  return { status: 'signedIn', user: { id: uid, email: 'ada@example.com' }, session: {} as Session };
}

const main = () => screen.getByRole('navigation', { name: 'Main' });

describe('PublicLayout', () => {
  it('shows the brand, a Login button and no Dashboard menu when signed out', async () => {
    renderLayout({ status: 'signedOut' });
    await screen.findByRole('heading', { name: 'Home screen' });
    expect(within(main()).getByRole('link', { name: defaultSettings.brandName }).getAttribute('href')).toBe('/');
    expect(within(main()).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(within(main()).queryByRole('button', { name: 'Dashboard' })).toBeNull();
    expect(within(main()).queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.getByText(`© ${new Date().getFullYear()} ${defaultSettings.brandName}. All rights reserved.`)).toBeTruthy();
  });

  it('puts the page it is on, not its hash, in the address of Login, so a full page load still returns there', async () => {
    const router = renderLayout({ status: 'signedOut' }, '/services?category=wise#list');
    await screen.findByRole('heading', { name: 'Services screen' });
    expect(within(main()).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login?next=%2Fservices%3Fcategory%3Dwise');
    await act(() => router.navigate('/about'));
    expect(within(main()).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login?next=%2Fabout');
    // On a sign-in screen, where that screen returns to.
    await act(() => router.navigate('/register?next=%2Fservices'));
    expect(within(main()).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login?next=%2Fservices');
    await act(() => router.navigate('/'));
    expect(within(main()).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
  });

  it('opens the contact chat in a new tab and names every social link', async () => {
    renderLayout({ status: 'signedOut' });
    const contact = await screen.findByRole('link', { name: 'Contact Us (opens in a new tab)' });
    expect(contact.getAttribute('href')).toBe(defaultSettings.contactChatUrl);
    expect(contact.getAttribute('target')).toBe('_blank');
    expect(contact.getAttribute('rel')).toContain('noopener');
    const social = within(screen.getByRole('list', { name: 'Social media' })).getAllByRole('link');
    expect(social.map((link) => link.textContent)).toContain('Facebook (opens in a new tab)');
    expect(within(screen.getByRole('list', { name: 'Social media' })).getByRole('link', { name: 'Facebook (opens in a new tab)' })).toBeTruthy();
    for (const link of social) expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('opens the Services submenu and closes it on Escape, outside click and navigation', async () => {
    const router = renderLayout({ status: 'signedOut' });
    const services = await within(main()).findByRole('button', { name: 'Services' });
    fireEvent.click(services);
    expect(services.getAttribute('aria-expanded')).toBe('true');
    const submenu = document.getElementById(services.getAttribute('aria-controls')!)!;
    expect(within(submenu).getByRole('link', { name: 'Wise' }).getAttribute('href')).toBe('/services?category=wise');
    expect(within(submenu).getByRole('link', { name: 'Proxy IP' }).getAttribute('href')).toBe('/Proxy');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(services.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(services);

    fireEvent.click(services);
    fireEvent.pointerDown(document.body);
    expect(services.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(services);
    fireEvent.click(within(submenu).getByRole('link', { name: 'Wise' }));
    await screen.findByRole('heading', { name: 'Services screen' });
    expect(router.state.location.pathname).toBe('/services');
    expect(services.getAttribute('aria-expanded')).toBe('false');
  });

  it('collapses the mobile menu on navigation', async () => {
    renderLayout({ status: 'signedOut' });
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById('mobile-menu')!;
    expect(panel.hidden).toBe(false);
    fireEvent.click(within(panel).getByRole('link', { name: 'About' }));
    await screen.findByRole('heading', { name: 'About screen' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(panel.hidden).toBe(true);
  });

  it('collapses the mobile menu when the window reaches 1024px', async () => {
    const widths = new Set<(event: { matches: boolean }) => void>();
    vi.stubGlobal('matchMedia', (query: string) => ({
      media: query,
      matches: false,
      addEventListener: (_type: string, listener: (event: { matches: boolean }) => void) => widths.add(listener),
      removeEventListener: (_type: string, listener: (event: { matches: boolean }) => void) => widths.delete(listener),
    }));
    renderLayout({ status: 'signedOut' });
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    act(() => widths.forEach((listener) => listener({ matches: true })));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows My Orders and Profile to a signed-in customer, without Admin Dashboard', async () => {
    renderLayout(await signedInAs('user'));
    const dashboard = await within(main()).findByRole('button', { name: 'Dashboard' });
    fireEvent.click(dashboard);
    const menu = document.getElementById(dashboard.getAttribute('aria-controls')!)!;
    expect(within(menu).getByRole('link', { name: 'My Orders' }).getAttribute('href')).toBe('/my-orders');
    expect(within(menu).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    // The role arrives from the local database; give it the time to, then check it gave no staff link.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(menu).queryByRole('link', { name: 'Admin Dashboard' })).toBeNull();
    expect(within(main()).getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it.each(['admin', 'moderator'] as const)('adds Admin Dashboard for a %s', async (role) => {
    renderLayout(await signedInAs(role));
    const dashboard = await within(main()).findByRole('button', { name: 'Dashboard' });
    fireEvent.click(dashboard);
    const menu = document.getElementById(dashboard.getAttribute('aria-controls')!)!;
    expect((await within(menu).findByRole('link', { name: 'Admin Dashboard' })).getAttribute('href')).toBe('/dashboard');
  });
});
