import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { insertPricedService } from '../../../../edge-api/src/testing/sales-fixtures.ts';
import { renderSignedIn, signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { PriceTiersDialog } from './price-tiers-dialog.tsx';

// The editor talks to the real API app in-process, as an admin signed in through its auth (render-signed-in.tsx).
const { api } = signedInKit();
let admin: TestUser;
let serviceId: string;

beforeAll(async () => {
  admin = await signInAs(api(), 'admin');
  serviceId = await insertPricedService(api(), 'Gift Card', '10');
});
afterEach(cleanup);

const storedTiers = () =>
  api().db.selectFrom('service_price_tiers').select(['min_quantity', 'unit_cents']).where('service_id', '=', serviceId).orderBy('min_quantity').execute();

describe('the quantity tier editor (issue 32 item 3)', () => {
  it('adds tiers, says what is wrong on the field and saves nothing, then saves the whole set', async () => {
    const onClose = vi.fn();
    renderSignedIn(<PriceTiersDialog service={{ id: serviceId, title: 'Gift Card', price: '10' }} onClose={onClose} />, admin);
    await screen.findByText('No tiers: every quantity pays the list price.', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add tier' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add tier' }));
    const mins = screen.getAllByLabelText('Buy at least');
    const prices = screen.getAllByLabelText('Unit price ($)');
    fireEvent.change(mins[0]!, { target: { value: '1' } });
    fireEvent.change(prices[0]!, { target: { value: '9' } });
    fireEvent.change(mins[1]!, { target: { value: '10' } });
    fireEvent.change(prices[1]!, { target: { value: 'cheap' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save tiers' }));
    expect(screen.getByText('Buy at least: must be at least 2')).toBeTruthy();
    expect(screen.getByText('Unit price: must be a number such as 5 or 4.50')).toBeTruthy();
    expect(mins[0]!.getAttribute('aria-invalid')).toBe('true');
    expect(await storedTiers()).toEqual([]);
    fireEvent.change(mins[0]!, { target: { value: '5' } });
    fireEvent.change(prices[1]!, { target: { value: '8.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save tiers' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 5000 });
    expect(await storedTiers()).toEqual([
      { min_quantity: 5, unit_cents: 900 },
      { min_quantity: 10, unit_cents: 850 },
    ]);
  });

  it('shows the saved tiers and removes one', async () => {
    const onClose = vi.fn();
    renderSignedIn(<PriceTiersDialog service={{ id: serviceId, title: 'Gift Card', price: '10' }} onClose={onClose} />, admin);
    await waitFor(() => expect(screen.getAllByLabelText('Buy at least')).toHaveLength(2), { timeout: 5000 });
    expect((screen.getAllByLabelText('Unit price ($)')[1] as HTMLInputElement).value).toBe('8.50');
    fireEvent.click(screen.getByRole('button', { name: 'Remove tier 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save tiers' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 5000 });
    expect(await storedTiers()).toEqual([{ min_quantity: 5, unit_cents: 900 }]);
  });
});
