import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteUserDb } from '../../db/local-db.ts';
import { person, renderAsStaff, seedDevice, staffId, stockRow } from './render-as-staff.tsx';

const rahim = person({ uid: '11111111-1111-4111-8111-111111111111', displayName: 'Rahim Uddin', userRole: 'user' });
const arif = stockRow({ wiseName: 'Arif Hossain', wiseEmail: 'arif.wise@mail.test', wisePassword: 'Wise#Arif2026', status: 'available' });
const tanvir = stockRow({ wiseName: 'Tanvir Ahmed', status: 'available' });
const nadia = stockRow({ wiseName: 'Nadia Islam', status: 'sold', soldTo: rahim.uid });
const mim = stockRow({ wiseName: 'Mim Akter', status: 'sold', soldTo: '22222222-2222-4222-8222-222222222222' });
const shakib = stockRow({ wiseName: 'Shakib Rahman', status: 'suspended' });
const stocks = [arif, tanvir, nadia, mim, shakib];

/** The number on the count card called `label`. */
function count(label: string): number {
  const term = within(screen.getByRole('region', { name: 'Stock counts' })).getByText(label, { selector: 'dt' });
  return Number(term.nextElementSibling?.textContent);
}
const counts = () => Object.fromEntries(['Total', 'Available', 'Sold', 'Active', 'Suspended', 'Disabled', 'Used'].map((label) => [label, count(label)]));
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

// Offline: the list must come from the device's copy alone.
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

describe('Wise Stocks Management', () => {
  it('counts the filtered list on the seven cards and says what is filtered in the footer', async () => {
    await seedDevice('admin', stocks, [rahim]);
    renderAsStaff('/dashboard/all-wise-stocks');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wise Stocks Management' })).toBeTruthy();
    await screen.findByText('Arif Hossain');
    expect(counts()).toEqual({ Total: 5, Available: 2, Sold: 2, Active: 0, Suspended: 1, Disabled: 0, Used: 0 });

    fireEvent.change(screen.getByPlaceholderText('Search by name, email, or sold to...'), { target: { value: 'RAHIM' } });
    expect(counts()).toEqual({ Total: 1, Available: 0, Sold: 1, Active: 0, Suspended: 0, Disabled: 0, Used: 0 });
    expect(screen.getByText('Nadia Islam')).toBeTruthy();
    expect(screen.queryByText('Arif Hossain')).toBeNull();
    expect(screen.getByText(/Showing 1 of 5 Wise stocks/).textContent).toBe('Showing 1 of 5 Wise stocks matching “RAHIM”');

    fireEvent.change(screen.getByPlaceholderText('Search by name, email, or sold to...'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'available' } });
    expect(counts()).toEqual({ Total: 2, Available: 2, Sold: 0, Active: 0, Suspended: 0, Disabled: 0, Used: 0 });
    expect(screen.getByText(/Showing 2 of 5/).textContent).toBe('Showing 2 of 5 Wise stocks with status Available');
  });

  it('offers All Status and the six statuses in the filter', async () => {
    await seedDevice('admin', stocks);
    renderAsStaff('/dashboard/all-wise-stocks');
    const select = await screen.findByLabelText('Status');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All Status', 'Available', 'Sold', 'Active', 'Suspended', 'Disabled', 'Used']);
  });

  it("shows the account with its password, and the buyer's name only for sold stock ('Unknown User' when unknown)", async () => {
    await seedDevice('admin', stocks, [rahim]);
    renderAsStaff('/dashboard/all-wise-stocks');
    await screen.findByText('Arif Hossain');
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Wise Account', 'Added By', 'Sold To', 'Status', 'Date Added', 'Actions']);

    const arifRow = within(rowOf('Arif Hossain'));
    expect(arifRow.getByText('arif.wise@mail.test')).toBeTruthy();
    // The password is masked on the list until tapped.
    expect(arifRow.queryByText('Wise#Arif2026')).toBeNull();
    fireEvent.click(arifRow.getByRole('button', { name: 'Show password of Arif Hossain' }));
    expect(arifRow.getByText('Wise#Arif2026')).toBeTruthy();
    expect(arifRow.getByText('Demo Admin')).toBeTruthy();
    expect(arifRow.queryByText('Rahim Uddin')).toBeNull();
    expect(within(rowOf('Nadia Islam')).getByText('Rahim Uddin')).toBeTruthy();
    expect(within(rowOf('Mim Akter')).getByText('Unknown User')).toBeTruthy();
    expect(arifRow.getByRole('link', { name: /View Details/ }).getAttribute('href')).toBe(`/dashboard/wise-stocks/${arif.id}`);
    expect(arifRow.getByRole('button', { name: /Delete Stock/ })).toBeTruthy();
  });

  it('asks before deleting, naming the stock, and deletes nothing on Cancel', async () => {
    await seedDevice('admin', stocks);
    renderAsStaff('/dashboard/all-wise-stocks');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Stock Arif Hossain' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you sure?' }));
    expect(dialog.getByText("You won't be able to revert this!")).toBeTruthy();
    expect(dialog.getByText('Wise stock of Arif Hossain')).toBeTruthy();
    expect(dialog.getByText('arif.wise@mail.test · Available')).toBeTruthy();
    await act(async () => fireEvent.click(dialog.getByText('Cancel', { selector: 'button' })));
    expect(screen.getByRole('button', { name: 'Delete Stock Arif Hossain' })).toBeTruthy();
  });

  it('says how to start when there is no stock, and how to find some when a filter hides it all', async () => {
    await seedDevice('admin', []);
    renderAsStaff('/dashboard/all-wise-stocks');
    expect(await screen.findByRole('heading', { name: 'No Wise stocks found' })).toBeTruthy();
    expect(screen.getByText('Add your first Wise stock to get started')).toBeTruthy();
    cleanup();

    await seedDevice('admin', stocks);
    renderAsStaff('/dashboard/all-wise-stocks?status=used');
    expect(await screen.findByRole('heading', { name: 'No Wise stocks found' })).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or filter criteria')).toBeTruthy();
    expect(counts().Total).toBe(0);
  });

  it('lets a moderator look but not add or delete', async () => {
    await seedDevice('moderator', stocks);
    renderAsStaff('/dashboard/all-wise-stocks');
    await screen.findByText('Arif Hossain');
    expect(screen.queryByRole('link', { name: /Add Wise Stock/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete Stock/ })).toBeNull();
    expect(within(rowOf('Arif Hossain')).getByRole('link', { name: /View Details/ })).toBeTruthy();
  });
});
