import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { deleteUserDb } from '../../db/local-db.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { renderAsStaff, seedDevice, staffId } from './render-as-staff.tsx';

// The screen talks to the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await deleteUserDb(staffId);
});

describe('Import Wise Stock', () => {
  it('previews every line, imports only the new ones as one labelled batch, and asks again when the lines change', async () => {
    await seedDevice('admin', []);
    renderAsStaff('/dashboard/import-wise-stocks');
    expect(await screen.findByRole('heading', { level: 1, name: 'Import Wise Stock' })).toBeTruthy();
    const template = screen.getByRole('link', { name: 'Download template' });
    expect(decodeURIComponent(template.getAttribute('href')!)).toContain('email,password,name,notes');

    const lines = screen.getByLabelText('Lines to import');
    fireEvent.change(screen.getByLabelText(/^Batch label/), { target: { value: 'Shelf A' } });
    fireEvent.change(lines, { target: { value: 'one@import.test,One#Pass-1,Holder One\none@import.test,Two#Pass-2,Holder Two\nnope,Three#Pass-3,Broken\n' } });
    // No import before a preview.
    expect((screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));

    const table = await screen.findByRole('table', { name: 'Every line of the import and what the preview found' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '1one@import.testHolder OneNew',
      '2one@import.testHolder TwoDuplicate in filesame email as line 1',
      expect.stringMatching(/^3nopeBrokenInvalidemail: /),
    ]);
    expect(screen.getByText('New: 1')).toBeTruthy();

    // Changed lines need a new preview before anything is imported.
    fireEvent.change(lines, { target: { value: 'one@import.test,One#Pass-1,Holder One\ntwo@import.test,Two#Pass-2,Holder Two\n' } });
    expect(screen.queryByRole('table', { name: 'Every line of the import and what the preview found' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Import 2 new lines' }));

    expect(await screen.findByText('Imported 2 Wise stocks as batch “Shelf A”')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Lines to import') as HTMLTextAreaElement).value).toBe(''));
    const batch = await api.db.selectFrom('stock_batches').selectAll().where('label', '=', 'Shelf A').executeTakeFirstOrThrow();
    expect(batch.item_count).toBe(2);
    expect(batch.added_by).toBe(admin.id);
  });

  it('tells a moderator that only admins import stock', async () => {
    await seedDevice('moderator', []);
    renderAsStaff('/dashboard/import-wise-stocks');
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeTruthy();
    expect(screen.queryByLabelText('Lines to import')).toBeNull();
  });
});
