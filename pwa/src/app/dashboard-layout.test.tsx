import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardLayout } from './dashboard-layout.tsx';

afterEach(cleanup);

function renderDashboard() {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          { index: true, element: <h1>Orders screen</h1> },
          { path: 'settings', element: <h1>Settings screen</h1> },
        ],
      },
      { path: '/fees', element: <h1>Under Construction</h1> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('DashboardLayout', () => {
  it('lists every sidebar category with the links of DESIGN section 7', async () => {
    renderDashboard();
    await screen.findByRole('heading', { name: 'Orders screen' });
    const sidebar = screen.getByRole('navigation', { name: 'Dashboard' });
    for (const title of ['General', 'Users', 'WISE', 'Attendance', 'Fees']) expect(within(sidebar).getByRole('heading', { name: title })).toBeTruthy();
    const hrefs = Object.fromEntries(within(sidebar).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]));
    expect(hrefs).toEqual({
      'Admin Orders': '/dashboard',
      Services: '/dashboard/admin-services',
      'Add Service': '/dashboard/add-services',
      Settings: '/dashboard/settings',
      'User Management': '/dashboard/admin-users',
      'All Wise Stocks': '/dashboard/all-wise-stocks',
      'Add Wise Stock': '/dashboard/add-wise-stocks',
      'Student Attendance': '/student-attendance',
      'Student Attn Reports5': '/student-attn-reports',
      'Employee Attendance': '/employee-attendance',
      'Employee Attn Reports': '/employee-attn-reports',
      'Attendance Devices': '/attendance-devices',
      Fees: '/fees',
    });
    expect(within(sidebar).getByRole('link', { name: 'Admin Orders' }).getAttribute('aria-current')).toBe('page');
  });

  it('has a brand link home and a named bell button', async () => {
    renderDashboard();
    await screen.findByRole('heading', { name: 'Orders screen' });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(within(banner).getAllByRole('link')[0]!.getAttribute('href')).toBe('/');
  });

  it('opens the drawer from the menu button and closes it on Escape and on navigation', async () => {
    renderDashboard();
    await screen.findByRole('heading', { name: 'Orders screen' });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const drawer = document.getElementById('dashboard-drawer') as HTMLInputElement;
    fireEvent.click(toggle);
    expect(drawer.checked).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(drawer.checked).toBe(false);
    expect(document.activeElement).toBe(toggle);

    fireEvent.click(toggle);
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'Settings' }));
    await screen.findByRole('heading', { name: 'Settings screen' });
    expect(drawer.checked).toBe(false);
  });
});
