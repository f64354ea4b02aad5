import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { defaultSettings } from '../../../../edge-api/src/contract/settings.ts';
import type { ApiHarness } from '../../../../edge-api/src/testing/api-harness.ts';
import { insertPricedService } from '../../../../edge-api/src/testing/sales-fixtures.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { chooseDisplayCurrency } from '../../lib/display-currency.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { OrderConfirmDialog } from './order-confirm-dialog.tsx';
import { ServiceCard } from './service-card.tsx';

// Decision 241: with a display currency chosen, the confirm step's tiers, unit price, totals and coupon are
// shown in it, marked ≈, with what is paid in USD beside them. The quotes come from the real API in-process,
// asked by a customer signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let tiered: Service;

const settings = { ...defaultSettings, displayCurrencies: [{ code: 'EUR', rate: 0.92 }] };

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

beforeAll(async () => {
  api = kit.api();
  const admin = await api.createUser('admin');
  // The customer whose quotes these are: this device's session.
  await signInAs(api, 'user');
  tiered = serviceOf(await insertPricedService(api, 'Gift Card', '10'), 'Gift Card', '10');
  const tiers = { tiers: [{ minQuantity: 5, unitPrice: '9' }] };
  expect((await api.call('PUT', `/api/admin/pricing/services/${tiered.id}/tiers`, { user: admin, json: tiers })).status).toBe(200);
  const coupon = { code: 'FIVE-OFF', kind: 'fixed', amount: '5', enabled: true };
  expect((await api.call('POST', '/api/admin/coupons', { user: admin, json: coupon })).status).toBe(201);
});
beforeEach(() => chooseDisplayCurrency('EUR'));
afterEach(() => {
  cleanup();
  chooseDisplayCurrency(null);
});

describe('prices in the chosen display currency', () => {
  it('shows a service card approximately in euros, with the USD price kept below', () => {
    render(
      <MemoryRouter>
        <ServiceCard service={{ ...tiered, price: '9.99' }} currency={settings.displayCurrencies[0]!} />
      </MemoryRouter>,
    );
    expect(screen.getByText('≈ €9.19').getAttribute('title')).toBe('You pay $9.99 USD');
    expect(screen.getByText('You pay $9.99 USD')).toBeTruthy();
    expect(screen.queryByText('USD', { selector: 'span' })).toBeNull();
  });

  it('converts the confirm step: tiers, unit price, total and coupon, and keeps what is paid in USD', async () => {
    render(
      <ToastProvider>
        <OrderConfirmDialog service={tiered} settings={settings} placing={false} error={null} onConfirm={() => {}} onClose={() => {}} />
      </ToastProvider>,
    );
    const quantity = await screen.findByLabelText('Quantity');
    expect(screen.getByText(/Buy more, pay less: 5 or more: ≈ €8\.28 \(\$9\.00\) each/)).toBeTruthy();
    expect(screen.getByText('≈ €9.20 ($10.00) each (list price)')).toBeTruthy();
    expect(screen.getByText('Price').nextElementSibling!.textContent).toBe('≈ €9.20You pay $10 USD');

    fireEvent.change(quantity, { target: { value: '5' } });
    await screen.findByText('≈ €8.28 ($9.00) each (tier price for 5 or more)');
    const total = () => screen.getByText('Total').nextElementSibling!;
    await waitFor(() => expect(total().textContent).toBe('≈ €46.00≈ €41.40You pay $45.00 USD'));
    expect(total().querySelector('s')!.textContent).toBe('≈ €46.00');

    fireEvent.change(screen.getByLabelText('Coupon code (optional)'), { target: { value: 'five-off' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText(/: ≈ €4\.60 \(\$5\.00\) off\./);
    await waitFor(() => expect(total().textContent).toBe('≈ €46.00≈ €36.80You pay $40.00 USD'));
  });
});
