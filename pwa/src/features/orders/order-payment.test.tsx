import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { OrderCard } from './order-card.tsx';

const base: Order = {
  id: '3f2b9c1e-8d4a-4b6f-9e2a-7c5d1a0b9e84',
  productId: 'a1',
  title: 'Editable statement',
  description: '',
  category: 'documents',
  image: '',
  price: '15',
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
  note: 'Jane Doe, 1 Main St',
  paymentMethod: 'bkash',
};

const instructions = [{ method: 'bkash', address: '01711000111', accountName: 'Shop Ltd', qrImage: '', instructions: 'Use Send Money' }];

function renderCard(order: Partial<Order>) {
  // The card links to a ticket about its order (decision 169): it lives inside the app's router.
  return render(
    <MemoryRouter>
      <ToastProvider>
        <ConfirmProvider>
          <OrderCard
            order={{ ...base, ...order }}
            providerChatUrl="https://wa.me/8801700000000"
            waitingToSync={false}
            paymentInstructions={instructions}
            userId="u1"
          />
        </ConfirmProvider>
      </ToastProvider>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe("an order card's payment part", () => {
  it("shows the note, the chosen method's instructions with copy buttons, the proof form and Cancel Order while pending", () => {
    renderCard({});
    expect(screen.getByText('Jane Doe, 1 Main St')).toBeTruthy();
    expect(screen.getByText('01711000111')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy bkash number' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy account name' })).toBeTruthy();
    expect(screen.getByLabelText('Transaction ID')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel Order' })).toBeTruthy();
  });

  it('says what to do after a failed payment, and still takes a proof', () => {
    renderCard({ paymentStatus: 'failed' });
    expect(screen.getByText(/We could not confirm your payment\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact the shop (opens in a new tab)' })).toBeTruthy();
    expect(screen.getByLabelText('Transaction ID')).toBeTruthy();
  });

  it('hides the instructions, the proof form and Cancel Order once paid, and offers no cancel once processing', () => {
    renderCard({ paymentStatus: 'paid' });
    expect(screen.queryByText('01711000111')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).toBeNull();
    cleanup();
    renderCard({ orderStatus: 'processing' });
    expect(screen.getByText('01711000111')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).toBeNull();
  });

  it('shows the proof already sent', () => {
    renderCard({ paymentProof: { transactionId: 'TX123', sentAt: '2026-03-10T09:00:00.000Z' } });
    expect(screen.getByText('TX123')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Send another payment proof' })).toBeTruthy();
  });

  it('names the screenshot types it takes, in its accept attribute and its hint, and repeats them when a text file was chosen', () => {
    renderCard({});
    const picker = screen.getByLabelText('Payment screenshot');
    expect(picker.getAttribute('accept')).toContain('image/png');
    expect(picker.getAttribute('accept')).toContain('.heic');
    expect(picker.getAttribute('aria-describedby')).toBeTruthy();
    const hint = document.getElementById(picker.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toBe('Accepted: JPG, PNG, WEBP, GIF or HEIC images, up to 10 MB.');

    fireEvent.change(picker, { target: { files: [new File(['receipt'], 'receipt.txt', { type: 'text/plain' })] } });
    const typesSaid = 'Invalid file type! Please select JPG, PNG, WEBP, GIF, or HEIC image files';
    expect(screen.getByRole('alert').textContent).toBe(typesSaid);
    fireEvent.click(screen.getByRole('button', { name: 'Send Proof' }));
    expect(screen.getByRole('alert').textContent).toBe(typesSaid);
  });

  it('gives each unpaid order its own landmark names, so two cards on My Orders are told apart', () => {
    render(
      <MemoryRouter>
        <ToastProvider>
          <ConfirmProvider>
            {[base, { ...base, id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }].map((order) => (
              <OrderCard
                key={order.id}
                order={order}
                providerChatUrl="https://wa.me/8801700000000"
                waitingToSync={false}
                paymentInstructions={instructions}
                userId="u1"
              />
            ))}
          </ConfirmProvider>
        </ToastProvider>
      </MemoryRouter>,
    );
    const names = [...screen.getAllByRole('form'), ...screen.getAllByRole('region')].map((landmark) => landmark.getAttribute('aria-label'));
    expect(names).toContain('Send a payment proof for order #1a0b9e84');
    expect(names).toContain('Send a payment proof for order #9a8b7c6d');
    expect(new Set(names).size).toBe(names.length);
  });
});
