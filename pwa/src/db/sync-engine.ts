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

/** The shared state of one sync engine: createSyncEngine's, handed to the helpers below explicitly. */
interface EngineState {
  transport: SyncTransport;
  locks: LockManager | null;
  pollMs: number;
  maxBackoffMs: number;
  autoSync: boolean;
  userDb: UserDb | null;
  status: SyncStatus;
  listeners: Set<() => void>;
  running: Promise<void> | null;
  rerun: Promise<void> | null;
  failures: number;
  /** A push refused with Retry-After (429 past a limit, 503): no push before then, whatever triggers a sync. */
  pushHeld: { until: number; error: AppError } | null;
  retryTimer: ReturnType<typeof setTimeout> | undefined;
  writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Proof images of this user's delivered orders seen by the pulls since they were last asked for. */
  imagesToKeep: Set<string>;
  detach: (() => void) | null;
}

function setStatus(state: EngineState, patch: Partial<SyncStatus>) {
  state.status = { ...state.status, ...patch };
  for (const listener of state.listeners) listener();
}

/**
 * The delivered credentials open offline, so their proof image must too, even if it was never shown
 * online: each new one is asked for once, in the background, for the worker to keep.
 */
function keepImagesOffline(state: EngineState, userId: string | null) {
  const urls = [...state.imagesToKeep];
  state.imagesToKeep.clear();
  // Signed out meanwhile: nothing of that user may land in the cache the logout emptied.
  if (!userId || state.status.userId !== userId) return;
  for (const url of urls) {
    state.transport.fetchImage?.(url).catch((error: unknown) => console.warn('Could not keep an image for offline use', error));
  }
}

/** Push, then pull public and private data, under the Web Lock: a push that cannot get through fails the run after the pulls. */
function pushThenPull(state: EngineState, userId: string | null, db: UserDb | null): Promise<void> {
  const { transport, locks } = state;
  const keepProofImages = (orders: Order[]) => {
    for (const order of orders) if (order.wiseImage) state.imagesToKeep.add(order.wiseImage);
  };
  const work = async () => {
    let pushError: unknown;
    const pushPending = async () => {
      // The queue waits as it is, nothing dropped; pulls go on meanwhile.
      if (state.pushHeld && Date.now() < state.pushHeld.until) {
        pushError = state.pushHeld.error;
        return;
      }
      try {
        if (userId && db) await push(transport, userId, db);
        pushError = undefined;
        state.pushHeld = null;
      } catch (error) {
        // A push that cannot get through must not keep the device from hearing about others' changes.
        if (hasCode(error, 'session_ended') || !isTransient(error)) throw error;
        pushError = error;
        if (error instanceof AppError && error.retryAfterMs) state.pushHeld = { until: Date.now() + error.retryAfterMs, error };
      }
    };
    await pushPending();
    await Promise.all([pullPublic(transport), userId && db ? pullPrivate(transport, userId, db, keepProofImages, pushPending) : undefined]);
    if (pushError) throw pushError;
  };
  return locks ? (locks.request(SYNC_LOCK, work) as Promise<void>) : work();
}

/** One run; on a transient failure, the next one is timed with backoff (and never before a held push may go). */
async function runOnce(state: EngineState, trigger: () => void) {
  clearTimeout(state.retryTimer);
  if (!browserOnline()) {
    setStatus(state, { online: false });
    throw new AppError('network', 'You are offline. Changes will sync when you are back online.');
  }
  const userId = state.status.userId;
  const db = state.userDb;
  setStatus(state, { syncing: true, online: true });
  try {
    await pushThenPull(state, userId, db);
    state.failures = 0;
    keepImagesOffline(state, userId);
    // Files delivered to this user's own orders, read from the device (a sync cut short by a reload
    // still brings them next time); those already kept are skipped (decision 069).
    if (userId && db && state.status.userId === userId) {
      const withFiles = await db.orders
        .where('userId')
        .equals(userId)
        .filter((order) => order.deliveryKind === 'file')
        .toArray();
      if (withFiles.length > 0) await keepDeliveredFiles(db, state.transport.api, withFiles);
    }
    const now = new Date().toISOString();
    await getPublicDb().meta.put({ key: LAST_SYNCED, value: now });
    setStatus(state, { syncing: false, lastSyncedAt: now, lastError: null });
  } catch (error) {
    const ended = hasCode(error, 'session_ended');
    if (ended && userId) state.transport.sessionEnded?.(userId);
    const transient = !ended && isTransient(error);
    const message = ended || isApiAnswer(error) ? error.message : 'Could not reach the server. Changes will sync when the connection is back.';
    setStatus(state, { syncing: false, lastError: message, online: browserOnline() });
    if (transient && state.detach && state.autoSync) {
      state.failures += 1;
      const delay = Math.min(state.maxBackoffMs, 1000 * 2 ** (state.failures - 1)) * (0.5 + Math.random() / 2);
      const held = state.pushHeld ? state.pushHeld.until - Date.now() : 0;
      state.retryTimer = setTimeout(trigger, Math.max(delay, held));
    }
    throw ended || isApiAnswer(error) ? error : new AppError('network', message, { cause: error });
  }
}

/** Syncs on `online`, on `visibilitychange` and on the poll timer; returns the function that stops all of it. */
function attachTriggers(state: EngineState, trigger: () => void) {
  const onOnline = () => {
    setStatus(state, { online: true });
    state.failures = 0;
    trigger();
  };
  const onOffline = () => setStatus(state, { online: false });
  const onVisible = () => {
    if (document.visibilityState === 'visible') trigger();
  };
  const poll = setInterval(() => {
    if (typeof document === 'undefined' || document.visibilityState === 'visible') trigger();
  }, state.pollMs);
  if (typeof window !== 'undefined') {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
  }
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
  return () => {
    clearInterval(poll);
    clearTimeout(state.retryTimer);
    clearTimeout(state.writeTimer);
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    }
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
  };
}

function initialState(options: SyncEngineOptions): EngineState {
  return {
    transport: options.transport ?? browserTransport,
    locks: options.locks !== undefined ? options.locks : typeof navigator !== 'undefined' ? (navigator.locks ?? null) : null,
    pollMs: options.pollMs ?? 60_000,
    maxBackoffMs: options.maxBackoffMs ?? 60_000,
    autoSync: options.autoSync ?? true,
    userDb: null,
    status: { userId: null, online: browserOnline(), syncing: false, lastSyncedAt: null, lastError: null },
    listeners: new Set(),
    running: null,
    rerun: null,
    failures: 0,
    pushHeld: null,
    retryTimer: undefined,
    writeTimer: undefined,
    imagesToKeep: new Set(),
    detach: null,
  };
}

/**
 * The sync engine: push then pull, under a Web Lock so one tab leads, on start, on `online`, on
 * `visibilitychange`, after a write and on a timer, with backoff after failures. What is pulled and pushed
 * is pull.ts's and push.ts's; how the server is reached, sync-transport.ts's.
 */
export function createSyncEngine(options: SyncEngineOptions = {}) {
  const state = initialState(options);

  /** Push then pull now; a call while a run is under way gets the run after it (so a fresh write goes too). */
  function syncNow(): Promise<void> {
    if (state.running) {
      state.rerun ??= state.running
        .catch(() => {})
        .then(() => {
          state.rerun = null;
          return syncNow();
        });
      return state.rerun;
    }
    state.running = runOnce(state, trigger).finally(() => {
      state.running = null;
    });
    return state.running;
  }

  function trigger() {
    syncNow().catch(() => {});
  }

  /** After a local write: push soon, once for a burst of writes. */
  function notifyWrite() {
    if (!state.detach || !state.autoSync) return;
    clearTimeout(state.writeTimer);
    state.writeTimer = setTimeout(trigger, 150);
  }

  const engine = {
    /** Syncs public data, and `userId`'s own data when signed in, until stopped. */
    start(userId: string | null): () => void {
      engine.stop();
      activeEngine = engine;
      state.userDb = userId ? getUserDb(userId) : null;
      state.failures = 0;
      state.pushHeld = null;
      state.imagesToKeep.clear();
      setStatus(state, { userId, lastError: null, online: browserOnline() });
      state.detach = state.autoSync ? attachTriggers(state, trigger) : () => {};
      void readMeta<string>(getPublicDb(), LAST_SYNCED).then((at) => {
        if (at && !state.status.lastSyncedAt) setStatus(state, { lastSyncedAt: at });
      });
      if (userId) void requestPersistentStorage();
      if (state.autoSync) trigger();
      return () => {
        if (state.status.userId === userId && state.detach) engine.stop();
      };
    },
    stop() {
      state.detach?.();
      state.detach = null;
      state.userDb = null;
      if (state.status.userId !== null) setStatus(state, { userId: null });
    },
    syncNow,
    notifyWrite,
    /** Resolves once no run is under way. */
    async idle() {
      while (state.running || state.rerun) await (state.rerun ?? state.running)!.catch(() => {});
    },
    getStatus: () => state.status,
    /** The database of the user being synced (closed, never reopened, once wiped at logout). */
    userDb: () => state.userDb,
    subscribe(listener: () => void) {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
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
