import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { OrderCard } from './order-card.tsx';

const base: Order = {
  id: '3f2b9c1e-8d4a-4b6f-9e2a-7c5d1a0b9e84',
  productId: 'a1',
  title: 'All Country Wise Account',
  description: 'A verified account',
  category: 'wise',
  image: '',
  price: '120',
  deliveryTime: '1hour',
  userId: 'u1',
  userEmail: 'buyer@example.test',
  userName: 'Buyer',
  paymentStatus: 'pending',
  orderStatus: 'pending',
  orderDate: '2026-03-10T08:00:00.000Z',
  createdAt: '2026-03-10T08:00:00.000Z',
  updatedAt: '2026-03-10T08:00:00.000Z',
  version: 1,
};

function renderCard(order: Partial<Order>, props: { waitingToSync?: boolean; syncError?: string } = {}) {
  return render(
    <ToastProvider>
      <OrderCard
        order={{ ...base, ...order }}
        providerChatUrl="https://wa.me/8801700000000"
        waitingToSync={props.waitingToSync ?? false}
        syncError={props.syncError}
      />
    </ToastProvider>,
  );
}

afterEach(cleanup);

describe('order card', () => {
  it('shows a new order as awaiting processing with its short id and a payment request', () => {
    renderCard({});
    expect(screen.getByText('Awaiting Processing')).toBeTruthy();
    expect(screen.getByText('Payment Pending')).toBeTruthy();
    expect(screen.getByText('#1a0b9e84')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Payment Required' })).toBeTruthy();
    expect(screen.getByText('Complete your payment to start processing')).toBeTruthy();
    const pay = new URL(screen.getByRole('link', { name: 'Complete Payment (opens in a new tab)' }).getAttribute('href')!);
    expect(pay.hostname).toBe('wa.me');
    expect(pay.searchParams.get('text')).toContain(base.id);
    expect(pay.searchParams.get('text')).toContain('$120');
    expect(screen.queryByText('Waiting to sync')).toBeNull();
  });

  it('marks an order whose change has not reached the server yet', () => {
    renderCard({}, { waitingToSync: true });
    expect(screen.getByText('Waiting to sync')).toBeTruthy();
  });

  it('says why the server refused a queued change, instead of waiting to sync', () => {
    renderCard({}, { waitingToSync: true, syncError: 'This service is no longer available.' });
    expect(screen.getByText('Not sent')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('This service is no longer available.');
    expect(screen.queryByText('Waiting to sync')).toBeNull();
  });

  it('shows an unknown status as pending and a missing date as not specified', () => {
    renderCard({ orderStatus: 'lost' as Order['orderStatus'], orderDate: '', createdAt: '' });
    expect(screen.getByText('Awaiting Processing')).toBeTruthy();
    expect(screen.getByText('Not specified')).toBeTruthy();
  });

  it('promises no delivery date for a cancelled or refunded order, and asks no payment for them', () => {
    renderCard({ orderStatus: 'cancelled' });
    expect(screen.queryByText('Expected Delivery')).toBeNull();
    expect(screen.getByText('None: the order was cancelled')).toBeTruthy();
    expect(screen.queryByText('Payment Required')).toBeNull();
    cleanup();
    renderCard({ orderStatus: 'pending', paymentStatus: 'refunded' });
    expect(screen.queryByText('Expected Delivery')).toBeNull();
    expect(screen.getByText('None: the payment was refunded')).toBeTruthy();
    cleanup();
    renderCard({});
    expect(screen.getByText('Expected Delivery')).toBeTruthy();
  });

  it("shows the customer's own views of the password: how many, first when and on which device", () => {
    renderCard({ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'v@wise.test', wisePassword: 'P1' });
    expect(screen.getByTestId('password-views').textContent).toBe('Not viewed yet');
    cleanup();
    renderCard({
      paymentStatus: 'paid',
      orderStatus: 'delivered',
      wiseEmail: 'v@wise.test',
      wisePassword: 'P1',
      views: { count: 3, firstAt: '2026-11-24T01:02:00.000Z', firstDevice: 'Chrome on Android' },
    });
    expect(screen.getByTestId('password-views').textContent).toMatch(/^Viewed 3 times, first on Nov 24, 2026, .+ \(Chrome on Android\)$/);
  });

  it('shows delivered credentials with the password masked until revealed', () => {
    renderCard({
      paymentStatus: 'paid',
      orderStatus: 'delivered',
      wiseEmail: 'delivered@wise.test',
      wisePassword: 'S3cret!pass',
      wiseImage: 'https://img.example/proof.png',
    });
    expect(screen.queryByRole('heading', { name: 'Payment Required' })).toBeNull();
    const panel = within(screen.getByRole('region', { name: /Credentials for/ }));
    expect(panel.getByText('delivered@wise.test')).toBeTruthy();
    expect(panel.getByText('••••••••••••')).toBeTruthy();
    expect(panel.queryByText('S3cret!pass')).toBeNull();

    fireEvent.click(panel.getByRole('button', { name: 'Show password' }));
    expect(panel.getByText('S3cret!pass')).toBeTruthy();
    fireEvent.click(panel.getByRole('button', { name: 'Hide password' }));
    expect(panel.queryByText('S3cret!pass')).toBeNull();

    const proof = panel.getByRole('link', { name: /proof image/ });
    expect(proof.getAttribute('href')).toBe('https://img.example/proof.png');
    expect(proof.getAttribute('target')).toBe('_blank');
    fireEvent.error(panel.getByRole('img', { name: /Proof of delivery/ }));
    expect(panel.getByText('Image failed to load. Contact support for proof.')).toBeTruthy();
    expect(panel.getByText('Enable two-factor authentication on the account.')).toBeTruthy();
  });

  it('shows no credentials before delivery', () => {
    renderCard({ paymentStatus: 'paid', orderStatus: 'processing', wiseEmail: 'x@wise.test' });
    expect(screen.getByText('In Progress')).toBeTruthy();
    expect(screen.getByText('Paid')).toBeTruthy();
    expect(screen.queryByText('x@wise.test')).toBeNull();
  });
});
