import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { AfterSalesPanel, canReport } from './after-sales-panel.tsx';

const DAY = 86_400_000;
const delivered: Order = {
  id: '3f2b9c1e-8d4a-4b6f-9e2a-7c5d1a0b9e84',
  productId: 'a1',
  title: 'All Country Wise Account',
  description: '',
  category: 'wise',
  image: '',
  price: '120',
  deliveryTime: '1hour',
  userId: 'u1',
  userEmail: 'buyer@example.test',
  userName: 'Buyer',
  paymentStatus: 'paid',
  orderStatus: 'delivered',
  orderDate: '2026-03-10T08:00:00.000Z',
  createdAt: '2026-03-10T08:00:00.000Z',
  updatedAt: '2026-03-10T08:00:00.000Z',
  version: 3,
  wiseEmail: 'new@wise.test',
  wisePassword: 'New-Secret-1',
  deliveredAt: new Date(Date.now() - DAY).toISOString(),
  warrantyEndsAt: new Date(Date.now() + 6 * DAY).toISOString(),
};

const renderPanel = (order: Partial<Order>) =>
  render(
    <ToastProvider>
      <AfterSalesPanel order={{ ...delivered, ...order }} />
    </ToastProvider>,
  );

afterEach(cleanup);

describe('after-sales on the order card', () => {
  it('offers a report within the warranty, and not after it, nor without one, nor while one is open', () => {
    const now = new Date();
    expect(canReport(delivered, now)).toBe(true);
    expect(canReport({ ...delivered, warrantyEndsAt: new Date(now.getTime() - 1000).toISOString() }, now)).toBe(false);
    expect(canReport({ ...delivered, warrantyEndsAt: undefined }, now)).toBe(false);
    expect(canReport({ ...delivered, report: { status: 'open', reason: 'locked', note: '', reportedAt: now.toISOString() } }, now)).toBe(false);
    expect(canReport({ ...delivered, report: { status: 'declined', reason: 'locked', note: '', reportedAt: now.toISOString(), reply: 'no' } }, now)).toBe(true);
    expect(canReport({ ...delivered, orderStatus: 'processing' }, now)).toBe(false);

    renderPanel({});
    expect(screen.getByRole('button', { name: 'Report a problem' })).toBeTruthy();
    expect(screen.getByText(/^Warranty until /)).toBeTruthy();
    cleanup();
    renderPanel({ warrantyEndsAt: new Date(Date.now() - DAY).toISOString() });
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
    expect(screen.getByText(/^The warranty ended on /)).toBeTruthy();
  });

  it('shows nothing before delivery', () => {
    const { container } = renderPanel({ orderStatus: 'processing', wiseEmail: undefined });
    expect(container.textContent).toBe('');
  });

  it('tells the outcome of a report: waiting, replaced with the earlier credentials masked, or declined with the message', () => {
    renderPanel({ report: { status: 'open', reason: 'wrong_password', note: 'x', reportedAt: delivered.deliveredAt! } });
    expect(screen.getByTestId('report-outcome').textContent).toContain('The password is wrong');
    expect(screen.getByTestId('report-outcome').textContent).toContain('Our team is looking at it');
    cleanup();

    renderPanel({
      report: { status: 'replaced', reason: 'locked', note: '', reportedAt: delivered.deliveredAt!, resolvedAt: new Date().toISOString() },
      deliveryHistory: [{ at: new Date().toISOString(), kind: 'replaced', wiseEmail: 'ol•••@wise.test' }],
    });
    expect(screen.getByTestId('report-outcome').textContent).toContain('answered with new credentials');
    expect(screen.getByText('Earlier credentials (1)')).toBeTruthy();
    expect(screen.getByText('ol•••@wise.test')).toBeTruthy();
    expect(screen.queryByTestId('rotation-notice')).toBeNull();
    cleanup();

    renderPanel({ report: { status: 'declined', reason: 'locked', note: '', reportedAt: delivered.deliveredAt!, reply: 'Log in with the email.' } });
    expect(screen.getByTestId('report-outcome').textContent).toContain('declined');
    expect(screen.getByText('Log in with the email.')).toBeTruthy();
  });

  it('tells the customer when the password was changed in stock', () => {
    const at = new Date().toISOString();
    renderPanel({ credentialsRotatedAt: at, deliveryHistory: [{ at, kind: 'rotated', wiseEmail: 'ne•••@wise.test' }] });
    expect(screen.getByTestId('rotation-notice').textContent).toContain('The password of this account was changed');
    expect(screen.getByText(/Password changed on/)).toBeTruthy();
  });
});
