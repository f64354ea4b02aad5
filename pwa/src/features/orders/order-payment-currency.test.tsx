import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { OrderCard } from './order-card.tsx';

const order: Order = {
  id: '3f2b9c1e-8d4a-4b6f-9e2a-7c5d1a0b9e84',
  productId: 'a1',
  title: 'Editable statement',
  description: '',
  category: 'documents',
  image: '',
  price: '9.99',
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
  paymentMethod: 'bkash',
  coupon: { code: 'WELCOME10', discount: '1.11', listPrice: '11.10' },
};

function renderCard(currency: DisplayCurrency | null, changes: Partial<Order> = {}) {
  return render(
    <MemoryRouter>
      <ToastProvider>
        <ConfirmProvider>
          <OrderCard order={{ ...order, ...changes }} providerChatUrl="https://wa.me/8801700000000" waitingToSync={false} userId="u1" currency={currency} />
        </ConfirmProvider>
      </ToastProvider>
    </MemoryRouter>,
  );
}

const payment = () => within(screen.getByRole('region', { name: 'Payment for order #1a0b9e84' }));

afterEach(cleanup);

describe('My Orders in a display currency (decision 241)', () => {
  it('shows the order price and coupon approximately in euros, and the payment step the USD amount actually due', () => {
    renderCard({ code: 'EUR', rate: 0.92 });
    expect(screen.getByText('≈ €9.19')).toBeTruthy();
    expect(screen.getByText('Coupon WELCOME10: ≈ €1.02 ($1.11) off the list price of ≈ €10.21 ($11.10)')).toBeTruthy();
    expect(payment().getByTestId('amount-due').textContent).toBe('You pay $9.99 (USD); ≈ €9.19 shown for reference');
  });

  it('says only the USD amount due without a display currency, and nothing once the order is paid', () => {
    renderCard(null);
    expect(payment().getByTestId('amount-due').textContent).toBe('You pay $9.99 (USD)');
    expect(screen.getByText('Coupon WELCOME10: $1.11 off the list price of $11.10')).toBeTruthy();
    cleanup();
    renderCard({ code: 'EUR', rate: 0.92 }, { paymentStatus: 'paid', orderStatus: 'delivered' });
    expect(screen.queryByTestId('amount-due')).toBeNull();
    expect(screen.getByText('≈ €9.19')).toBeTruthy();
  });
});
