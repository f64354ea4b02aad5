import { startTransition, useEffect, useState } from 'react';
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

/**
 * The engine's status; a change re-renders as a transition (decision 070, 2026-11-24): in slices, where an
 * external store's change re-rendered every screen showing the status (the services list) in one task.
 */
function useEngineStatus(engine: { subscribe: (listener: () => void) => () => void; getStatus: () => SyncStatus }): SyncStatus {
  const [status, setStatus] = useState(engine.getStatus);
  useEffect(() => {
    setStatus(engine.getStatus());
    return engine.subscribe(() => startTransition(() => setStatus(engine.getStatus())));
  }, [engine]);
  return status;
}

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
  const status = useEngineStatus(engine);
  const userId = status.userId;
  const outbox =
    useDeviceQuery(
      async (loaded) => {
        const db = loaded.getSyncEngine().userDb();
        if (!userId || !db || db.name !== loaded.userDbName(userId)) return emptyOutbox;
        return db.outbox
          .orderBy('createdAt')
          .toArray()
          .catch(() => emptyOutbox);
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
