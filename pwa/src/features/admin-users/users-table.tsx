import type { Role, User } from '../../../../edge-api/src/contract.ts';
import { formatDateShort, initialOf } from '../../lib/format.ts';
import { roles } from './user-filters.ts';

export interface UsersTableProps {
  users: readonly User[];
  /** Rows with a role change or deletion under way. */
  busy: ReadonlySet<string>;
  /** False offline: role changes and deletions need the server. */
  canEdit: boolean;
  onRoleChange: (user: User, role: Role) => void;
  onDelete: (user: User) => void;
}

const nameOf = (user: Pick<User, 'displayName'>) => user.displayName?.trim() || 'Unknown User';

function TrashIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </svg>
  );
}

export function UsersTable({ users, busy, canEdit, onRoleChange, onDelete }: UsersTableProps) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table className="table">
        <thead className="text-base-content">
          <tr>
            <th scope="col">User</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const name = nameOf(user);
            const updating = busy.has(user.uid);
            return (
              <tr key={user.uid} aria-busy={updating}>
                <td>
                  <div className="flex items-center gap-3">
                    <div className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-content" aria-hidden="true">
                      {initialOf(user.displayName || user.email)}
                    </div>
                    <div className="min-w-0">
                      <p className="font-semibold">{name}</p>
                      <p className="text-sm text-base-content/70">{user.email}</p>
                      <p className="font-mono text-xs break-all text-base-content/70">{user.uid}</p>
                    </div>
                  </div>
                </td>
                <td>
                  <div className="flex items-center gap-2">
                    <select
                      className="select select-sm w-32"
                      aria-label={`Role of ${name} (${user.email})`}
                      value={user.userRole}
                      disabled={updating || !canEdit}
                      onChange={(event) => onRoleChange(user, event.target.value as Role)}
                    >
                      {roles.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                    {updating && <span className="loading loading-spinner loading-xs" aria-label="Updating" />}
                  </div>
                </td>
                <td>{formatDateShort(user.createdAt)}</td>
                <td>
                  <span className="badge badge-success">Active</span>
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm text-error"
                    title="Delete User"
                    aria-label={`Delete User ${name} (${user.email})`}
                    disabled={updating || !canEdit}
                    onClick={() => onDelete(user)}
                  >
                    <TrashIcon />
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
