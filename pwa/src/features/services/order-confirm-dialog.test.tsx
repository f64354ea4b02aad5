import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { defaultSettings } from '../../../../edge-api/src/contract/settings.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { NOTE_REQUIRED, OrderConfirmDialog } from './order-confirm-dialog.tsx';

const service: Service = {
  id: '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  title: 'Editable bank statement',
  description: '',
  category: 'documents',
  features: [],
  popular: false,
  image: '',
  price: '15',
  deliveryTime: '3hours',
  paymentMethods: ['bkash', 'binance'],
  needsDetails: true,
  detailsHint: 'Full name and address',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};

const settings = {
  ...defaultSettings,
  paymentInstructions: [
    { method: 'bkash', address: '01711000111', accountName: 'Shop', qrImage: '', instructions: 'Send Money' },
    { method: 'binance', address: 'TXbinance', accountName: '', qrImage: '', instructions: '' },
  ],
};

function open(overrides: Partial<Service> = {}) {
  const onConfirm = vi.fn();
  render(
    <ToastProvider>
      <OrderConfirmDialog service={{ ...service, ...overrides }} settings={settings} placing={false} error={null} onConfirm={onConfirm} onClose={() => {}} />
    </ToastProvider>,
  );
  return onConfirm;
}

// No server here: the price quote (decision 232) fails as offline, and the step shows the list price.
beforeAll(() => {
  vi.stubGlobal('fetch', async () => {
    throw new TypeError('Failed to fetch');
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});
afterEach(cleanup);

describe('the order summary', () => {
  it("shows the price and the chosen method's instructions, switching with the method", () => {
    open();
    expect(screen.getByText('$15 USD')).toBeTruthy();
    expect(screen.getByText('01711000111')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Binance'));
    expect(screen.queryByText('01711000111')).toBeNull();
    expect(screen.getByText('TXbinance')).toBeTruthy();
  });

  it('requires the note of a service that needs details, showing its hint, and sends note and method', () => {
    const onConfirm = open();
    expect(screen.getByText('Full name and address')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(screen.getByText(NOTE_REQUIRED)).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Details for the shop (required)'), { target: { value: '  Jane Doe  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(onConfirm).toHaveBeenCalledWith({ note: 'Jane Doe', paymentMethod: 'bkash' });
  });

  it('lets an order of an ordinary service go without a note', () => {
    const onConfirm = open({ needsDetails: false });
    expect(screen.getByLabelText('Note to the shop (optional)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(onConfirm).toHaveBeenCalledWith({ note: '', paymentMethod: 'bkash' });
  });
});
