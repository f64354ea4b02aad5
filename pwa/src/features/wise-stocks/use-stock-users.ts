import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { User } from '../../../../edge-api/src/contract.ts';
import { useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';

export const USERS_FAILED_MESSAGE = 'Failed to load users list';

export interface StockUsers {
  /** Every user known here (synced to the device, refreshed from the server when online); undefined while loading. */
  users: User[] | undefined;
  usersById: ReadonlyMap<string, User>;
}

/**
 * Users for the Sold To names and the buyer picker: staff devices hold them all (sync), and when online
 * GET /api/users brings them up to date. `onFailure` decides what a failed fetch does (the list screen
 * only logs it; the details screen tells the admin).
 */
export function useStockUsers(online: boolean, onFailure?: (message: string) => void): StockUsers {
  const db = useUserDb();
  const local = useLiveQuery(() => (db ? db.users.toArray() : ([] as User[])), [db]);
  const [remote, setRemote] = useState<User[]>([]);
  const failureRef = useRef(onFailure);
  useEffect(() => {
    failureRef.current = onFailure;
  });

  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    unwrap(api.users.$get())
      .then((users) => {
        if (!cancelled) setRemote(users);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        console.warn(USERS_FAILED_MESSAGE, error);
        failureRef.current?.(USERS_FAILED_MESSAGE);
      });
    return () => {
      cancelled = true;
    };
  }, [online]);

  return useMemo(() => {
    const byId = new Map<string, User>();
    for (const user of [...(local ?? []), ...remote]) {
      const known = byId.get(user.uid);
      if (!known || known.version <= user.version) byId.set(user.uid, user);
    }
    const users = local === undefined ? undefined : [...byId.values()].sort((a, b) => (a.displayName || a.email).localeCompare(b.displayName || b.email));
    return { users, usersById: byId };
  }, [local, remote]);
}
