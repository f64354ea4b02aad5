import { useMemo } from 'react';
import { withDefaultSettings, type SiteSettings } from '../../../edge-api/src/contract/settings.ts';
import type { User } from '../../../edge-api/src/contract/users.ts';
import { useAuth } from '../lib/auth.tsx';
import { usePublicSnapshot } from '../lib/public-snapshot.tsx';
import { useDeviceQuery, useSharedDeviceQuery } from './device.ts';

// The device's rows the storefront's frame and public pages read, without loading Dexie first (decision 052).

/**
 * The signed-in user's own record as last synced: undefined while loading (or before the first sync on
 * this device), null when signed out or when the server has no record for this account.
 */
export function useCurrentUser(): User | null | undefined {
  const auth = useAuth();
  const uid = auth.status === 'signedIn' ? auth.user.id : null;
  const result = useDeviceQuery(
    async (device) => {
      if (!uid) return { uid, user: null };
      const db = device.getUserDb(uid);
      const [user, cursor] = await Promise.all([db.users.get(uid), db.meta.get('cursor')]);
      // Before the first private pull, "no record here" says nothing about the server yet.
      return { uid, user: user ?? (cursor ? null : undefined) };
    },
    [uid],
  );
  if (auth.status === 'loading') return undefined;
  if (!uid) return null;
  return result?.uid === uid ? result.user : undefined;
}

/**
 * Site settings (links, wallets, contact details): the device's copy; until there is one, those the
 * page was rendered with on the server, else the built-in defaults.
 */
export function useSettings(): SiteSettings {
  const snapshot = usePublicSnapshot();
  const stored = useSharedDeviceQuery('settings', (device) => device.getPublicDb().settings.get('site'));
  return useMemo(() => {
    if (!stored) return withDefaultSettings(snapshot?.settings ?? null);
    const { id: _id, ...settings } = stored;
    return withDefaultSettings(settings);
  }, [stored, snapshot]);
}
