import { useState } from 'react';
import type { Role, User } from '../../../../edge-api/src/contract/users.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { useToast } from '../../components/toast.tsx';
import { forgetOnDevice, keepOnDevice } from '../../db/device-copy.ts';
import type { useAdminUsers } from './use-admin-users.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { deleteFailure, failureText, roleUpdateFailure } from './user-errors.ts';
import { nameOf } from './users-table.tsx';

const without = (set: ReadonlySet<string>, value: string) => {
  const next = new Set(set);
  next.delete(value);
  return next;
};

/** An admin's role change and delete of a user, each once confirmed; `busy` holds the users being changed. */
export function useUserActions(db: ReturnType<typeof useAdminUsers>['db'], refresh: () => Promise<unknown> | void) {
  const toast = useToast();
  const confirm = useConfirm();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

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

  return { busy, changeRole, deleteUser };
}
