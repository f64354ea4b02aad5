import type { Session } from '@supabase/supabase-js';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { AuthContext, type AuthState } from '../../lib/auth.tsx';
import { greetingFor } from '../../lib/format.ts';
import { ProfilePage } from './profile-page.tsx';

const uid = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const signedIn: AuthState = { status: 'signedIn', user: { id: uid, email: 'ada@example.com' }, session: {} as Session };

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
  });

  it("says 'Unable to Load Profile' when there is no local copy and the server cannot be asked", async () => {
    renderProfile(signedIn);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Unable to Load Profile' })).toBeTruthy();
    expect(within(alert).getByText('Failed to fetch user profile.')).toBeTruthy();
  });
});
