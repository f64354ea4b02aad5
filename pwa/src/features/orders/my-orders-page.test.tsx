import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { AuthContext, type AuthState } from '../../lib/auth.tsx';
import { MyOrdersPage } from './my-orders-page.tsx';

const uid = '5c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e';
const signedIn: AuthState = { status: 'signedIn', user: { id: uid, email: 'many@example.com' } };

const order = (i: number): Order => {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    productId: '00000000-0000-4000-8000-000000000000',
    title: `Order number ${i}`,
    description: '',
    category: 'documents',
    image: '',
    price: '10',
    deliveryTime: '1hour',
    userId: uid,
    userEmail: 'many@example.com',
    userName: 'Many',
    paymentStatus: 'pending',
    orderStatus: 'pending',
    orderDate: at,
    createdAt: at,
    updatedAt: at,
    version: i + 1,
  };
};

/** My Orders at `address`, for the signed-in customer above. */
function renderMyOrders(address = '/my-orders') {
  render(
    <AuthContext value={signedIn}>
      <ToastProvider>
        <ConfirmProvider>
          <MemoryRouter initialEntries={[address]}>
            <Routes>
              <Route path="/my-orders" element={<MyOrdersPage />} />
            </Routes>
          </MemoryRouter>
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
}

beforeEach(() => {
  // The device is offline: no request leaves it (the page still asks for the payment rails).
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await deleteUserDb(uid);
});

describe('MyOrdersPage with a long history', () => {
  it('renders the newest 30 of 5,000 orders from the device, and 30 more on each Show More', async () => {
    const db = getUserDb(uid);
    await db.orders.bulkPut(Array.from({ length: 5000 }, (_, i) => order(i)));
    await db.meta.put({ key: 'cursor', value: 1 });
    renderMyOrders();
    expect(await screen.findByRole('heading', { name: 'Order number 4999' })).toBeTruthy();
    // The first few cards paint first; the rest of the page follows right after (issue 33 item 6).
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(30));
    expect(screen.queryByRole('heading', { name: 'Order number 4969' })).toBeNull();
    expect(screen.getByText('Showing the newest 30 of 5000 orders.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Show 30 More Orders' }));
    expect(await screen.findByRole('heading', { name: 'Order number 4969' })).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(60);
  });

  it('reads only the page it shows from the device, newest first, however long the history', async () => {
    const db = getUserDb(uid);
    // Inserted oldest last, so the device's own order (by id) is not the order of creation.
    await db.orders.bulkPut(Array.from({ length: 5000 }, (_, i) => order(4999 - i)));
    await db.meta.put({ key: 'cursor', value: 1 });
    let rowsRead = 0;
    db.orders.hook('reading', (row) => {
      rowsRead++;
      return row;
    });
    renderMyOrders();
    await screen.findByRole('heading', { name: 'Order number 4999' });
    expect(screen.getByText(/^5000 orders for/)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(30));
    const titles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles().slice(0, 3)).toEqual(['Order number 4999', 'Order number 4998', 'Order number 4997']);
    fireEvent.click(screen.getByRole('button', { name: 'Show 30 More Orders' }));
    await screen.findByRole('heading', { name: 'Order number 4940' });
    expect(titles()).toHaveLength(60);
    expect(titles()[59]).toBe('Order number 4940');
    // A page of 30 and then 60: reading every order (and sorting it) read 5,000 rows each time.
    expect(rowsRead).toBeLessThanOrEqual(3 * 90);
  });

  it('paints the newest few cards first and the rest of the page after, and brings an order further down into view', async () => {
    const db = getUserDb(uid);
    await db.orders.bulkPut(Array.from({ length: 40 }, (_, i) => order(i)));
    await db.meta.put({ key: 'cursor', value: 1 });
    const scrolled: string[] = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.id);
    });
    const commits: number[] = [];
    const observer = new MutationObserver(() => commits.push(document.querySelectorAll('main li, li[id^="order-"]').length));
    observer.observe(document.body, { childList: true, subtree: true });
    const target = order(15).id;
    renderMyOrders(`/my-orders#order-${target}`);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(30));
    observer.disconnect();
    // The first cards were on the page before the other 26 were rendered.
    expect(commits.find((count) => count > 0)).toBe(4);
    // Order 15 (the 25th newest) was not among them: it is brought into view once rendered, once.
    expect(scrolled).toEqual([`order-${target}`]);
  });
});
