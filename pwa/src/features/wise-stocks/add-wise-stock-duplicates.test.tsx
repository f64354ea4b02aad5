import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { deleteUserDb } from '../../db/local-db.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { field, pngBytes, renderAsStaff, seedDevice, staffId } from './render-as-staff.tsx';

// The form talks to the real API app in-process, signed in through its own auth (render-signed-in.tsx).
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

async function stockOnServer(wiseEmail: string, wisePassword: string) {
  const created = await api.call<WiseStock>('POST', '/api/wise-stocks', {
    user: admin,
    json: { wiseName: 'Karim Uddin', wiseEmail, wisePassword, authImage: 'https://img.example/auth.png', userName: 'Demo Admin' },
  });
  expect(created.status).toBe(201);
}

const stocksWith = async (email: string) => (await api.db.selectFrom('wise_stocks').select('id').where('wise_email', '=', email).execute()).length;

async function fillForm(email: string, password: string) {
  await seedDevice('admin', []);
  renderAsStaff('/dashboard/add-wise-stocks');
  expect(await screen.findByRole('heading', { level: 1, name: 'Add New Wise Stock' })).toBeTruthy();
  fireEvent.change(field('Account Holder Name'), { target: { value: 'Karim Uddin' } });
  fireEvent.change(field('Email Address'), { target: { value: email } });
  fireEvent.change(field('Password'), { target: { value: password } });
  fireEvent.change(field('Authentication Image'), { target: { files: [new File([pngBytes], 'auth.png', { type: 'image/png' })] } });
  expect(await screen.findByText('Image uploaded', {}, { timeout: 5000 })).toBeTruthy();
  // The name is filled in from the device's user record, read after the first render: a click before it is refused as incomplete.
  await waitFor(() => expect((field('Your Name') as HTMLInputElement).value).toBe('Demo Admin'));
}

describe('Add Wise Stock with credentials known already', () => {
  it('warns while the admin types an email already in stock, and adds it only on an explicit override', async () => {
    const email = `known-${crypto.randomUUID().slice(0, 6)}@wise.test`;
    await stockOnServer(email, 'First#Password-1');
    await fillForm(email.toUpperCase(), 'Another#Password-2');

    expect((await screen.findByRole('alert', {}, { timeout: 3000 })).textContent).toContain('⚠️ This email is already in stock');
    expect(screen.getByText('This email is already in stock')).toBeTruthy();
    expect(field('Email Address').getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Override & Add' }));
    await waitFor(async () => expect(await stocksWith(email.toUpperCase())).toBe(1));
    expect(await stocksWith(email)).toBe(1);
  });

  it('finds a duplicate on the click itself when the typing check has not answered, and sends nothing until the override', async () => {
    const email = `quick-${crypto.randomUUID().slice(0, 6)}@wise.test`;
    const password = `Quick#${crypto.randomUUID().slice(0, 6)}`;
    await stockOnServer(email, password);
    await fillForm(email, password);
    // Exact credentials: the banner says so, and the override asks for confirmation first.
    fireEvent.click(screen.getByRole('button', { name: /^(Add Wise Stock|Override & Add)$/ }));
    const banner = await screen.findByText('⚠️ These exact credentials are already in stock!');
    expect(banner.parentElement!.textContent).toContain('This will create duplicate credentials!');
    expect(await stocksWith(email)).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Override & Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add duplicate credentials?' });
    fireEvent.click(dialog.querySelector('button.btn-error')!);
    await waitFor(async () => expect(await stocksWith(email)).toBe(2));
  });
});
