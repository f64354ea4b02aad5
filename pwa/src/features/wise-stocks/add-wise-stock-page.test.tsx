import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteUserDb } from '../../db/local-db.ts';
import { field, renderAsStaff, seedDevice, staffId } from './render-as-staff.tsx';

const MB = 1024 * 1024;

beforeEach(() => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false));
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await deleteUserDb(staffId);
});

async function openForm() {
  await seedDevice('admin', []);
  renderAsStaff('/dashboard/add-wise-stocks');
  expect(await screen.findByRole('heading', { level: 1, name: 'Add New Wise Stock' })).toBeTruthy();
}

/** The field whose label starts with `label` (required ones end with a star that is hidden from screen readers). */
const choose = (label: string, file: File) => fireEvent.change(field(label), { target: { files: [file] } });

describe('Add Wise Stock', () => {
  it('labels every field, starts the adder as the signed-in person, and shows the upload hint on each image slot', async () => {
    await openForm();
    for (const label of ['Account Holder Name', 'Email Address', 'Password', 'Authentication Image', 'Document 1', 'Document 2', 'Your Name']) {
      expect(field(label), label).toBeTruthy();
    }
    expect((field('Authentication Image') as HTMLInputElement).type).toBe('file');
    // Every required field carries the star, the password too.
    for (const label of ['Account Holder Name', 'Email Address', 'Password', 'Your Name']) {
      const input = field(label) as HTMLInputElement;
      expect(input.required, label).toBe(true);
      expect(document.querySelector(`label[for="${input.id}"]`)?.textContent?.trim(), label).toBe(`${label} *`);
    }
    expect(screen.getAllByText('JPG, PNG, WEBP, GIF, HEIC • Max 10MB')).toHaveLength(3);
    await waitFor(() => expect((field('Your Name') as HTMLInputElement).value).toBe('Demo Admin'));
    expect(screen.getByRole('button', { name: 'Add Wise Stock' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it("refuses to add without every required field: 'Missing Fields!'", async () => {
    await openForm();
    fireEvent.change(field('Account Holder Name'), { target: { value: 'Arif Hossain' } });
    fireEvent.change(field('Email Address'), { target: { value: 'arif@wise.test' } });
    fireEvent.change(field('Password'), { target: { value: 'Wise#Arif2026' } });
    // Everything typed, but no authentication image.
    fireEvent.click(screen.getByRole('button', { name: 'Add Wise Stock' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Missing Fields! Please fill in all required fields');
    expect(field('Authentication Image').getAttribute('aria-invalid')).toBe('true');
    expect(field('Account Holder Name').getAttribute('aria-invalid')).toBeNull();
  });

  it("refuses an image over 10 MB with 'File too large!' before uploading anything", async () => {
    await openForm();
    choose('Authentication Image', new File([new Uint8Array(10 * MB + 1)], 'huge.png', { type: 'image/png' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('File too large! Please select an image smaller than 10MB');
    expect(screen.queryByText('Image uploaded')).toBeNull();
  });

  it("refuses a file that is not a JPG, PNG, WEBP, GIF or HEIC image with 'Invalid file type!'", async () => {
    await openForm();
    choose('Document 1', new File(['%PDF-1.7'], 'statement.pdf', { type: 'application/pdf' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid file type! Please select JPG, PNG, WEBP, GIF, or HEIC image files');
    // Only the slot that was given the file complains.
    const authSlot = field('Authentication Image').closest('label')!.parentElement!;
    expect(within(authSlot).queryByRole('alert')).toBeNull();
  });

  it('tells a moderator that only admins add stock', async () => {
    await seedDevice('moderator', []);
    renderAsStaff('/dashboard/add-wise-stocks');
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeTruthy();
    expect(screen.getByText(/Wise stocks are added by admins/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Stocks' }).getAttribute('href')).toBe('/dashboard/all-wise-stocks');
    expect(screen.queryByLabelText(/^Account Holder Name/)).toBeNull();
  });
});
