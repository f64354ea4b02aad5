import { useMemo, useState } from 'react';
import { CountCard } from '../../components/count-card.tsx';
import { NoAccess } from '../../components/no-access.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { SearchInput } from '../../components/search-input.tsx';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { useAdminUsers } from './use-admin-users.ts';
import { accessDenied, listFailure } from './user-errors.ts';
import { countUsers, filterUsers, isRoleFilter, roleFilterOptions, type RoleFilter } from './user-filters.ts';
import { UsersTable } from './users-table.tsx';
import { useUserActions } from './use-user-actions.ts';

/** User Management (/dashboard/admin-users): admins only; a moderator is told so. */
export function AdminUsersPage() {
  const { can } = useAuthorization();
  const auth = useAuth();
  if (auth.status !== 'signedIn') return null;
  if (!can('users:manage'))
    return <NoAccess screen="User Management" title={accessDenied.title} message={`${accessDenied.text} Users are managed by admins.`} />;
  return <UserManagement viewerId={auth.user.id} />;
}

function UsersHeader({ loading, onRefresh }: { loading: boolean; onRefresh: () => void }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold">User Management</h1>
        <p className="text-base-content/80">See every account, change roles and remove users.</p>
      </div>
      <button type="button" className="btn btn-outline btn-sm" onClick={onRefresh} disabled={loading}>
        {loading && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Refresh
      </button>
    </header>
  );
}

/** The counts by role; unknown (not zero) while nothing is on the device and the list is on its way. */
function UserCounts({ counts }: { counts: ReturnType<typeof countUsers> | undefined }) {
  return (
    <section aria-label="User counts" aria-busy={!counts} className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <CountCard label="Total Users" value={counts?.total} />
      <CountCard label="Admins" value={counts?.admins} />
      <CountCard label="Moderators" value={counts?.moderators} />
      <CountCard label="Regular Users" value={counts?.users} />
    </section>
  );
}

export function UserManagement({ viewerId }: { viewerId: string }) {
  usePageTitle('User Management');
  const { online } = useSyncStatus();
  const { db, users, status, refresh } = useAdminUsers(viewerId);
  const { busy, changeRole, deleteUser } = useUserActions(db, refresh);
  const [search, setSearch] = useState('');
  const [roleFilter, setRoleFilter] = useState<RoleFilter>('all');

  const counts = useMemo(() => countUsers(users ?? []), [users]);
  const shown = useMemo(() => filterUsers(users ?? [], search, roleFilter), [users, search, roleFilter]);

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
      <UsersHeader loading={status.kind === 'loading'} onRefresh={() => void refresh()} />

      <UserCounts counts={countsKnown ? counts : undefined} />

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
