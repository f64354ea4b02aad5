import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import type { Order, OrderStatus, PaymentStatus, Role, StockStatus, SyncResponse, WiseStock } from '../../../edge-api/src/contract.ts';
import { api, ApiRequestError, unwrap } from '../lib/api-client.ts';
import { getSupabase } from '../lib/supabase.ts';
import { deleteUserDb, getPublicDb, getUserDb, userDbName as getUserDbName, type OutboxEntry, type PublicDb, type UserDb } from './local-db.ts';

/** The typed API client the engine talks through (tests pass one bound to the in-process app). */
export type ApiClient = typeof api;

export interface SyncTransport {
  api: ApiClient;
  /** Renews the session after a 401; false when there is none to renew. */
  refreshSession(): Promise<boolean>;
  /** Whose session the API client sends: a queue is only pushed under its own user's session. */
  sessionUserId(): Promise<string | null>;
  /** Asks for an image so the service worker keeps it for offline use; absent, images wait until shown. */
  fetchImage?(url: string): Promise<void>;
}

/** What each named mutation carries in its outbox entry. */
export interface MutationArgs {
  placeOrder: { id: string; productId: string };
  setOrderStatus: { orderId: string; orderStatus: OrderStatus; version: number };
  setPaymentStatus: { orderId: string; paymentStatus: PaymentStatus; version: number };
  deliverOrder:
    | { orderId: string; version: number; wiseEmail: string; wisePassword: string; wiseImage?: string }
    | { orderId: string; version: number; stockId: string };
  setStockStatus: { stockId: string; status: StockStatus; soldTo?: string | null; notes?: string; version: number };
}

export type SyncedTable = 'orders' | 'wiseStocks';
export interface RowRef {
  table: SyncedTable;
  id: string;
}

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

const CURSOR = 'cursor';
const ROLE = 'role';
const LAST_SYNCED = 'lastSyncedAt';

/** The server could not be reached or failed on its side: the work stays and is tried again later. */
export class SyncUnavailableError extends Error {
  override name = 'SyncUnavailableError';
}
/** The session could not be renewed: the queue stays until the person signs in again. */
export class SyncSessionError extends Error {
  override name = 'SyncSessionError';
}

const isStaffRole = (role: Role | undefined) => role === 'admin' || role === 'moderator';
const baseKey = (ref: RowRef) => `base:${ref.table}:${ref.id}`;
const sameRef = (a: RowRef, b: RowRef) => a.table === b.table && a.id === b.id;

/** The rows an entry changes optimistically: its target, and the stock a delivery from stock sells. */
export function entryTargets(entry: Pick<OutboxEntry, 'name' | 'args' | 'target'>): RowRef[] {
  const refs: RowRef[] = entry.target ? [entry.target] : [];
  if (entry.name === 'deliverOrder' && typeof entry.args.stockId === 'string') refs.push({ table: 'wiseStocks', id: entry.args.stockId });
  return refs;
}

/**
 * Before the first optimistic change to a row, the server's copy is kept aside (null: the row does not
 * exist there yet). Pulls update that copy instead of the row while changes wait; when the queue for the
 * row drains, the server's latest copy wins again.
 */
export async function keepServerCopy(db: UserDb, ref: RowRef): Promise<void> {
  const key = baseKey(ref);
  if (await db.meta.get(key)) return;
  const row = (await db.table(ref.table).get(ref.id)) as Order | WiseStock | undefined;
  await db.meta.put({ key, value: { row: row ?? null } });
}

async function takeServerCopy(db: UserDb, ref: RowRef): Promise<{ row: Order | WiseStock | null } | undefined> {
  const key = baseKey(ref);
  const entry = await db.meta.get(key);
  if (!entry) return undefined;
  await db.meta.delete(key);
  return entry.value as { row: Order | WiseStock | null };
}

// Confirmation promises for `done` of mutations made in this page; an entry from before a reload still syncs.
const waiters = new Map<string, { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void }>();

export function waitForEntry(entryId: string): Promise<void> {
  let waiter = waiters.get(entryId);
  if (!waiter) {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A screen may ignore `done`; a refusal is shown through the outbox, so it is never an unhandled rejection.
    promise.catch(() => {});
    waiter = { promise, resolve, reject };
    waiters.set(entryId, waiter);
  }
  return waiter.promise;
}

function settle(entryId: string, error?: unknown) {
  const waiter = waiters.get(entryId);
  if (!waiter) return;
  waiters.delete(entryId);
  if (error === undefined) waiter.resolve();
  else waiter.reject(error);
}

const defaultTransport: SyncTransport = {
  api,
  async refreshSession() {
    const supabase = await getSupabase();
    const { data, error } = await supabase.auth.refreshSession();
    return !error && !!data.session;
  },
  async sessionUserId() {
    const supabase = await getSupabase();
    const { data } = await supabase.auth.getSession();
    return data.session?.user.id ?? null;
  },
  async fetchImage(url) {
    // Only our own files: the worker keeps those (a cross-origin answer would be opaque and not kept).
    if (new URL(url, location.href).origin !== location.origin) return;
    await fetch(url, { credentials: 'same-origin' });
  },
};

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** Whether a failure means "try again later" (no answer, or the server failed) rather than "refused". */
const isTransient = (error: unknown) =>
  !(error instanceof ApiRequestError) || error.status >= 500 || error.status === 408 || error.status === 429;

type Answer = { ref: RowRef; row: Order | WiseStock };

async function sendMutation(client: ApiClient, entry: OutboxEntry): Promise<Answer> {
  const init = { headers: { 'Idempotency-Key': entry.id } };
  const header = { 'idempotency-key': entry.id };
  switch (entry.name) {
    case 'placeOrder': {
      const args = entry.args as MutationArgs['placeOrder'];
      const answer = await unwrap(client.orders.$post({ json: { id: args.id, productId: args.productId } }, init));
      return { ref: { table: 'orders', id: args.id }, row: answer.order as Order };
    }
    case 'setOrderStatus': {
      const args = entry.args as MutationArgs['setOrderStatus'];
      const json = { orderStatus: args.orderStatus, version: args.version };
      const answer = await unwrap(client.admin.orders[':id'].$put({ param: { id: args.orderId }, header, json }));
      return { ref: { table: 'orders', id: args.orderId }, row: answer as Order };
    }
    case 'setPaymentStatus': {
      const args = entry.args as MutationArgs['setPaymentStatus'];
      const json = { paymentStatus: args.paymentStatus, version: args.version };
      const answer = await unwrap(client.admin.orders[':id'].$put({ param: { id: args.orderId }, header, json }));
      return { ref: { table: 'orders', id: args.orderId }, row: answer as Order };
    }
    case 'deliverOrder': {
      const { orderId, ...rest } = entry.args as MutationArgs['deliverOrder'];
      const json = { paymentStatus: 'paid' as const, orderStatus: 'delivered' as const, ...rest };
      const answer = await unwrap(client.admin.orders[':id'].$put({ param: { id: orderId }, header, json }));
      return { ref: { table: 'orders', id: orderId }, row: answer as Order };
    }
    case 'setStockStatus': {
      const { stockId, ...json } = entry.args as MutationArgs['setStockStatus'];
      const answer = await unwrap(client['wise-stocks'][':id'].$put({ param: { id: stockId }, json }, init));
      return { ref: { table: 'wiseStocks', id: stockId }, row: answer.stock as WiseStock };
    }
  }
}

const newer = <T extends { version: number }>(a: T | null | undefined, b: T | null | undefined) =>
  !a ? b : !b ? a : b.version > a.version ? b : a;

/** The server took the change: drop the entry, and let the server's row replace the optimistic one. */
async function confirmEntry(db: UserDb, entry: OutboxEntry, answer: Answer) {
  await db.transaction('rw', [db.outbox, db.orders, db.wiseStocks, db.meta], async () => {
    await db.outbox.delete(entry.id);
    const pending = await db.outbox.where('status').equals('pending').toArray();
    for (const other of pending) {
      // Later changes to the same row were made on top of this one: they now expect the server's new version.
      if (other.target && sameRef(other.target, answer.ref) && typeof other.args.version === 'number') {
        await db.outbox.update(other.id, { args: { ...other.args, version: answer.row.version } });
      }
    }
    for (const ref of entryTargets(entry)) {
      const fromAnswer = sameRef(ref, answer.ref) ? answer.row : undefined;
      const stillQueued = pending.some((other) => entryTargets(other).some((r) => sameRef(r, ref)));
      const table = db.table(ref.table);
      if (stillQueued) {
        if (fromAnswer) await db.meta.put({ key: baseKey(ref), value: { row: fromAnswer } });
        continue;
      }
      const copy = await takeServerCopy(db, ref);
      const current = (await table.get(ref.id)) as Order | WiseStock | undefined;
      const latest = fromAnswer ? newer(fromAnswer, copy?.row) : copy?.row && current && copy.row.version > current.version ? copy.row : undefined;
      if (latest) await table.put(latest);
    }
  });
}

/** The server refused the change: keep it, marked failed with the server's reason, and undo it locally. */
async function failEntry(db: UserDb, entry: OutboxEntry, error: ApiRequestError) {
  await db.transaction('rw', [db.outbox, db.orders, db.wiseStocks, db.meta], async () => {
    await db.outbox.update(entry.id, { status: 'failed', error: error.message });
    const pending = await db.outbox.where('status').equals('pending').toArray();
    for (const ref of entryTargets(entry)) {
      if (pending.some((other) => entryTargets(other).some((r) => sameRef(r, ref)))) continue;
      const copy = await takeServerCopy(db, ref);
      if (!copy) continue;
      if (copy.row) await db.table(ref.table).put(copy.row);
      else await db.table(ref.table).delete(ref.id);
    }
  });
}

async function readMeta<T>(db: PublicDb | UserDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export function createSyncEngine(options: SyncEngineOptions = {}) {
  const transport = options.transport ?? defaultTransport;
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
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Proof images of this user's delivered orders seen by the pulls since they were last asked for. */
  const imagesToKeep = new Set<string>();
  let detach: (() => void) | null = null;

  const setStatus = (patch: Partial<SyncStatus>) => {
    status = { ...status, ...patch };
    for (const listener of listeners) listener();
  };

  /** Sends pending entries oldest first; stops at the first one that cannot get an answer. */
  async function push(userId: string, db: UserDb) {
    if ((await transport.sessionUserId()) !== userId) return;
    const queue = await db.outbox.where('status').equals('pending').sortBy('createdAt');
    for (const queued of queue) {
      const entry = await db.outbox.get(queued.id);
      if (!entry || entry.status !== 'pending') continue;
      await db.outbox.update(entry.id, { attempts: entry.attempts + 1 });
      let answer: Answer;
      try {
        answer = await withSession(() => sendMutation(transport.api, entry));
      } catch (error) {
        if (error instanceof ApiRequestError && !isTransient(error)) {
          await failEntry(db, entry, error);
          settle(entry.id, error);
          continue;
        }
        throw error;
      }
      await confirmEntry(db, entry, answer);
      settle(entry.id);
    }
  }

  async function withSession<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.status !== 401) throw error;
      if (!(await transport.refreshSession())) throw new SyncSessionError('Your session has ended. Sign in again to sync your changes.');
      try {
        return await call();
      } catch (again) {
        if (again instanceof ApiRequestError && again.status === 401) throw new SyncSessionError('Your session has ended. Sign in again to sync your changes.');
        throw again;
      }
    }
  }

  async function fetchChanges(scope: 'public' | 'private', cursor: number): Promise<SyncResponse> {
    return (await withSession(() => unwrap(transport.api.sync.$get({ query: { scope, cursor: String(cursor) } })))) as SyncResponse;
  }

  /** The cursor of the next page, or null when this answer was the last one. */
  function nextCursor(answer: SyncResponse, cursor: number): number | null {
    if (!answer.hasMore) return null;
    // A server that promises more without moving on would keep this loop going for ever.
    if (!answer.reset && answer.cursor <= cursor) throw new Error(`Sync did not move past ${cursor}`);
    return answer.cursor;
  }

  async function pullPublic() {
    const db = getPublicDb();
    let cursor: number | null = (await readMeta<number>(db, CURSOR)) ?? 0;
    // Page by page, each in its own transaction: an interrupted first pull resumes where it stopped.
    while (cursor !== null) {
      const answer = await fetchChanges('public', cursor);
      await db.transaction('rw', [db.services, db.settings, db.meta], async () => {
        if (answer.reset) await db.services.clear();
        if (answer.changes.services?.length) await db.services.bulkPut(answer.changes.services);
        if (answer.deleted.services?.length) await db.services.bulkDelete(answer.deleted.services);
        const settings = answer.changes.settings?.[0];
        if (settings) await db.settings.put({ ...settings, id: 'site' });
        await db.meta.put({ key: CURSOR, value: answer.cursor });
      });
      cursor = nextCursor(answer, cursor);
    }
  }

  async function pullPrivate(userId: string, db: UserDb) {
    let cursor: number | null = (await readMeta<number>(db, CURSOR)) ?? 0;
    // A role change between customer and staff changes what this user may hold, so the copy is then
    // replaced whole, once.
    let wipeNext = false;
    let restarted = false;
    while (cursor !== null) {
      // Another account signed in meanwhile: its rows must never land in this user's database.
      if ((await transport.sessionUserId()) !== userId) return;
      let answer: SyncResponse;
      try {
        answer = await fetchChanges('private', cursor);
      } catch (error) {
        // Signed up a moment ago: the user record is being saved; nothing private to hold yet.
        if (error instanceof ApiRequestError && error.status === 403) return;
        throw error;
      }
      if ((await transport.sessionUserId()) !== userId) return;
      const roleChanged = await applyPrivate(db, userId, answer, answer.reset || wipeNext);
      for (const order of answer.changes.orders ?? []) if (order.userId === userId && order.wiseImage) imagesToKeep.add(order.wiseImage);
      wipeNext = false;
      if (roleChanged) {
        if (restarted) return;
        restarted = true;
        wipeNext = true;
        cursor = 0;
        continue;
      }
      cursor = nextCursor(answer, cursor);
    }
  }

  /** Applies one pull in one transaction; answers whether the user moved between customer and staff. */
  async function applyPrivate(db: UserDb, userId: string, answer: SyncResponse, wipe: boolean): Promise<boolean> {
    return db.transaction('rw', [db.users, db.orders, db.wiseStocks, db.outbox, db.meta], async () => {
      const pending = await db.outbox.where('status').equals('pending').toArray();
      const queued = new Set(pending.flatMap(entryTargets).map(baseKey));
      if (wipe) {
        await db.users.clear();
        for (const table of [db.orders, db.wiseStocks] as const) {
          const name = table === db.orders ? 'orders' : 'wiseStocks';
          const ids = (await table.toCollection().primaryKeys()) as string[];
          await table.bulkDelete(ids.filter((id) => !queued.has(baseKey({ table: name, id }))));
        }
      }
      if (answer.changes.users?.length) await db.users.bulkPut(answer.changes.users);
      if (answer.deleted.users?.length) await db.users.bulkDelete(answer.deleted.users);
      await applyRows(db, 'orders', answer.changes.orders, answer.deleted.orders, queued);
      await applyRows(db, 'wiseStocks', answer.changes.wiseStocks, answer.deleted.wiseStocks, queued);

      const me = answer.changes.users?.find((user) => user.uid === userId);
      const knownRole = await readMeta<Role>(db, ROLE);
      if (me) await db.meta.put({ key: ROLE, value: me.userRole });
      await db.meta.put({ key: CURSOR, value: answer.cursor });
      return !wipe && !!me && knownRole !== undefined && isStaffRole(knownRole) !== isStaffRole(me.userRole);
    });
  }

  async function applyRows(
    db: UserDb,
    table: SyncedTable,
    rows: (Order | WiseStock)[] | undefined,
    deleted: string[] | undefined,
    queued: Set<string>,
  ) {
    const store = db.table(table);
    const isQueued = (id: string) => queued.has(baseKey({ table, id }));
    // Never over a row with changes still waiting: the server's copy is kept for when they are done.
    for (const row of rows ?? []) if (isQueued(row.id)) await db.meta.put({ key: baseKey({ table, id: row.id }), value: { row } });
    for (const id of deleted ?? []) if (isQueued(id)) await db.meta.put({ key: baseKey({ table, id }), value: { row: null } });
    await store.bulkPut((rows ?? []).filter((row) => !isQueued(row.id)));
    await store.bulkDelete((deleted ?? []).filter((id) => !isQueued(id)));
  }

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

  const withLock = (work: () => Promise<void>): Promise<void> =>
    locks ? (locks.request(SYNC_LOCK, work) as Promise<void>) : work();

  async function runOnce() {
    clearTimeout(retryTimer);
    if (!browserOnline()) {
      setStatus({ online: false });
      throw new SyncUnavailableError('You are offline. Changes will sync when you are back online.');
    }
    const userId = status.userId;
    const db = userDb;
    setStatus({ syncing: true, online: true });
    try {
      await withLock(async () => {
        let pushError: unknown;
        try {
          if (userId && db) await push(userId, db);
        } catch (error) {
          // A push that cannot get through must not keep the device from hearing about others' changes.
          if (error instanceof SyncSessionError || !isTransient(error)) throw error;
          pushError = error;
        }
        await Promise.all([pullPublic(), userId && db ? pullPrivate(userId, db) : undefined]);
        if (pushError) throw pushError;
      });
      failures = 0;
      keepImagesOffline(userId);
      const now = new Date().toISOString();
      await getPublicDb().meta.put({ key: LAST_SYNCED, value: now });
      setStatus({ syncing: false, lastSyncedAt: now, lastError: null });
    } catch (error) {
      const transient = !(error instanceof SyncSessionError) && isTransient(error);
      const message =
        error instanceof SyncSessionError || error instanceof ApiRequestError
          ? error.message
          : 'Could not reach the server. Changes will sync when the connection is back.';
      setStatus({ syncing: false, lastError: message, online: browserOnline() });
      if (transient && detach && autoSync) {
        failures += 1;
        const delay = Math.min(maxBackoffMs, 1000 * 2 ** (failures - 1));
        retryTimer = setTimeout(trigger, delay * (0.5 + Math.random() / 2));
      }
      throw error instanceof ApiRequestError || error instanceof SyncSessionError ? error : new SyncUnavailableError(message, { cause: error });
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
      if (!userId || !db || db.name !== getUserDbName(userId)) return emptyOutbox;
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
