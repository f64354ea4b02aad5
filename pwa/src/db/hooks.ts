import { useLiveQuery } from 'dexie-react-hooks';
import { useAuth } from '../lib/auth.tsx';
import { getUserDb, type UserDb } from './local-db.ts';
import { entryTargets } from './outbox.ts';

/** The signed-in user's database; null when signed out. */
export function useUserDb(): UserDb | null {
  const auth = useAuth();
  return auth.status === 'signedIn' ? getUserDb(auth.user.id) : null;
}

export { useCurrentUser, useSettings } from './device-hooks.ts';

const noIds: ReadonlySet<string> = new Set();

/** Ids of orders and stocks with a change still waiting to reach the server ("pending sync" badges). */
export function usePendingIds(): Set<string> {
  const auth = useAuth();
  const uid = auth.status === 'signedIn' ? auth.user.id : null;
  const ids = useLiveQuery(async () => {
    if (!uid) return noIds;
    const pending = await getUserDb(uid).outbox.where('status').equals('pending').toArray();
    return new Set(pending.flatMap(entryTargets).map((ref) => ref.id));
  }, [uid]);
  return (ids ?? noIds) as Set<string>;
}
