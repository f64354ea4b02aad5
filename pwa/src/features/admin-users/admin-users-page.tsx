import { useMemo, useState } from 'react';
import type { Role, User } from '../../../../edge-api/src/contract/users.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { CountCard } from '../../components/count-card.tsx';
import { NoAccess } from '../../components/no-access.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { SearchInput } from '../../components/search-input.tsx';
import { useToast } from '../../components/toast.tsx';
import { forgetOnDevice, keepOnDevice } from '../../db/device-copy.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { useAdminUsers } from './use-admin-users.ts';
import { accessDenied, deleteFailure, failureText, listFailure, roleUpdateFailure } from './user-errors.ts';
import { countUsers, filterUsers, isRoleFilter, roleFilterOptions, type RoleFilter } from './user-filters.ts';
import { nameOf, UsersTable } from './users-table.tsx';

/** User Management (/dashboard/admin-users): admins only; a moderator is told so. */
export function AdminUsersPage() {
  const { can } = useAuthorization();
  const auth = useAuth();
  if (auth.status !== 'signedIn') return null;
  if (!can('users:manage')) return <NoAccess screen="User Management" title={accessDenied.title} message={`${accessDenied.text} Users are managed by admins.`} />;
  return <UserManagement viewerId={auth.user.id} />;
}

const without = (set: ReadonlySet<string>, value: string) => {
  const next = new Set(set);
  next.delete(value);
  return next;
};

export function UserManagement({ viewerId }: { viewerId: string }) {
  usePageTitle('User Management');
  const toast = useToast();
  const confirm = useConfirm();
  const { online } = useSyncStatus();
  const { db, users, status, refresh } = useAdminUsers(viewerId);
  const [search, setSearch] = useState('');
  const [roleFilter, setRoleFilter] = useState<RoleFilter>('all');
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const counts = useMemo(() => countUsers(users ?? []), [users]);
  const shown = useMemo(() => filterUsers(users ?? [], search, roleFilter), [users, search, roleFilter]);

  const runForRow = async (uid: string, work: () => Promise<void>) => {
    setBusy((current) => new Set(current).add(uid));
    try {
      await work();
    } finally {
      setBusy((current) => without(current, uid));
    }
  };

  const changeRole = async (user: User, userRole: Role) => {
    if (userRole === user.userRole) return;
    const confirmed = await confirm({
      title: 'Update User Role?',
      text: `Are you sure you want to change this user's role to ${userRole}?`,
      confirmLabel: 'Yes, update it!',
    });
    if (!confirmed) return;
    await runForRow(user.uid, async () => {
      try {
        const updated = await unwrap(api.users[':uid'].role.$put({ param: { uid: user.uid }, json: { userRole, version: user.version } }));
        await keepOnDevice(db, { users: [updated] });
        toast.success(`User role updated to ${updated.userRole}`);
      } catch (error) {
        console.error('Failed to update user role', error);
        toast.error(failureText(roleUpdateFailure(error)));
        // A stale copy (changed elsewhere meanwhile): show the current one.
        if (hasCode(error, 'conflict')) void refresh();
      }
    });
  };

  const deleteUser = async (user: User) => {
    const confirmed = await confirm({
      title: 'Are you sure?',
      subject: [nameOf(user), user.email],
      text: 'This action cannot be undone!',
      confirmLabel: 'Yes, delete it!',
      danger: true,
    });
    if (!confirmed) return;
    await runForRow(user.uid, async () => {
      try {
        await unwrap(api.users[':uid'].$delete({ param: { uid: user.uid } }));
        await forgetOnDevice(db, { users: [user.uid] });
        toast.success('User has been deleted successfully.');
      } catch (error) {
        console.error('Failed to delete user', error);
        toast.error(failureText(deleteFailure(error)));
      }
    });
  };

  const failure = status.kind === 'failed' ? listFailure(status.error) : null;
  const loading = status.kind === 'loading' || status.kind === 'idle';
  // Nothing on the device yet and the list on its way: the counts are not known, not zero.
  const countsKnown = users !== undefined && !(users.length === 0 && loading);

  let body;
  if (failure?.title === accessDenied.title) {
    body = <ErrorState title={failure.title} message={failure.text} />;
  } else if (users === undefined || (users.length === 0 && loading)) {
    body = <LoadingState text="Loading users data..." />;
  } else if (failure && users.length === 0) {
    body = <ErrorState title={failure.title} message={failure.text} onRetry={() => void refresh()} />;
  } else {
    body = (
      <>
        {failure && (
          <div role="alert" className="alert alert-error">
            <span>
              <strong>{failure.title}</strong> {failure.text}
            </span>
            <button type="button" className="btn btn-sm" onClick={() => void refresh()}>
              Try Again
            </button>
          </div>
        )}
        {status.kind === 'unreachable' && (
          <p className="text-sm text-base-content/80">
            {online ? 'The server cannot be reached' : 'Offline'}: showing the users saved on this device. Role changes and deletions need a connection.
          </p>
        )}
        {shown.length === 0 ? (
          <EmptyState title="No users found" text="Try adjusting your search or filter criteria" />
        ) : (
          <UsersTable
            users={shown}
            viewerId={viewerId}
            busy={busy}
            canEdit={online}
            onRoleChange={(user, role) => void changeRole(user, role)}
            onDelete={(user) => void deleteUser(user)}
          />
        )}
        <p className="text-sm text-base-content/80" aria-live="polite">
          Showing {shown.length} of {users.length} users
        </p>
      </>
    );
  }

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">User Management</h1>
          <p className="text-base-content/80">See every account, change roles and remove users.</p>
        </div>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void refresh()} disabled={status.kind === 'loading'}>
          {status.kind === 'loading' && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Refresh
        </button>
      </header>

      <section aria-label="User counts" aria-busy={!countsKnown} className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <CountCard label="Total Users" value={countsKnown ? counts.total : undefined} />
        <CountCard label="Admins" value={countsKnown ? counts.admins : undefined} />
        <CountCard label="Moderators" value={countsKnown ? counts.moderators : undefined} />
        <CountCard label="Regular Users" value={countsKnown ? counts.users : undefined} />
      </section>

      <div className="flex flex-col gap-3 sm:flex-row" role="search">
        <SearchInput label="Search users" placeholder="Search users by name, email, or UID..." value={search} onChange={setSearch} />
        <label className="select w-full sm:w-48">
          <span className="sr-only">Filter by role</span>
          <select value={roleFilter} onChange={(event) => isRoleFilter(event.target.value) && setRoleFilter(event.target.value)}>
            {roleFilterOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      <section aria-label="Users" aria-busy={loading} className="space-y-3">
        {body}
      </section>
    </div>
  );
}
