import type { Session } from '@supabase/auth-js';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { AuthContext, type AuthState } from '../../lib/auth.tsx';
import { greetingFor } from '../../lib/format.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { ProfilePage, STALE_NOTICE } from './profile-page.tsx';

const uid = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const signedIn: AuthState = { status: 'signedIn', user: { id: uid, email: 'ada@example.com' }, session: {} as Session };
const copy: User = {
  uid,
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  mobile: '+8801712345678',
  userRole: 'user',
  createdAt: '2026-01-05T00:00:00.000Z',
  updatedAt: '2026-01-05T00:00:00.000Z',
  version: 3,
};

// Offline: the screen must work from the device's copy alone.
beforeEach(() => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false));
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await deleteUserDb(uid);
});

function renderProfile(auth: AuthState) {
  render(
    <AuthContext value={auth}>
      <MemoryRouter initialEntries={['/profile']}>
        <Routes>
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/login" element={<h1>Login screen</h1>} />
        </Routes>
      </MemoryRouter>
    </AuthContext>,
  );
}

describe('ProfilePage', () => {
  it('sends a signed-out visitor to the login screen', async () => {
    renderProfile({ status: 'signedOut' });
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy();
  });

  it('shows the greeting, role badge, personal information and account details from the local record', async () => {
    await getUserDb(uid).users.put({
      uid,
      email: 'ada@example.com',
      displayName: 'Ada Lovelace',
      mobile: '+8801712345678',
      userRole: 'moderator',
      createdAt: new Date(2026, 0, 5).toISOString(),
      updatedAt: new Date(2026, 0, 5).toISOString(),
      version: 3,
    });
    renderProfile(signedIn);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByText(`${greetingFor()},`)).toBeTruthy();
    const card = screen.getByRole('region', { name: 'Ada Lovelace' });
    expect(within(card).getByText('MODERATOR').className).toContain('badge-warning');

    const personal = screen.getByRole('region', { name: 'Personal Information' });
    expect(within(personal).getByText('+8801712345678')).toBeTruthy();
    expect(within(personal).getByText('ada@example.com')).toBeTruthy();
    const account = screen.getByRole('region', { name: 'Account Details' });
    expect(within(account).getByText(uid)).toBeTruthy();
    expect(within(account).getByText('January 5, 2026')).toBeTruthy();
    // Offline, the copy is said to be one, and nothing failed.
    expect(screen.getByRole('status').textContent).toBe(`${STALE_NOTICE}Try Again`);
  });

  it("says 'Unable to Load Profile' when there is no local copy and the server cannot be asked", async () => {
    renderProfile(signedIn);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Unable to Load Profile' })).toBeTruthy();
    expect(within(alert).getByText('Failed to fetch user profile.')).toBeTruthy();
  });

  describe('online', () => {
    // The real API in-process, with the account signed in through its own auth (render-signed-in.tsx);
    // the network is up or down.
    let api: ApiHarness;
    let account: TestUser;
    let network: 'up' | 'down' = 'up';
    const signedInAccount = (): AuthState => ({ status: 'signedIn', user: { id: account.id, email: account.email }, session: {} as Session });
    const deviceCopy = (): User => ({ ...copy, uid: account.id, email: account.email, displayName: 'Ada Lovelace (saved)', version: 0 });

    const kit = signedInKit({ unreachable: () => network === 'down' });
    beforeAll(async () => {
      api = kit.api();
      account = await signInAs(api);
    });
    beforeEach(() => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      network = 'up';
    });
    afterEach(() => deleteUserDb(account.id));

    it('shows the copy saved on this device with a word that it may be out of date when the server cannot be reached', async () => {
      network = 'down';
      await getUserDb(account.id).users.put(deviceCopy());
      renderProfile(signedInAccount());
      expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace (saved)' })).toBeTruthy();
      const notice = (await screen.findByRole('status')).textContent;
      // Online, a load that failed is named as the specification names it, above the copy.
      expect(notice).toContain('Unable to Load Profile. Failed to fetch user profile.');
      expect(notice).toContain(STALE_NOTICE);

      // Try Again once the network is back: the server's copy, and no more word of staleness.
      network = 'up';
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try Again' })));
      await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Ada Lovelace (saved)' })).toBeNull());
      expect(screen.queryByRole('status')).toBeNull();
    });

    it("says 'Unable to Load Profile' / 'Failed to fetch user profile.' with no copy when the server cannot be reached", async () => {
      network = 'down';
      renderProfile(signedInAccount());
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByRole('heading', { name: 'Unable to Load Profile' })).toBeTruthy();
      expect(within(alert).getByText('Failed to fetch user profile.')).toBeTruthy();
    });

    it('saves a new name and mobile on the server and on this device, and refuses a blank name and a mobile with letters naming the field', async () => {
      renderProfile(signedInAccount());
      const form = await screen.findByRole('region', { name: 'Edit Profile' });
      fireEvent.change(within(form).getByLabelText('Full Name'), { target: { value: '  ' } });
      fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
      expect(within(form).getByText('is required')).toBeTruthy();

      fireEvent.change(within(form).getByLabelText('Full Name'), { target: { value: 'Ada King' } });
      fireEvent.change(within(form).getByLabelText('Mobile Number'), { target: { value: '0171abc' } });
      fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
      expect(within(form).getByText('may hold only digits, spaces and a leading +')).toBeTruthy();
      fireEvent.change(within(form).getByLabelText('Mobile Number'), { target: { value: '01899999999' } });
      await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' })));
      expect((await within(form).findByRole('status')).textContent).toBe('Your profile has been saved.');
      const row = await api.db.selectFrom('users').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
      expect({ name: row.display_name, mobile: row.mobile }).toEqual({ name: 'Ada King', mobile: '01899999999' });
      expect(await getUserDb(account.id).users.get(account.id)).toMatchObject({ displayName: 'Ada King', mobile: '01899999999' });
      expect(await screen.findByRole('heading', { level: 1, name: 'Ada King' })).toBeTruthy();
    });
  });
});
