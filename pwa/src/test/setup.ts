import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import Dexie from 'dexie';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, vi } from 'vitest';

// findBy*/waitFor wait up to 5 s instead of 1 s: screens read the device's database, which loads after
// the first render (decision 052), and CI shares two cores. A broken screen still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

/**
 * The pwa project runs a worker's files one after another in one simulated browser and one module graph
 * (isolate: false, decision 259). This file runs again before each test file, and after each file's own
 * hooks (hooks run as a stack) puts back what a fresh worker had: no rendered screens, no fake clock or
 * stubbed globals, empty storage and databases, the page at its first address, and the app's own
 * modules (pwa/src, edge-api/src) evaluated again on their next import, so their module-level state (the
 * auth client, the device, the sync engine, the vault) starts over. Packages (React, Dexie, Hono, the
 * Postgres client) stay loaded: that is what the sharing saves.
 */
afterAll(async () => {
  const browser = typeof window !== 'undefined'; // not under `@vitest-environment node`
  if (browser) cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // Timers the file's screens, engines and auth client left pending never fire in the next file.
  clearPendingTimers();
  if (browser) await resetPage();
  forgetAppModules();
});

/** The simulated browser as a fresh worker has it. */
async function resetPage(): Promise<void> {
  await (window as { happyDOM?: { abort(): Promise<void> } }).happyDOM?.abort();
  // Dexie keeps its open databases here at run time (not in its types).
  for (const db of (Dexie as unknown as { connections?: Dexie[] }).connections ?? []) db.close();
  const fresh = new IDBFactory();
  globalThis.indexedDB = fresh;
  Dexie.dependencies.indexedDB = fresh;
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  document.head.replaceChildren();
  document.body.replaceChildren();
  document.title = '';
  history.replaceState(null, '', FIRST_ADDRESS);
}

/** Every timer set through the globals and not yet run or cleared: wrapped once per worker. */
type Timers = { timeouts: Set<ReturnType<typeof setTimeout>>; intervals: Set<ReturnType<typeof setInterval>> };
const TIMERS = Symbol.for('pwa-test-pending-timers');
const timers = ((globalThis as { [TIMERS]?: Timers })[TIMERS] ??= trackTimers());

function trackTimers(): Timers {
  const tracked: Timers = { timeouts: new Set(), intervals: new Set() };
  const { setTimeout: set, clearTimeout: clear, setInterval: every, clearInterval: stop } = globalThis;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = set(
      (...given: unknown[]) => {
        tracked.timeouts.delete(handle);
        callback(...given);
      },
      ms,
      ...args,
    );
    tracked.timeouts.add(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle?: ReturnType<typeof setTimeout>) => {
    if (handle !== undefined) tracked.timeouts.delete(handle);
    clear(handle);
  }) as typeof clearTimeout;
  globalThis.setInterval = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = every(callback, ms, ...args);
    tracked.intervals.add(handle);
    return handle;
  }) as typeof setInterval;
  globalThis.clearInterval = ((handle?: ReturnType<typeof setInterval>) => {
    if (handle !== undefined) tracked.intervals.delete(handle);
    stop(handle);
  }) as typeof clearInterval;
  return tracked;
}

function clearPendingTimers(): void {
  for (const handle of timers.timeouts) clearTimeout(handle);
  for (const handle of timers.intervals) clearInterval(handle);
}

const FIRST_ADDRESS = 'http://localhost:3000/';

/** The module graph of the worker (vitest's own state: its shape is checked, a change fails loudly). */
interface ModuleNode {
  promise?: unknown;
  exports?: unknown;
  evaluated: boolean;
  importers: Set<string>;
}
type WorkerState = { evaluatedModules?: { idToModuleMap?: Map<string, ModuleNode> } };

/** The app's and the API's modules are evaluated again when next imported; packages and vitest stay. */
function forgetAppModules(): void {
  const modules = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__?.evaluatedModules?.idToModuleMap;
  if (!(modules instanceof Map)) {
    throw new Error('pwa/src/test/setup.ts: vitest no longer exposes its module graph; run the pwa project with isolate: true');
  }
  for (const [id, node] of modules) {
    if (!ownSource(id)) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  }
}

const ownSource = (id: string) => !id.includes('/node_modules/') && /\/(pwa|edge-api)\/src\//.test(id);
