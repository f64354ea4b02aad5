import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import { userDbName, type OutboxEntry } from './local-db.ts';
import { getSyncEngine } from './sync-engine.ts';

const emptyOutbox: OutboxEntry[] = [];

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
  const engine = getSyncEngine();
  const status = useSyncExternalStore(engine.subscribe, engine.getStatus, engine.getStatus);
  const userId = status.userId;
  const outbox =
    useLiveQuery(async () => {
      const db = engine.userDb();
      if (!userId || !db || db.name !== userDbName(userId)) return emptyOutbox;
      return db.outbox.orderBy('createdAt').toArray().catch(() => emptyOutbox);
    }, [engine, userId]) ?? emptyOutbox;
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
