import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { defaultSettings } from '../../../../edge-api/src/contract/settings.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { insertPricedService } from '../../../../edge-api/src/testing/sales-fixtures.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { signedInKit, signInAs, switchTo } from '../../test/render-signed-in.tsx';
import { OrderConfirmDialog, quoteFailed } from './order-confirm-dialog.tsx';

// The dialog asks the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

/** How many price quotes fail next as with no network. */
let quotesLost = 0;
const loseQuote = (url: URL) => url.pathname === '/api/pricing/quote' && quotesLost > 0 && quotesLost-- > 0;

let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;
let reseller: TestUser;
let tiered: Service;
let plain: Service;

const serviceOf = (id: string, title: string, price: string): Service => ({
  id,
  title,
  description: '',
  category: 'wise',
  features: [],
  popular: false,
  image: '',
  price,
  deliveryTime: 'instant',
  paymentMethods: ['binance'],
  needsDetails: false,
  detailsHint: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
});

const kit = signedInKit({ unreachable: loseQuote });
beforeAll(async () => {
  api = kit.api();
  admin = await api.createUser('admin');
  customer = await signInAs(api, 'user', 'customer');
  reseller = await signInAs(api, 'user', 'reseller');
  tiered = serviceOf(await insertPricedService(api, 'Gift Card', '10'), 'Gift Card', '10');
  plain = serviceOf(await insertPricedService(api, 'Setup', '25'), 'Setup', '25');
  const json = { tiers: [{ minQuantity: 5, unitPrice: '9' }] };
  expect((await api.call('PUT', `/api/admin/pricing/services/${tiered.id}/tiers`, { user: admin, json })).status).toBe(200);
  const own = { percentOff: null, services: [{ serviceId: plain.id, unitPrice: '20' }] };
  expect((await api.call('PUT', `/api/admin/pricing/users/${reseller.id}`, { user: admin, json: own })).status).toBe(200);
});
afterEach(cleanup);

/** Opens the dialog on this device signed in as `user`. */
async function open(service: Service, user: TestUser) {
  await switchTo(user);
  const onConfirm = vi.fn();
  render(
    <ToastProvider>
      <OrderConfirmDialog service={service} settings={defaultSettings} placing={false} error={null} onConfirm={onConfirm} onClose={() => {}} />
    </ToastProvider>,
  );
  return onConfirm;
}

describe('the quantity in the confirm step (issue 32 item 3)', () => {
  it('shows the tiers, the tiered unit price and the total before ordering, and sends the quantity', async () => {
    const onConfirm = await open(tiered, customer);
    const quantity = await screen.findByLabelText('Quantity', {}, { timeout: 5000 });
    expect(screen.getByText(/Buy more, pay less: 5 or more: \$9\.00 each/)).toBeTruthy();
    expect(screen.getByText('$10.00 each (list price)')).toBeTruthy();
    fireEvent.change(quantity, { target: { value: '5' } });
    await screen.findByText('$9.00 each (tier price for 5 or more)', {}, { timeout: 5000 });
    expect(screen.getByText('Gift Card × 5')).toBeTruthy();
    const total = screen.getByText('Total').nextElementSibling!;
    expect(total.textContent).toBe('$50.00$45.00 USD');
    fireEvent.click(screen.getByRole('button', { name: 'One fewer' }));
    await waitFor(() => expect(screen.getByText('Total').nextElementSibling!.textContent).toBe('$40.00 USD'), { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(onConfirm).toHaveBeenCalledWith({ note: '', paymentMethod: 'binance', quantity: 4 });
  });

  it('orders one at the list price, and says so, when the price of the quantity chosen cannot be had', async () => {
    const onConfirm = await open(tiered, customer);
    const quantity = await screen.findByLabelText('Quantity', {}, { timeout: 5000 });
    quotesLost = 1;
    fireEvent.change(quantity, { target: { value: '5' } });
    await waitFor(() => expect(screen.getByText('Price').nextElementSibling!.textContent).toBe('$10 USD'), { timeout: 5000 });
    expect(screen.getByText('Gift Card')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(quoteFailed(5));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(onConfirm).toHaveBeenLastCalledWith({ note: '', paymentMethod: 'binance' });
    // The quote for one came back: the quantity can be chosen again, and is priced this time.
    fireEvent.change(await screen.findByLabelText('Quantity', {}, { timeout: 5000 }), { target: { value: '5' } });
    await waitFor(() => expect(screen.getByText('Total').nextElementSibling!.textContent).toBe('$50.00$45.00 USD'), { timeout: 5000 });
    expect(screen.queryByText(quoteFailed(5))).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(onConfirm).toHaveBeenLastCalledWith({ note: '', paymentMethod: 'binance', quantity: 5 });
  });

  it("offers no quantity for a service without tiers, and shows a reseller's own price", async () => {
    await open(plain, reseller);
    await waitFor(() => expect(screen.getByText('Price').nextElementSibling!.textContent).toBe('$25.00$20.00 USD'), { timeout: 5000 });
    expect(screen.queryByLabelText('Quantity')).toBeNull();
    cleanup();
    await open(plain, customer);
    expect(screen.getByText('Price').nextElementSibling!.textContent).toBe('$25 USD');
  });
});
