import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { nextWindowStart } from '../../../../edge-api/src/testing/limit-window.ts';
import { deleteUserDb } from '../../db/local-db.ts';
import { PAUSED_TITLE } from '../../lib/duplicate-check-problem.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { UNCHECKED_STOCK_MESSAGE } from './add-wise-stock-fields.tsx';
import { field, pngBytes, renderAsStaff, seedDevice, staffId } from './render-as-staff.tsx';

// Decision 076: the form against the real API app in-process, whose limit on duplicate checks is 2 per
// staff member in 10 minutes, with the user signed in through its own auth (render-signed-in.tsx).

const LIMIT = 2;
const WINDOW_MS = 600_000;
let api: ApiHarness;
let admin: TestUser;
// The API's clock reads Date: it starts a second into a window of its own, so the wait is known (599 s).
const windowStart = nextWindowStart(WINDOW_MS);

const kit = signedInKit({ config: { rateLimits: { credentialChecksPer10Min: LIMIT } } });
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(windowStart + 1_000);
  api = kit.api();
  admin = await signInAs(api, 'admin');
});
afterAll(() => {
  vi.useRealTimers();
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await deleteUserDb(staffId);
});

const stocksWith = async (email: string) => (await api.db.selectFrom('wise_stocks').select('id').where('wise_email', '=', email).execute()).length;

describe('Add Wise Stock past the limit on duplicate checks', () => {
  it('says checks are paused instead of showing nothing, and adding still meets the server’s own check', async () => {
    const email = `paused-${crypto.randomUUID().slice(0, 6)}@wise.test`;
    const password = `Paused#${crypto.randomUUID().slice(0, 6)}`;
    const created = await api.call<WiseStock>('POST', '/api/wise-stocks', {
      user: admin,
      json: { wiseName: 'Karim Uddin', wiseEmail: email, wisePassword: password, authImage: 'https://img.example/auth.png', userName: 'Demo Admin' },
    });
    expect(created.status).toBe(201);
    for (let i = 0; i < LIMIT; i += 1) expect((await api.call('GET', `/api/wise-stocks/check?password=spent-${i}`, { user: admin })).status).toBe(200);

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

    const notice = (await screen.findByText(PAUSED_TITLE, {}, { timeout: 5000 })).closest('[role="status"]')!;
    expect(notice.textContent).toContain('They resume in about 10 minutes');
    expect(notice.textContent).toContain(UNCHECKED_STOCK_MESSAGE);
    // Exact duplicates, but no answer came: no warning claims anything either way.
    expect(screen.queryByText('⚠️ These exact credentials are already in stock!')).toBeNull();

    // Adding sends no check, and the server's own refuses the duplicate: the warning shows, nothing is added.
    fireEvent.click(screen.getByRole('button', { name: 'Add Wise Stock' }));
    expect(await screen.findByText('⚠️ These exact credentials are already in stock!', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Override & Add' })).toBeTruthy());
    expect(await stocksWith(email)).toBe(1);
  });
});
