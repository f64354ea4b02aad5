import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { signedInKit, signInAs, switchTo } from '../../test/render-signed-in.tsx';
import { UserManagement } from './admin-users-page.tsx';

// The screen talks to the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;
let network: 'up' | 'down' = 'up';

const kit = signedInKit({ unreachable: () => network === 'down' });
beforeAll(async () => {
  api = kit.api();
});

beforeEach(async () => {
  network = 'up';
  customer = await signInAs(api, 'user', 'customer');
  // The device is left signed in as the admin.
  admin = await signInAs(api, 'admin');
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await deleteUserDb(admin.id);
  // Each test starts with its own two accounts.
  await api.db.deleteFrom('audit_log').execute();
  await api.db.deleteFrom('users').execute();
});

function renderScreen(viewer: TestUser = admin) {
  render(
    <ToastProvider>
      <ConfirmProvider>
        <UserManagement viewerId={viewer.id} />
      </ConfirmProvider>
    </ToastProvider>,
  );
}

const roleSelect = (user: TestUser) => screen.getByLabelText(new RegExp(`^Role of .*\\(${user.email.replace('.', '\\.')}\\)$`)) as HTMLSelectElement;
const serverRole = async (user: TestUser) => (await api.call<User>('GET', `/api/users/${user.id}`, { user: admin })).body.userRole;

describe('User Management', () => {
  it('lists the users from the server with counts and the footer', async () => {
    renderScreen();
    expect(await screen.findByText('Showing 2 of 2 users')).toBeTruthy();
    expect(screen.getByText(customer.email)).toBeTruthy();
    expect(screen.getByText(customer.id)).toBeTruthy();
    const counts = screen.getByRole('region', { name: 'User counts' });
    expect(within(counts).getByText('Total Users').nextSibling?.textContent).toBe('2');
    expect(within(counts).getByText('Admins').nextSibling?.textContent).toBe('1');
    expect(within(counts).getByText('Regular Users').nextSibling?.textContent).toBe('1');

    fireEvent.change(screen.getByPlaceholderText('Search users by name, email, or UID...'), { target: { value: customer.email.toUpperCase() } });
    expect(screen.getByText('Showing 1 of 2 users')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter by role'), { target: { value: 'admin' } });
    expect(screen.getByText('No users found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or filter criteria')).toBeTruthy();
  });

  it('changes a role after confirmation, on the server and on the device', async () => {
    renderScreen();
    await screen.findByText('Showing 2 of 2 users');
    fireEvent.change(roleSelect(customer), { target: { value: 'moderator' } });
    const dialog = await screen.findByRole('dialog', { name: 'Update User Role?' });
    expect(within(dialog).getByText("Are you sure you want to change this user's role to moderator?")).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, update it!' })));

    expect(await screen.findByText('User role updated to moderator')).toBeTruthy();
    expect(await serverRole(customer)).toBe('moderator');
    await waitFor(() => expect(roleSelect(customer).value).toBe('moderator'));
    expect((await getUserDb(admin.id).users.get(customer.id))?.userRole).toBe('moderator');
  });

  it('changes nothing when the confirmation is cancelled', async () => {
    renderScreen();
    await screen.findByText('Showing 2 of 2 users');
    fireEvent.change(roleSelect(customer), { target: { value: 'admin' } });
    const dialog = await screen.findByRole('dialog', { name: 'Update User Role?' });
    await act(async () => fireEvent.click(within(dialog).getByText('Cancel', { selector: 'button' })));
    expect(roleSelect(customer).value).toBe('user');
    expect(await serverRole(customer)).toBe('user');
  });

  it("deletes a user after an 'Are you sure?' that names them", async () => {
    renderScreen();
    await screen.findByText('Showing 2 of 2 users');
    const deleteButton = screen.getByRole('button', { name: new RegExp(`^Delete User .*\\(${customer.email.replace('.', '\\.')}\\)$`) });
    expect(deleteButton.getAttribute('title')).toBe('Delete User');
    fireEvent.click(deleteButton);
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(within(dialog).getByText('This action cannot be undone!')).toBeTruthy();
    expect(within(dialog).getByText(customer.email)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' })));
    expect(await screen.findByText('User has been deleted successfully.')).toBeTruthy();
    expect(await screen.findByText('Showing 1 of 1 users')).toBeTruthy();
    expect((await api.call('GET', `/api/users/${customer.id}`, { user: admin })).status).toBe(404);
  });

  it("offers no role change or deletion on the admin's own row, and says why", async () => {
    renderScreen();
    await screen.findByText('Showing 2 of 2 users');
    expect(screen.queryByRole('button', { name: new RegExp(`^Delete User .*\\(${admin.email.replace('.', '\\.')}\\)$`) })).toBeNull();
    expect(roleSelect(admin).disabled).toBe(true);
    expect(roleSelect(admin).getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(roleSelect(admin).getAttribute('aria-describedby')!)?.textContent).toBe(
      'Your own role and account are changed by another admin.',
    );
    expect(roleSelect(customer).disabled).toBe(false);
    // The 'You' badge is a word of its own: read aloud or copied, the name does not run into it ("Demo AdminYou").
    const badge = screen.getByText('You', { selector: '.badge' });
    expect(badge.parentElement?.textContent).toMatch(/\S You$/);
  });

  it('shows the counts as loading, not as zero, until the list is known', async () => {
    renderScreen();
    const counts = screen.getByRole('region', { name: 'User counts' });
    expect(counts.getAttribute('aria-busy')).toBe('true');
    expect(within(counts).queryByText('0')).toBeNull();
    expect(screen.getByText('Loading users data...')).toBeTruthy();
    await screen.findByText('Showing 2 of 2 users');
    expect(counts.getAttribute('aria-busy')).toBe('false');
  });

  it('tells a caller the server refuses that access is denied', async () => {
    await switchTo(customer);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderScreen(customer);
    expect(await screen.findByText('Access Denied!')).toBeTruthy();
    expect(screen.getByText('You do not have permission to access this data.')).toBeTruthy();
    await deleteUserDb(customer.id);
  });

  it('shows the users synced to the device when the server cannot be reached', async () => {
    const { body: users } = await api.call<User[]>('GET', '/api/users', { user: admin });
    await getUserDb(admin.id).users.bulkPut(users);
    network = 'down';
    renderScreen();
    expect(await screen.findByText(/showing the users saved on this device/)).toBeTruthy();
    expect(screen.getByText('Showing 2 of 2 users')).toBeTruthy();
    expect(screen.getByText(customer.email)).toBeTruthy();
  });
});
