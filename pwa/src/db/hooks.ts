import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { withDefaultSettings, type SiteSettings } from '../../../edge-api/src/contract/settings.ts';
import type { User } from '../../../edge-api/src/contract/users.ts';
import { useAuth } from '../lib/auth.tsx';
import { getPublicDb, getUserDb, type UserDb } from './local-db.ts';
import { entryTargets } from './outbox.ts';

/** The signed-in user's database; null when signed out. */
export function useUserDb(): UserDb | null {
  const auth = useAuth();
  return auth.status === 'signedIn' ? getUserDb(auth.user.id) : null;
}

/**
 * The signed-in user's own record as last synced: undefined while loading (or before the first sync on
 * this device), null when signed out or when the server has no record for this account.
 */
export function useCurrentUser(): User | null | undefined {
  const auth = useAuth();
  const uid = auth.status === 'signedIn' ? auth.user.id : null;
  const result = useLiveQuery(async () => {
    if (!uid) return { uid, user: null };
    const db = getUserDb(uid);
    const [user, cursor] = await Promise.all([db.users.get(uid), db.meta.get('cursor')]);
    // Before the first private pull, "no record here" says nothing about the server yet.
    return { uid, user: user ?? (cursor ? null : undefined) };
  }, [uid]);
  if (auth.status === 'loading') return undefined;
  if (!uid) return null;
  return result?.uid === uid ? result.user : undefined;
}

/** Site settings (links, wallets, contact details), with the built-in defaults until any are synced. */
export function useSettings(): SiteSettings {
  const stored = useLiveQuery(() => getPublicDb().settings.get('site'), []);
  return useMemo(() => {
    if (!stored) return withDefaultSettings(null);
    const { id: _id, ...settings } = stored;
    return withDefaultSettings(settings);
  }, [stored]);
}

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
