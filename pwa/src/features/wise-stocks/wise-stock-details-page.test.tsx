import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { formatDateLong } from '../../lib/format.ts';
import { person, renderAsStaff, seedDevice, staffId, stockRow } from './render-as-staff.tsx';
import { downloadFileName } from './stock-images.ts';

const customer = person({ uid: '33333333-3333-4333-8333-333333333333', displayName: 'Demo Customer', userRole: 'user', email: 'customer@demo.test' });
const sold = stockRow({
  wiseName: 'Nadia Islam',
  wiseEmail: 'nadia.wise@mail.test',
  wisePassword: 'Wise#Nadia2026',
  status: 'sold',
  soldTo: customer.uid,
  notes: 'Sold at the counter',
  authImage: 'https://img.example/auth.png',
});
const fresh = stockRow({ wiseName: 'Arif Hossain', wisePassword: 'Wise#Arif2026', status: 'available' });

// Offline: the screen works from the device's copy, and a status change is queued for later.
beforeEach(() => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  // No request leaves an offline device (the page still asks for the users and the batches).
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await deleteUserDb(staffId);
});

describe('Wise Stock Details', () => {
  it('shows the account, the buyer, the long date, notes, images and who added it', async () => {
    await seedDevice('admin', [sold], [customer]);
    renderAsStaff(`/dashboard/wise-stocks/${sold.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Nadia Islam' })).toBeTruthy();
    const account = screen.getByRole('region', { name: 'Account Information' });
    expect(within(account).getByText('WiseStock')).toBeTruthy();
    expect(within(account).getByText('nadia.wise@mail.test')).toBeTruthy();
    expect(within(account).getByText('Wise#Nadia2026')).toBeTruthy();
    expect(within(account).getByText('Sold')).toBeTruthy();
    expect(await within(account).findByText('(to Demo Customer)')).toBeTruthy();
    expect(within(account).getByText(formatDateLong(sold.createdAt))).toBeTruthy();
    expect(within(account).getByText('Sold at the counter')).toBeTruthy();

    const images = screen.getByRole('region', { name: 'Account Images' });
    expect(within(images).getByRole('img', { name: 'Authentication Image' }).getAttribute('src')).toBe('https://img.example/auth.png');
    expect(
      within(images)
        .getByRole('link', { name: /View Full Screen: Authentication Image/ })
        .getAttribute('target'),
    ).toBe('_blank');
    expect(within(images).getAllByRole('button', { name: /Upload Image/ })).toHaveLength(2);
    const addedBy = screen.getByRole('region', { name: 'Added By' });
    expect(within(addedBy).getByText('Demo Admin')).toBeTruthy();
    expect(within(addedBy).getByText('admin@demo.test')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /Back to Stocks/ }).length).toBeGreaterThan(0);
  });

  it("says 'No images available for this stock' when it has none", async () => {
    await seedDevice('moderator', [fresh]);
    renderAsStaff(`/dashboard/wise-stocks/${fresh.id}`);
    expect(await screen.findByText('No images available for this stock')).toBeTruthy();
    // A moderator reads; only admins change.
    expect(screen.queryByRole('button', { name: 'Update Status' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Upload Image/ })).toBeNull();
  });

  it("says 'Stock not found' for a stock this device does not have", async () => {
    await seedDevice('admin', [fresh]);
    renderAsStaff('/dashboard/wise-stocks/99999999-9999-4999-8999-999999999999');
    expect(await screen.findByRole('heading', { name: 'Stock not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Stocks' }).getAttribute('href')).toBe('/dashboard/all-wise-stocks');
  });

  it('asks for a buyer when marking as sold, then queues the sale without empty notes', async () => {
    await seedDevice('admin', [fresh], [customer]);
    renderAsStaff(`/dashboard/wise-stocks/${fresh.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Update Status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Stock Status' });
    const modal = within(dialog);
    expect(modal.queryByLabelText('Sold To User')).toBeNull();
    // Opens on the stock's current status.
    expect((modal.getByLabelText('Status') as HTMLSelectElement).value).toBe('available');
    expect((modal.getByRole('option', { name: 'Available' }) as HTMLOptionElement).selected).toBe(true);

    fireEvent.change(modal.getByLabelText('Status'), { target: { value: '' } });
    fireEvent.click(modal.getByRole('button', { name: 'Update Status' }));
    expect((await modal.findByRole('alert')).textContent).toBe('Please select a status');

    fireEvent.change(modal.getByLabelText('Status'), { target: { value: 'sold' } });
    fireEvent.click(modal.getByRole('button', { name: 'Update Status' }));
    expect((await modal.findByRole('alert')).textContent).toBe('Please select a user when marking as sold');

    const buyer = modal.getByLabelText('Sold To User');
    expect(within(buyer).getByRole('option', { name: 'Demo Customer — customer@demo.test (user)' })).toBeTruthy();
    fireEvent.change(buyer, { target: { value: customer.uid } });
    fireEvent.change(modal.getByLabelText(/Notes/), { target: { value: '   ' } });
    fireEvent.click(modal.getByRole('button', { name: 'Update Status' }));

    expect(await screen.findByText(/Stock status updated successfully/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const db = getUserDb(staffId);
    const [entry] = await db.outbox.toArray();
    expect(entry?.name).toBe('setStockStatus');
    expect(entry?.args).toEqual({ stockId: fresh.id, status: 'sold', soldTo: customer.uid, version: fresh.version });
    expect((await db.wiseStocks.get(fresh.id))?.status).toBe('sold');
    expect(await screen.findByText('(to Demo Customer)')).toBeTruthy();
    expect(screen.getByText('Pending sync')).toBeTruthy();
  });

  it("names downloads '{label}_{timestamp}.jpg', with the real extension of a PNG, WEBP or GIF", () => {
    expect(downloadFileName('Document 1', 1763740800000)).toBe('Document_1_1763740800000.jpg');
    expect(downloadFileName('Document 1', 1763740800000, 'image/jpeg')).toBe('Document_1_1763740800000.jpg');
    expect(downloadFileName('Authentication Image', 1763740800000, 'image/png')).toBe('Authentication_Image_1763740800000.png');
    expect(downloadFileName('Document 2', 1, 'image/webp')).toBe('Document_2_1.webp');
    expect(downloadFileName('Document 2', 1, 'IMAGE/GIF; charset=binary')).toBe('Document_2_1.gif');
    expect(downloadFileName('Document 2', 1, 'application/octet-stream')).toBe('Document_2_1.jpg');
  });
});
