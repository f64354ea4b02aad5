import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { keepUserList } from '../../db/device-copy.ts';
import { getUserDb } from '../../db/local-db.ts';
import { api } from '../../lib/api-client.ts';
import { fetchAllPages } from '../../lib/list-pages.ts';
import { AppError, isApiAnswer } from '../../lib/app-error.ts';
import { newestFirst } from './user-filters.ts';

export type FetchStatus =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'done' }
  /** The server answered with an error. */
  | { kind: 'failed'; error: AppError }
  /** No answer (offline): the synced copy is all there is. */
  | { kind: 'unreachable' };

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
      const list = await fetchAllPages((args) => api.users.$get(args));
      await keepUserList(db, list);
      if (mine === generation.current) setStatus({ kind: 'done' });
    } catch (error) {
      if (mine !== generation.current) return;
      if (isApiAnswer(error)) {
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
