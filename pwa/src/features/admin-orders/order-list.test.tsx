import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { OrderList, type OrderListProps } from './order-list.tsx';

afterEach(cleanup);

const order = (id: string, change: Partial<Order> = {}): Order => ({
  id: `00000000-0000-4000-8000-0000000000${id}`,
  productId: 'p',
  title: 'Editable Bank Statement Template',
  description: '',
  category: 'editableFile',
  image: '',
  price: '15',
  deliveryTime: 'instant',
  userId: 'u',
  userEmail: 'customer@demo.test',
  userName: 'Demo Customer',
  paymentStatus: 'pending',
  orderStatus: 'pending',
  orderDate: '2026-11-20T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  version: 1,
  ...change,
});

function renderList(orders: Order[], props: Partial<OrderListProps> = {}) {
  const handlers = { onOrderStatus: vi.fn(), onPaymentStatus: vi.fn(), onDeliver: vi.fn(), onDelete: vi.fn(), onHistory: vi.fn() };
  render(<OrderList orders={orders} pendingIds={new Set()} canDelete canSeeHistory online {...handlers} {...props} />);
  return handlers;
}

const card = (id: string) => screen.getAllByRole('article').find((article) => article.textContent?.includes(`#000000${id}`))!;

describe('the order list', () => {
  it("names each order's controls with its short id, next to its title and customer", () => {
    const handlers = renderList([order('01')]);
    const item = card('01');
    expect(within(item).getByRole('heading', { name: 'Editable Bank Statement Template' })).toBeTruthy();
    expect(within(item).getByText('Demo Customer')).toBeTruthy();
    fireEvent.change(within(item).getByLabelText('Order status of order #00000001'), { target: { value: 'processing' } });
    expect(handlers.onOrderStatus).toHaveBeenCalledWith(expect.objectContaining({ id: order('01').id }), 'processing');
    fireEvent.change(within(item).getByLabelText('Payment status of order #00000001'), { target: { value: 'failed' } });
    expect(handlers.onPaymentStatus).toHaveBeenCalledWith(expect.objectContaining({ id: order('01').id }), 'failed');
    fireEvent.click(within(item).getByRole('button', { name: 'Add credentials to order #00000001' }));
    expect(handlers.onDeliver).toHaveBeenCalledTimes(1);
    fireEvent.click(within(item).getByRole('button', { name: 'Delete order #00000001' }));
    expect(handlers.onDelete).toHaveBeenCalledTimes(1);
  });

  it('offers no credentials for a cancelled or refunded order, and says why', () => {
    renderList([
      order('02', { orderStatus: 'cancelled' }),
      order('03', { paymentStatus: 'refunded', orderStatus: 'completed' }),
      order('04', { orderStatus: 'processing' }),
    ]);
    expect(within(card('02')).queryByRole('button', { name: /Add credentials/ })).toBeNull();
    expect(within(card('02')).getByText('None: the order is cancelled')).toBeTruthy();
    expect(within(card('03')).queryByRole('button', { name: /Add credentials/ })).toBeNull();
    expect(within(card('03')).getByText('None: the order is refunded')).toBeTruthy();
    expect(within(card('04')).getByRole('button', { name: 'Add credentials to order #00000004' })).toBeTruthy();
  });

  it('shows delivered credentials instead of the button, and no admin actions to a moderator', () => {
    renderList([order('05', { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'sold@wise.test' })], { canDelete: false, canSeeHistory: false });
    expect(within(card('05')).getByText('sold@wise.test')).toBeTruthy();
    expect(within(card('05')).queryByRole('button', { name: /Add credentials|Delete|History/ })).toBeNull();
  });
});
