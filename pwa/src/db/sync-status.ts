import { useSyncExternalStore } from 'react';
import type { OutboxEntry } from './local-db.ts';
import { onDeviceLoaded, useDevice, useDeviceQuery } from './device.ts';
import type { SyncStatus } from './sync-engine.ts';

const emptyOutbox: OutboxEntry[] = [];

/** What the status is before the sync engine has loaded (decision 052): nobody's, nothing synced yet. */
const beforeLoad: SyncStatus = {
  userId: null,
  // On a server (Node has a navigator without onLine) a page is rendered as online.
  online: typeof navigator === 'undefined' || navigator.onLine !== false,
  syncing: false,
  lastSyncedAt: null,
  lastError: null,
};
const notLoaded = { subscribe: onDeviceLoaded, getStatus: () => beforeLoad };

export function useSyncStatus(): {
  /** Whose changes these are (null: signed out). */
  userId: string | null;
  online: boolean;
  syncing: boolean;
  pendingCount: number;
  failed: OutboxEntry[];
  lastSyncedAt: string | null;
  lastError: string | null;
} {
  const device = useDevice();
  const engine = device ? device.getSyncEngine() : notLoaded;
  const status = useSyncExternalStore(engine.subscribe, engine.getStatus, engine.getStatus);
  const userId = status.userId;
  const outbox =
    useDeviceQuery(
      async (loaded) => {
        const db = loaded.getSyncEngine().userDb();
        if (!userId || !db || db.name !== loaded.userDbName(userId)) return emptyOutbox;
        return db.outbox.orderBy('createdAt').toArray().catch(() => emptyOutbox);
      },
      [engine, userId],
    ) ?? emptyOutbox;
  return {
    userId,
    online: status.online,
    syncing: status.syncing,
    pendingCount: outbox.filter((entry) => entry.status === 'pending').length,
    failed: outbox.filter((entry) => entry.status === 'failed'),
    lastSyncedAt: status.lastSyncedAt,
    lastError: status.lastError,
  };
}
