import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { User } from '../../../../edge-api/src/contract.ts';
import { getUserDb, type UserDb } from '../../db/local-db.ts';
import { api, ApiRequestError, unwrap } from '../../lib/api-client.ts';
import { newestFirst } from './user-filters.ts';

export type FetchStatus =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'done' }
  /** The server answered with an error. */
  | { kind: 'failed'; error: ApiRequestError }
  /** No answer (offline): the synced copy is all there is. */
  | { kind: 'unreachable' };

/**
 * The server's list replaces the device's copy: users gone from it were deleted. A row the sync engine
 * already brought in newer is kept.
 */
async function storeUserList(db: UserDb, users: readonly User[]): Promise<void> {
  await db.transaction('rw', db.users, async () => {
    const listed = new Set(users.map((user) => user.uid));
    const local = await db.users.toArray();
    const localVersion = new Map(local.map((user) => [user.uid, user.version]));
    await db.users.bulkDelete(local.filter((user) => !listed.has(user.uid)).map((user) => user.uid));
    await db.users.bulkPut(users.filter((user) => (localVersion.get(user.uid) ?? -1) <= user.version));
  });
}

/**
 * Users as synced to this device (readable offline), refreshed from GET /api/users when online.
 * `users` is undefined while the local copy is read.
 */
export function useAdminUsers(viewerId: string) {
  const db = getUserDb(viewerId);
  const users = useLiveQuery(async () => (await db.users.toArray()).sort(newestFirst), [db]);
  const [status, setStatus] = useState<FetchStatus>({ kind: 'idle' });
  const generation = useRef(0);

  const refresh = useCallback(async () => {
    const mine = ++generation.current;
    if (typeof navigator !== 'undefined' && !navigator.onLine) {
      setStatus({ kind: 'unreachable' });
      return;
    }
    setStatus({ kind: 'loading' });
    try {
      const list = await unwrap(api.users.$get());
      await storeUserList(db, list);
      if (mine === generation.current) setStatus({ kind: 'done' });
    } catch (error) {
      if (mine !== generation.current) return;
      if (error instanceof ApiRequestError) {
        console.error('Failed to fetch users', error);
        setStatus({ kind: 'failed', error });
      } else {
        setStatus({ kind: 'unreachable' });
      }
    }
  }, [db]);

  useEffect(() => {
    void refresh();
    const onOnline = () => void refresh();
    window.addEventListener('online', onOnline);
    const answers = generation;
    return () => {
      window.removeEventListener('online', onOnline);
      // Answers arriving after the screen closed are dropped.
      answers.current++;
    };
  }, [refresh]);

  return { db, users, status, refresh };
}
