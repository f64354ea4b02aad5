import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, vi } from 'vitest';
import type { Role } from '../../../edge-api/src/contract/users.ts';
import { inProcessHarness, type ApiHarness, type TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { AuthProvider, signIn, signUp } from '../lib/auth.tsx';
import { StaffRoleProvider } from '../lib/authorization.tsx';
import { getAccessToken } from '../lib/supabase.ts';
import { fetchFromApp } from './in-process-api.ts';

export interface KitOptions {
  unreachable?: (url: URL) => boolean;
  config?: Parameters<typeof inProcessHarness>[0];
}

/**
 * One kit for screen tests that need a signed-in user (issue 34 item 5), in place of a module mock of
 * `lib/supabase.ts`: the real API app in-process on the file's own database, its embedded auth mounted
 * at the URL `/api/config` names, and the app's fetches sent there (`fetchFromApp`). `signInAs` registers
 * through the app's own `signUp` (the auth client, the stored session, the user record through the API),
 * so `getAccessToken`, the API client and `AuthProvider` all run as on a device.
 *
 * Call `signedInKit()` at the top of a file: it opens the API before the file's tests and closes it after.
 * `unreachable(url)` makes a request fail as with no network; `config` overrides the API's settings
 * (a rate limit, say), as `inProcessHarness` takes them.
 */
export function signedInKit({ unreachable, config }: KitOptions = {}): { api: () => ApiHarness } {
  let api: ApiHarness | undefined;
  const current = () => {
    if (!api) throw new Error('signedInKit: the API opens in beforeAll; use it inside a hook or a test');
    return api;
  };
  beforeAll(async () => {
    api = await inProcessHarness(config);
    fetchFromApp(current, unreachable);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await api?.close();
  });
  return { api: current };
}

let registered = 0;
/** The passwords of the accounts signInAs made, so switchTo can sign in to one again. */
const passwords = new Map<string, string>();

/**
 * Registers a new account through the app's own sign-up and leaves this device signed in as it; a staff
 * role is then written on its user record, as the harness's createUser makes staff (no other account is
 * made, so a screen listing users sees only the test's own). The returned token
 * is the session's own, for the test's direct calls to the API.
 */
export async function signInAs(api: ApiHarness, role: Role = 'user', name: string = role): Promise<TestUser> {
  registered += 1;
  const email = `${name}-${registered}-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const password = `Pw-${crypto.randomUUID()}`;
  const { needsConfirmation } = await signUp({ displayName: `${name} ${registered}`, email, mobile: '01700000000', password });
  if (needsConfirmation) throw new Error(`signInAs: the auth server left ${email} unconfirmed`);
  const token = await getAccessToken();
  if (!token) throw new Error(`signInAs: no session for ${email}`);
  const id = (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string }).sub;
  passwords.set(id, password);
  if (role !== 'user') {
    await api.setRole(id, role);
  }
  return { id, email, token, role };
}

/**
 * Signs this device in again, through the app's own `signIn`, as an account signInAs made earlier (the
 * device holds one session at a time). Returns the user with the new session's token.
 */
export async function switchTo(user: TestUser): Promise<TestUser> {
  const password = passwords.get(user.id);
  if (!password) throw new Error(`switchTo: ${user.email} was not made by signInAs`);
  await signIn(user.email, password);
  const token = await getAccessToken();
  if (!token) throw new Error(`switchTo: no session for ${user.email}`);
  return { ...user, token };
}

/** Renders `ui` as the app does for the signed-in user: the real AuthProvider, toasts, confirmations, and the staff role for staff. */
export function renderSignedIn(ui: ReactNode, user: Pick<TestUser, 'role'>): RenderResult {
  const staff = user.role === 'admin' || user.role === 'moderator' ? user.role : undefined;
  const inner = (
    <ToastProvider>
      <ConfirmProvider>{ui}</ConfirmProvider>
    </ToastProvider>
  );
  return render(<AuthProvider>{staff ? <StaffRoleProvider role={staff}>{inner}</StaffRoleProvider> : inner}</AuthProvider>);
}
