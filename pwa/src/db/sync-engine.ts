import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { AppError, hasCode, isApiAnswer, isTransient } from '../lib/app-error.ts';
import { deleteUserDb, getPublicDb, getUserDb, readMeta, type UserDb } from './local-db.ts';
import { keepDeliveredFiles } from './delivered-files.ts';
import { lockVault } from './vault-session.ts';
import { pullPrivate, pullPublic } from './pull.ts';
import { push } from './push.ts';
import { browserTransport, type SyncTransport } from './sync-transport.ts';

export interface SyncStatus {
  userId: string | null;
  online: boolean;
  syncing: boolean;
  lastSyncedAt: string | null;
  lastError: string | null;
}

export interface SyncEngineOptions {
  transport?: SyncTransport;
  /** Web Locks; null runs without one (one tab only). Defaults to navigator.locks where it exists. */
  locks?: LockManager | null;
  pollMs?: number;
  maxBackoffMs?: number;
  /** false: no triggers, timers or retries; the caller runs syncNow() (tests). */
  autoSync?: boolean;
}

export const SYNC_LOCK = 'storefront-sync';
/** Runtime cache of signed (private) image URLs; deleted at logout with the user's database. */
export const PRIVATE_IMAGE_CACHE = 'private-images';

const LAST_SYNCED = 'lastSyncedAt';

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/**
 * The sync engine: push then pull, under a Web Lock so one tab leads, on start, on `online`, on
 * `visibilitychange`, after a write and on a timer, with backoff after failures. What is pulled and pushed
 * is pull.ts's and push.ts's; how the server is reached, sync-transport.ts's.
 */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function createSyncEngine(options: SyncEngineOptions = {}) {
  const transport = options.transport ?? browserTransport;
  const locks = options.locks !== undefined ? options.locks : typeof navigator !== 'undefined' ? (navigator.locks ?? null) : null;
  const pollMs = options.pollMs ?? 60_000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const autoSync = options.autoSync ?? true;

  let userDb: UserDb | null = null;
  let status: SyncStatus = { userId: null, online: browserOnline(), syncing: false, lastSyncedAt: null, lastError: null };
  const listeners = new Set<() => void>();
  let running: Promise<void> | null = null;
  let rerun: Promise<void> | null = null;
  let failures = 0;
  /** A push refused with Retry-After (429 past a limit, 503): no push before then, whatever triggers a sync. */
  let pushHeld: { until: number; error: AppError } | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Proof images of this user's delivered orders seen by the pulls since they were last asked for. */
  const imagesToKeep = new Set<string>();
  let detach: (() => void) | null = null;

  const setStatus = (patch: Partial<SyncStatus>) => {
    status = { ...status, ...patch };
    for (const listener of listeners) listener();
  };

  const keepProofImages = (orders: Order[]) => {
    for (const order of orders) if (order.wiseImage) imagesToKeep.add(order.wiseImage);
  };

  /**
   * The delivered credentials open offline, so their proof image must too, even if it was never shown
   * online: each new one is asked for once, in the background, for the worker to keep.
   */
  function keepImagesOffline(userId: string | null) {
    const urls = [...imagesToKeep];
    imagesToKeep.clear();
    // Signed out meanwhile: nothing of that user may land in the cache the logout emptied.
    if (!userId || status.userId !== userId) return;
    for (const url of urls) {
      transport.fetchImage?.(url).catch((error: unknown) => console.warn('Could not keep an image for offline use', error));
    }
  }

  const withLock = (work: () => Promise<void>): Promise<void> => (locks ? (locks.request(SYNC_LOCK, work) as Promise<void>) : work());

  async function runOnce() {
    clearTimeout(retryTimer);
    if (!browserOnline()) {
      setStatus({ online: false });
      throw new AppError('network', 'You are offline. Changes will sync when you are back online.');
    }
    const userId = status.userId;
    const db = userDb;
    setStatus({ syncing: true, online: true });
    try {
      await withLock(async () => {
        let pushError: unknown;
        const pushPending = async () => {
          // The queue waits as it is, nothing dropped; pulls go on meanwhile.
          if (pushHeld && Date.now() < pushHeld.until) {
            pushError = pushHeld.error;
            return;
          }
          try {
            if (userId && db) await push(transport, userId, db);
            pushError = undefined;
            pushHeld = null;
          } catch (error) {
            // A push that cannot get through must not keep the device from hearing about others' changes.
            if (hasCode(error, 'session_ended') || !isTransient(error)) throw error;
            pushError = error;
            if (error instanceof AppError && error.retryAfterMs) pushHeld = { until: Date.now() + error.retryAfterMs, error };
          }
        };
        await pushPending();
        await Promise.all([pullPublic(transport), userId && db ? pullPrivate(transport, userId, db, keepProofImages, pushPending) : undefined]);
        if (pushError) throw pushError;
      });
      failures = 0;
      keepImagesOffline(userId);
      // Files delivered to this user's own orders, read from the device (a sync cut short by a reload
      // still brings them next time); those already kept are skipped (decision 069).
      if (userId && db && status.userId === userId) {
        const withFiles = await db.orders
          .where('userId')
          .equals(userId)
          .filter((order) => order.deliveryKind === 'file')
          .toArray();
        if (withFiles.length > 0) await keepDeliveredFiles(db, transport.api, withFiles);
      }
      const now = new Date().toISOString();
      await getPublicDb().meta.put({ key: LAST_SYNCED, value: now });
      setStatus({ syncing: false, lastSyncedAt: now, lastError: null });
    } catch (error) {
      const ended = hasCode(error, 'session_ended');
      if (ended && userId) transport.sessionEnded?.(userId);
      const transient = !ended && isTransient(error);
      const message = ended || isApiAnswer(error) ? error.message : 'Could not reach the server. Changes will sync when the connection is back.';
      setStatus({ syncing: false, lastError: message, online: browserOnline() });
      if (transient && detach && autoSync) {
        failures += 1;
        const delay = Math.min(maxBackoffMs, 1000 * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
        const held = pushHeld ? pushHeld.until - Date.now() : 0;
        retryTimer = setTimeout(trigger, Math.max(delay, held));
      }
      throw ended || isApiAnswer(error) ? error : new AppError('network', message, { cause: error });
    }
  }

  /** Push then pull now; a call while a run is under way gets the run after it (so a fresh write goes too). */
  function syncNow(): Promise<void> {
    if (running) {
      rerun ??= running
        .catch(() => {})
        .then(() => {
          rerun = null;
          return syncNow();
        });
      return rerun;
    }
    running = runOnce().finally(() => {
      running = null;
    });
    return running;
  }

  function trigger() {
    syncNow().catch(() => {});
  }

  /** After a local write: push soon, once for a burst of writes. */
  function notifyWrite() {
    if (!detach || !autoSync) return;
    clearTimeout(writeTimer);
    writeTimer = setTimeout(trigger, 150);
  }

  function attachTriggers() {
    const onOnline = () => {
      setStatus({ online: true });
      failures = 0;
      trigger();
    };
    const onOffline = () => setStatus({ online: false });
    const onVisible = () => {
      if (document.visibilityState === 'visible') trigger();
    };
    const poll = setInterval(() => {
      if (typeof document === 'undefined' || document.visibilityState === 'visible') trigger();
    }, pollMs);
    if (typeof window !== 'undefined') {
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
    }
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(poll);
      clearTimeout(retryTimer);
      clearTimeout(writeTimer);
      if (typeof window !== 'undefined') {
        window.removeEventListener('online', onOnline);
        window.removeEventListener('offline', onOffline);
      }
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
    };
  }

  const engine = {
    /** Syncs public data, and `userId`'s own data when signed in, until stopped. */
    start(userId: string | null): () => void {
      engine.stop();
      activeEngine = engine;
      userDb = userId ? getUserDb(userId) : null;
      failures = 0;
      pushHeld = null;
      imagesToKeep.clear();
      setStatus({ userId, lastError: null, online: browserOnline() });
      detach = autoSync ? attachTriggers() : () => {};
      void readMeta<string>(getPublicDb(), LAST_SYNCED).then((at) => {
        if (at && !status.lastSyncedAt) setStatus({ lastSyncedAt: at });
      });
      if (userId) void requestPersistentStorage();
      if (autoSync) trigger();
      return () => {
        if (status.userId === userId && detach) engine.stop();
      };
    },
    stop() {
      detach?.();
      detach = null;
      userDb = null;
      if (status.userId !== null) setStatus({ userId: null });
    },
    syncNow,
    notifyWrite,
    /** Resolves once no run is under way. */
    async idle() {
      while (running || rerun) await (rerun ?? running)!.catch(() => {});
    },
    getStatus: () => status,
    /** The database of the user being synced (closed, never reopened, once wiped at logout). */
    userDb: () => userDb,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return engine;
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

let activeEngine: SyncEngine | null = null;
let defaultEngine: SyncEngine | null = null;

/** The engine screens and mutations talk to: the one started last. */
export function getSyncEngine(): SyncEngine {
  return activeEngine ?? (defaultEngine ??= createSyncEngine());
}

/** Called by the app shell whenever the signed-in user changes (null: signed out). Returns a stop function. */
export function startSync(userId: string | null): () => void {
  return (defaultEngine ??= createSyncEngine()).start(userId);
}

/** Sync now (Refresh buttons). Rejects when offline or when the server could not be reached. */
export function requestSync(): Promise<void> {
  return getSyncEngine().syncNow();
}

/** A write was queued: push it soon. */
export function notifyLocalWrite(): void {
  activeEngine?.notifyWrite();
}

/**
 * Logout: stop syncing this user, then delete the user's database (credentials and queued changes with
 * it) and the cached private images. Call after signing out of supabase.
 */
export async function wipeUserData(userId: string): Promise<void> {
  const engine = activeEngine;
  if (engine && engine.getStatus().userId === userId) {
    engine.stop();
    await engine.idle();
  }
  lockVault();
  await deleteUserDb(userId);
  if (typeof caches !== 'undefined') await caches.delete(PRIVATE_IMAGE_CACHE);
}

/** Asks the browser not to evict the offline copy (queued changes, delivered credentials) under pressure. */
async function requestPersistentStorage() {
  try {
    if (typeof navigator !== 'undefined' && navigator.storage?.persist && !(await navigator.storage.persisted())) {
      await navigator.storage.persist();
    }
  } catch {
    // Not offered here (private windows, old browsers): the data is then kept on a best-effort basis.
  }
}
