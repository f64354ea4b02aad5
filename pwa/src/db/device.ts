import { startTransition, useEffect, useState, type DependencyList } from 'react';
import { SNAPSHOT_ELEMENT_ID } from '../lib/public-snapshot.tsx';

/**
 * The device's database and sync engine, loaded after the first paint (decision 052): the frame of the
 * storefront and its public pages render from defaults first, then from the device once it is loaded.
 * This module imports neither Dexie nor the sync engine, only their types.
 */
export type Device = typeof import('./device-impl.ts');

let loading: Promise<Device> | undefined;
let loaded: Device | undefined;
const waiting = new Set<() => void>();

/** The next task: the main thread answers input and paints between the steps of a long piece of work. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Loads the device module (once); resolves with it. Its code is evaluated in two tasks (decision 070,
 * 2026-11-24): Dexie and the databases, then the outbox, the vault and the sync engine; imported at
 * once, the whole graph was one task of 160–250 ms on a phone (4× CPU slowdown).
 */
export function loadDevice(): Promise<Device> {
  loading ??= import('./local-db.ts')
    .then(nextTask)
    .then(() => import('./device-impl.ts'))
    .then((device) => {
      loaded = device;
      for (const listener of waiting) listener();
      return device;
    });
  return loading;
}

/**
 * On a page the server rendered (decision 053), the device is not needed to show anything: what the page
 * shows came with it. Its start (Dexie opening the databases, the first pull, the live queries it wakes)
 * waits until the page has loaded and the browser is idle (decision 070, 2026-11-24), so it never competes
 * with the app's takeover. A tap that needs it (retry, sign out) loads it at once through loadDevice().
 */
const renderedByServer = typeof document !== 'undefined' && document.getElementById(SNAPSHOT_ELEMENT_ID) !== null;
let settled: Promise<void> | undefined;
function whenSettled(): Promise<void> {
  settled ??= new Promise<void>((resolve) => {
    const idle = () => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 });
      else setTimeout(resolve, 0);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
  return settled;
}

/** The device when nothing waits on it: at once on the app shell, after load and idle on a server-rendered page. */
function deviceSoon(): Promise<Device> {
  if (!renderedByServer || loading) return loadDevice();
  return whenSettled().then(loadDevice);
}

/**
 * Runs `work` with the device module once it has loaded, in a task of its own (decision 070): the screens'
 * live queries and the sync engine's start each open or read the database, and run together in the
 * module's `then` they made one long task that kept a phone from answering a tap.
 */
export function withDevice(work: (device: Device) => void): void {
  void deviceSoon().then((device) => {
    setTimeout(() => work(device), 0);
  });
}

/** Calls `listener` once the device module has loaded; returns an unsubscribe. */
export function onDeviceLoaded(listener: () => void): () => void {
  waiting.add(listener);
  return () => waiting.delete(listener);
}

/**
 * The device module once loaded (undefined before); asks for it after the first paint. Its arrival
 * re-renders the frame (the sync status) as a transition (decision 070): in slices of a few milliseconds
 * instead of the one long synchronous render an external store's change makes.
 */
export function useDevice(): Device | undefined {
  const [device, setDevice] = useState(loaded);
  useEffect(() => {
    if (loaded) {
      setDevice(loaded);
      return undefined;
    }
    const unsubscribe = onDeviceLoaded(() => startTransition(() => setDevice(loaded)));
    void deviceSoon();
    return unsubscribe;
  }, []);
  return device;
}

/** Watches `query` on the device's database once it is there; returns a stop function. */
function watch<T>(query: (device: Device) => Promise<T> | T, next: (value: T) => void): () => void {
  let active = true;
  let subscription: { unsubscribe(): void } | undefined;
  withDevice((device) => {
    if (active)
      subscription = device.liveQuery(() => query(device)).subscribe({ next, error: (error: unknown) => console.warn('A query on the device failed', error) });
  });
  return () => {
    active = false;
    subscription?.unsubscribe();
  };
}

/**
 * A live query on the device's database, like dexie-react-hooks' useLiveQuery: undefined until the
 * first answer (and until Dexie has loaded), then every change of what it read. A new answer re-renders
 * as a transition (decision 070, 2026-11-24): in slices, not in one task.
 */
export function useDeviceQuery<T>(query: (device: Device) => Promise<T> | T, deps: DependencyList): T | undefined {
  const [answer, setAnswer] = useState<{ value: T } | undefined>(undefined);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, as useLiveQuery takes them
  useEffect(() => watch(query, (value) => startTransition(() => setAnswer({ value }))), deps);
  return answer?.value;
}

type Listeners = Set<(answer: { value: unknown }) => void> & { stop?: () => void };
const sharedQueries = new Map<string, Listeners>();
const lastAnswers = new Map<string, { value: unknown }>();

/**
 * useDeviceQuery for a query many components ask the same thing of (the site settings: the frame, the
 * page's title and the page itself): one live query for all of them while any is mounted, so a change
 * wakes one query and one render instead of one per component (decision 070, 2026-11-24). A component
 * mounted later starts from the last answer.
 */
export function useSharedDeviceQuery<T>(key: string, query: (device: Device) => Promise<T> | T): T | undefined {
  const [answer, setAnswer] = useState(() => lastAnswers.get(key) as { value: T } | undefined);
  useEffect(() => {
    let listeners = sharedQueries.get(key);
    if (!listeners) {
      const created: Listeners = new Set();
      created.stop = watch(query, (value) => {
        const next = { value };
        lastAnswers.set(key, next);
        for (const listener of created) listener(next);
      });
      sharedQueries.set(key, (listeners = created));
    }
    const current = listeners;
    const listener = (next: { value: unknown }) => startTransition(() => setAnswer(next as { value: T }));
    current.add(listener);
    const last = lastAnswers.get(key);
    if (last) listener(last);
    return () => {
      current.delete(listener);
      if (current.size > 0) return;
      current.stop?.();
      sharedQueries.delete(key);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one query per key
  }, [key]);
  return answer?.value;
}
