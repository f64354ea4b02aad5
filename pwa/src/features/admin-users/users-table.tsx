import { useState } from 'react';
import { roles, type Role, type User } from '../../../../edge-api/src/contract/users.ts';
import { CellLabel, stacked } from '../../components/stacked-table.tsx';
import { formatDateShort, initialOf } from '../../lib/format.ts';
import { CustomerPricesDialog } from './customer-prices-dialog.tsx';

export interface UsersTableProps {
  users: readonly User[];
  /** The signed-in admin: their own role and account are another admin's to change (the server insists too). */
  viewerId: string;
  /** Rows with a role change or deletion under way. */
  busy: ReadonlySet<string>;
  /** False offline: role changes and deletions need the server. */
  canEdit: boolean;
  onRoleChange: (user: User, role: Role) => void;
  onDelete: (user: User) => void;
}

export const nameOf = (user: Pick<User, 'displayName'>) => user.displayName?.trim() || 'Unknown User';

function TrashIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-4 w-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </svg>
  );
}

const OWN_ACCOUNT_HINT = 'Your own role and account are changed by another admin.';

/** Prices (a customer's own, issue 32 item 3) and Delete; one's own account is deleted by another admin. */
function ActionsCell({
  user,
  name,
  own,
  disabled,
  onDelete,
  onPrices,
}: {
  user: User;
  name: string;
  own: boolean;
  disabled: boolean;
  onDelete: (user: User) => void;
  onPrices: (user: User) => void;
}) {
  return (
    <td role="cell" className={`${stacked.cell} self-end`}>
      {user.userRole === 'user' && (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-label={`Prices for ${name} (${user.email})`}
          disabled={disabled}
          onClick={() => onPrices(user)}
        >
          Prices
        </button>
      )}
      {/* One's own account is deleted by another admin: no button that could only be refused. */}
      {!own && (
        <button
          type="button"
          className="btn btn-ghost btn-sm text-error"
          title="Delete User"
          aria-label={`Delete User ${name} (${user.email})`}
          disabled={disabled}
          onClick={() => onDelete(user)}
        >
          <TrashIcon />
          <span className="@4xl:hidden">Delete</span>
        </button>
      )}
    </td>
  );
}

function UserCell({ user, name, own }: { user: User; name: string; own: boolean }) {
  return (
    <td role="cell" className={`${stacked.cell} col-span-full`}>
      <div className="flex items-center gap-3">
        <div className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-content" aria-hidden="true">
          {initialOf(user.displayName || user.email)}
        </div>
        <div className="min-w-0">
          <p className="font-semibold">
            {name}
            {own && ' '}
            {own && <span className="badge badge-sm badge-primary ml-1 align-middle">You</span>}
          </p>
          <p className="text-sm break-all text-base-content/70">{user.email}</p>
          <p className="font-mono text-xs break-all text-base-content/70">{user.uid}</p>
        </div>
      </div>
    </td>
  );
}

interface RoleCellProps {
  user: User;
  name: string;
  own: boolean;
  hintId: string;
  updating: boolean;
  disabled: boolean;
  onRoleChange: UsersTableProps['onRoleChange'];
}

function RoleCell({ user, name, own, hintId, updating, disabled, onRoleChange }: RoleCellProps) {
  return (
    <td role="cell" className={stacked.cell}>
      <CellLabel>Role</CellLabel>
      <div className="flex items-center gap-2">
        <select
          className="select select-sm w-32"
          aria-label={`Role of ${name} (${user.email})`}
          aria-describedby={own ? hintId : undefined}
          value={user.userRole}
          disabled={disabled}
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
      {own && (
        <p id={hintId} className="mt-1 max-w-48 text-xs text-base-content/70">
          {OWN_ACCOUNT_HINT}
        </p>
      )}
    </td>
  );
}

/** The spec's columns on a wide screen; one card per user on a phone or tablet, the actions always in view. */
export function UsersTable({ users, viewerId, busy, canEdit, onRoleChange, onDelete }: UsersTableProps) {
  const [pricesOf, setPricesOf] = useState<User | null>(null);
  return (
    <div className={stacked.frame}>
      {pricesOf && <CustomerPricesDialog user={pricesOf} onClose={() => setPricesOf(null)} />}
      <table className={`table ${stacked.table}`} role="table">
        <thead className={stacked.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              User
            </th>
            <th scope="col" role="columnheader">
              Role
            </th>
            <th scope="col" role="columnheader">
              Joined
            </th>
            <th scope="col" role="columnheader">
              Status
            </th>
            <th scope="col" role="columnheader">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className={stacked.body} role="rowgroup">
          {users.map((user) => {
            const name = nameOf(user);
            const updating = busy.has(user.uid);
            const own = user.uid === viewerId;
            const hintId = `own-account-${user.uid}`;
            return (
              <tr key={user.uid} aria-busy={updating} role="row" className={`${stacked.row} grid-cols-2 @md:grid-cols-4`}>
                <UserCell user={user} name={name} own={own} />
                <RoleCell
                  user={user}
                  name={name}
                  own={own}
                  hintId={hintId}
                  updating={updating}
                  disabled={updating || !canEdit || own}
                  onRoleChange={onRoleChange}
                />
                <td role="cell" className={stacked.cell}>
                  <CellLabel>Joined</CellLabel>
                  {formatDateShort(user.createdAt)}
                </td>
                <td role="cell" className={stacked.cell}>
                  <CellLabel>Status</CellLabel>
                  <span className="badge badge-success">Active</span>
                </td>
                <ActionsCell user={user} name={name} own={own} disabled={updating || !canEdit} onDelete={onDelete} onPrices={setPricesOf} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
