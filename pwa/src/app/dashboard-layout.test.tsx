import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { StaffRole } from '../../../edge-api/src/contract/users.ts';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { deleteUserDb, getUserDb } from '../db/local-db.ts';
import { AuthContext, type AuthState } from '../lib/auth.tsx';
import { StaffRoleProvider } from '../lib/authorization.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';

const uid = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const signedIn: AuthState = { status: 'signedIn', user: { id: uid, email: 'staff@example.com' }, session: {} as Session };

afterEach(async () => {
  cleanup();
  await deleteUserDb(uid);
});

function renderDashboard(role: StaffRole = 'admin') {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          { index: true, element: <h1>Orders screen</h1> },
          { path: 'all-wise-stocks', element: <h1>Stocks screen</h1> },
        ],
      },
      { path: '/', element: <h1>Shop</h1> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <AuthContext value={signedIn}>
      <ToastProvider>
        <ConfirmProvider>
          <StaffRoleProvider role={role}>
            <RouterProvider router={router} />
          </StaffRoleProvider>
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
  return router;
}

const sidebar = () => screen.getByRole('navigation', { name: 'Dashboard' });
const linksOf = (container: HTMLElement) =>
  Object.fromEntries(
    within(container)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]),
  );

function order(id: string, orderStatus: Order['orderStatus'], paymentStatus: Order['paymentStatus'], extra: Partial<Order> = {}): Order {
  const now = new Date().toISOString();
  return {
    id,
    productId: id,
    title: 'Wise Account',
    description: '',
    category: 'wise',
    image: '',
    price: '120',
    deliveryTime: 'instant',
    userId: uid,
    userEmail: 'buyer@example.com',
    userName: 'Buyer',
    paymentStatus,
    orderStatus,
    orderDate: now,
    createdAt: now,
    updatedAt: now,
    version: 1,
    ...extra,
  } as Order;
}

describe('DashboardLayout', () => {
  it('says it is a demo shop, and how to remove the demo, while the server reports the demo accounts', () => {
    localStorage.setItem('storefront:config', JSON.stringify({ supabaseUrl: '', supabaseAnonKey: 'k', demo: true }));
    try {
      renderDashboard('admin');
      expect(screen.getByTestId('demo-banner').textContent).toContain('npm run demo:remove');
      cleanup();
      localStorage.setItem('storefront:config', JSON.stringify({ supabaseUrl: '', supabaseAnonKey: 'k', demo: false }));
      renderDashboard('admin');
      expect(screen.queryByTestId('demo-banner')).toBeNull();
    } finally {
      localStorage.removeItem('storefront:config');
    }
  });

  it("lists every screen to an admin, with the spec's categories and the Attendance and Fees addresses", async () => {
    renderDashboard('admin');
    await screen.findByRole('heading', { name: 'Orders screen' });
    for (const title of ['General', 'Users', 'WISE', 'Attendance', 'Fees']) expect(within(sidebar()).getByRole('heading', { name: title })).toBeTruthy();
    expect(linksOf(sidebar())).toEqual({
      'Admin Orders': '/dashboard',
      'Support Tickets': '/dashboard/tickets',
      Services: '/dashboard/admin-services',
      'Add Service': '/dashboard/add-services',
      Settings: '/dashboard/settings',
      Payments: '/dashboard/payments',
      Coupons: '/dashboard/coupons',
      'API Keys': '/dashboard/api-keys',
      'User Management': '/dashboard/admin-users',
      'All Wise Stocks': '/dashboard/all-wise-stocks',
      'Add Wise Stock': '/dashboard/add-wise-stocks',
      'Import Wise Stock': '/dashboard/import-wise-stocks',
      'Student Attendance': '/student-attendance',
      'Student Attn Reports5': '/student-attn-reports',
      'Employee Attendance': '/employee-attendance',
      'Employee Attn Reports': '/employee-attn-reports',
      'Attendance Devices': '/attendance-devices',
      Fees: '/fees',
    });
    expect(within(sidebar()).getByRole('link', { name: 'Admin Orders' }).getAttribute('aria-current')).toBe('page');
  });

  it('never shows a moderator a link to a screen only admins can use', async () => {
    renderDashboard('moderator');
    await screen.findByRole('heading', { name: 'Orders screen' });
    const links = linksOf(sidebar());
    for (const adminOnly of [
      'Services',
      'Add Service',
      'Settings',
      'Payments',
      'Coupons',
      'API Keys',
      'User Management',
      'Add Wise Stock',
      'Import Wise Stock',
    ])
      expect(links[adminOnly]).toBeUndefined();
    expect(links['Admin Orders']).toBe('/dashboard');
    expect(links['All Wise Stocks']).toBe('/dashboard/all-wise-stocks');
    expect(within(sidebar()).queryByRole('heading', { name: 'Users' })).toBeNull();
  });

  it('has a brand link and a way back to the shop, a Logout button and a bell that opens what needs attention', async () => {
    // Two unpaid orders with a proof to check, one unpaid without (nothing to check yet), one cancelled, one paid to deliver.
    const proof = { transactionId: 'tx', sentAt: new Date().toISOString() };
    await getUserDb(uid).orders.bulkPut([
      order('o1', 'pending', 'pending', { paymentProof: proof }),
      order('o2', 'pending', 'pending', { paymentProof: proof }),
      order('o5', 'pending', 'pending'),
      order('o3', 'cancelled', 'pending', { paymentProof: proof }),
      order('o4', 'processing', 'paid'),
    ]);
    renderDashboard();
    await screen.findByRole('heading', { name: 'Orders screen' });
    const banner = screen.getByRole('banner');
    expect(within(banner).getAllByRole('link')[0]!.getAttribute('href')).toBe('/');
    expect(within(banner).getByRole('link', { name: /Shop/ }).getAttribute('href')).toBe('/');
    expect(within(banner).getByRole('button', { name: 'Logout' })).toBeTruthy();

    const bell = within(banner).getByRole('button', { name: 'Notifications' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    await within(banner).findByText('3 things need your attention');
    fireEvent.click(bell);
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(bell.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(false);
    const payments = within(panel).getByRole('link', { name: /Orders waiting for a payment check/ });
    expect(payments.getAttribute('href')).toBe('/dashboard?attention=payment-check');
    expect(payments.textContent).toContain('2');
    const deliveries = within(panel).getByRole('link', { name: /Paid orders waiting for delivery/ });
    expect(deliveries.getAttribute('href')).toBe('/dashboard?attention=delivery');
    expect(deliveries.textContent).toContain('1');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(panel.hidden).toBe(true);
  });

  it('opens a titled drawer from the menu button and closes it with its close button, Escape and on navigation', async () => {
    renderDashboard();
    await screen.findByRole('heading', { name: 'Orders screen' });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const drawer = document.getElementById('dashboard-drawer') as HTMLInputElement;
    const aside = document.getElementById('dashboard-sidebar')!;
    expect(within(aside).getByRole('heading', { name: 'Dashboard', level: 2 })).toBeTruthy();

    fireEvent.click(toggle);
    expect(drawer.checked).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(within(aside).getByRole('button', { name: 'Close menu' }));
    expect(drawer.checked).toBe(false);
    expect(document.activeElement).toBe(toggle);

    fireEvent.click(toggle);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(drawer.checked).toBe(false);

    fireEvent.click(toggle);
    fireEvent.click(within(sidebar()).getByRole('link', { name: 'All Wise Stocks' }));
    await screen.findByRole('heading', { name: 'Stocks screen' });
    expect(drawer.checked).toBe(false);
  });
});
