import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef } from 'react';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import { keepUserList } from '../../db/device-copy.ts';
import { useUserDb } from '../../db/hooks.ts';
import { api } from '../../lib/api-client.ts';
import { fetchAllPages } from '../../lib/list-pages.ts';

export const USERS_FAILED_MESSAGE = 'Failed to load users list';

export interface StockUsers {
  /** Every user on this device (staff sync them all; refreshed from the server when online); undefined while loading. */
  users: User[] | undefined;
  usersById: ReadonlyMap<string, User>;
}

/**
 * Users for the Sold To names and the buyer picker, read from the device: staff devices hold them all
 * (sync), and when online GET /api/users brings the device's copy up to date. `onFailure` decides what a
 * failed fetch does (the list screen only logs it; the details screen tells the admin).
 */
export function useStockUsers(online: boolean, onFailure?: (message: string) => void): StockUsers {
  const db = useUserDb();
  const local = useLiveQuery(() => (db ? db.users.toArray() : ([] as User[])), [db]);
  const failureRef = useRef(onFailure);
  useEffect(() => {
    failureRef.current = onFailure;
  });

  useEffect(() => {
    if (!online || !db) return;
    let cancelled = false;
    fetchAllPages((args) => api.users.$get(args))
      .then((users) => keepUserList(db, users))
      .catch((error: unknown) => {
        if (cancelled) return;
        console.warn(USERS_FAILED_MESSAGE, error);
        failureRef.current?.(USERS_FAILED_MESSAGE);
      });
    return () => {
      cancelled = true;
    };
  }, [online, db]);

  return useMemo(() => {
    const users = local?.slice().sort((a, b) => (a.displayName || a.email).localeCompare(b.displayName || b.email));
    return { users, usersById: new Map((local ?? []).map((user) => [user.uid, user])) };
  }, [local]);
}
