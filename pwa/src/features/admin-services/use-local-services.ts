import { useLiveQuery } from 'dexie-react-hooks';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { getPublicDb } from '../../db/local-db.ts';
import { useSyncStatus } from '../../db/sync-status.ts';

export type LocalServices = { state: 'loading' } | { state: 'error' } | { state: 'ready'; services: Service[] };

const newestFirst = (a: Service, b: Service) => b.createdAt.localeCompare(a.createdAt);

/**
 * The services synced to this device, newest first. An empty store is "loading" until the first sync has
 * finished, and an error when that sync failed with nothing stored to show.
 */
export function useLocalServices(): LocalServices {
  const services = useLiveQuery(async () => (await getPublicDb().services.toArray()).sort(newestFirst), []);
  const sync = useSyncStatus();
  if (services === undefined) return { state: 'loading' };
  if (services.length > 0 || sync.lastSyncedAt) return { state: 'ready', services };
  if (sync.syncing) return { state: 'loading' };
  if (sync.lastError || !sync.online) return { state: 'error' };
  return { state: 'loading' };
}
