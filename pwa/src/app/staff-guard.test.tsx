import type { Session } from '@supabase/auth-js';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { deleteUserDb } from '../db/local-db.ts';
import { AuthContext, storedSessionUser, type AuthState } from '../lib/auth.tsx';
import { useAuthorization } from '../lib/authorization.tsx';
import { signedInKit, signInAs } from '../test/render-signed-in.tsx';
import { StaffGuard } from './staff-guard.tsx';

// The guard asks the real API app in-process, with the user signed in through its own auth
// (render-signed-in.tsx).
const kit = signedInKit();
let api: ApiHarness;
beforeAll(() => {
  api = kit.api();
});
afterEach(cleanup);

function Screen() {
  const { role } = useAuthorization();
  return <h1>Dashboard screen for {role}</h1>;
}

function renderGuard(auth: AuthState) {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: (
          <StaffGuard>
            <Screen />
          </StaffGuard>
        ),
      },
      { path: '/login', element: <h1>Login screen</h1> },
      { path: '/', element: <h1>Shop</h1> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <AuthContext value={auth}>
      <RouterProvider router={router} />
    </AuthContext>,
  );
  return router;
}

const signedInAs = (user: TestUser): AuthState => {
  return { status: 'signedIn', user: { id: user.id, email: user.email }, session: {} as Session };
};

describe('StaffGuard', () => {
  it('lets staff in with their role', async () => {
    for (const role of ['admin', 'moderator'] as const) {
      const user = await signInAs(api, role);
      renderGuard(signedInAs(user));
      expect(await screen.findByRole('heading', { name: `Dashboard screen for ${role}` })).toBeTruthy();
      cleanup();
      await deleteUserDb(user.id);
    }
  });

  it('tells a signed-in customer the dashboard is not for them, keeps them signed in and offers the way back', async () => {
    const customer = await signInAs(api);
    const router = renderGuard(signedInAs(customer));
    expect(await screen.findByRole('heading', { name: 'No access to the dashboard' })).toBeTruthy();
    expect(screen.getByText(new RegExp(`signed in as ${customer.email.replace('.', '\\.')}`))).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Dashboard screen/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the Shop' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'My Orders' }).getAttribute('href')).toBe('/my-orders');
    expect(router.state.location.pathname).toBe('/dashboard');
    // Still signed in on this device, as the customer.
    expect(storedSessionUser()?.id).toBe(customer.id);
    // The title is set by an effect, which may run just after the heading shows.
    await waitFor(() => expect(document.title).toMatch(/^Dashboard: no access · /));
    await deleteUserDb(customer.id);
  });

  it('says when the server would not tell the role, and asks again on Try Again', async () => {
    const refusing = await signInAs(api);
    // A deleted account: the server refuses to answer (403).
    await api.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', refusing.id).execute();
    renderGuard(signedInAs(refusing));
    expect(await screen.findByRole('heading', { name: 'Could not check your access' })).toBeTruthy();

    // The account comes back as staff meanwhile: Try Again lets them in.
    await api.db.updateTable('users').set({ deleted_at: null, user_role: 'moderator' }).where('id', '=', refusing.id).execute();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try Again' })));
    expect(await screen.findByRole('heading', { name: 'Dashboard screen for moderator' })).toBeTruthy();
    await deleteUserDb(refusing.id);
  });

  it('sends a signed-out visitor to /login', async () => {
    const router = renderGuard({ status: 'signedOut' });
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy();
    expect((router.state.location.state as { from?: { pathname: string } }).from?.pathname).toBe('/dashboard');
  });
});
