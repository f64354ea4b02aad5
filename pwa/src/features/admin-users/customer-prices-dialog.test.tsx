import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { insertPricedService } from '../../../../edge-api/src/testing/sales-fixtures.ts';
import { getPublicDb } from '../../db/local-db.ts';
import { renderSignedIn, signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { CustomerPricesDialog } from './customer-prices-dialog.tsx';

// The editor talks to the real API app in-process, as an admin signed in through its auth (render-signed-in.tsx).
const { api } = signedInKit();
let admin: TestUser;
let reseller: TestUser;
let serviceId: string;

beforeAll(async () => {
  reseller = await api().createUser('user');
  admin = await signInAs(api(), 'admin');
  serviceId = await insertPricedService(api(), 'Gift Card', '10');
  // The services synced to this device, as the dashboard has them.
  await getPublicDb().services.put({
    id: serviceId,
    title: 'Gift Card',
    description: '',
    category: 'wise',
    features: [],
    popular: false,
    image: '',
    price: '10',
    deliveryTime: 'instant',
    paymentMethods: ['binance'],
    needsDetails: false,
    detailsHint: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
  });
});
afterEach(cleanup);

describe("a customer's own prices (issue 32 item 3)", () => {
  it('refuses a percentage above 100 on its field, then saves a percentage and a unit price for a service', async () => {
    const onClose = vi.fn();
    renderSignedIn(<CustomerPricesDialog user={{ uid: reseller.id, email: reseller.email }} onClose={onClose} />, admin);
    const percent = await screen.findByLabelText('Discount on every service (%)', {}, { timeout: 5000 });
    fireEvent.change(percent, { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    expect(screen.getByText('Discount: must be at most 100')).toBeTruthy();
    fireEvent.change(percent, { target: { value: '15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add service price' }));
    fireEvent.change(screen.getByLabelText('Service'), { target: { value: serviceId } });
    expect(screen.getByText('List price $10')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Their unit price ($)'), { target: { value: '7.25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 5000 });
    const saved = await api().call('GET', `/api/admin/pricing/users/${reseller.id}`, { user: admin });
    expect(saved.body).toEqual({ percentOff: 15, services: [{ serviceId, unitPrice: '7.25' }] });
  });
});
