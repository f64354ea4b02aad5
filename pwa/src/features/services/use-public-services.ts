import { useMemo, useRef } from 'react';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { loadDevice, useDeviceQuery } from '../../db/device.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { usePublicSnapshot } from '../../lib/public-snapshot.tsx';

export type Loaded<T> = { state: 'loading' } | { state: 'error' } | { state: 'ready'; value: T };

/**
 * What a screen shows for data read from the local database: a thing found locally is shown at once;
 * nothing found is "loading" until the first sync has finished, and an error when that sync failed (or
 * cannot run offline) with nothing stored to fall back on.
 */
function useSettled<T>(found: T | undefined | null, isEmpty: boolean): Loaded<T | null> {
  const sync = useSyncStatus();
  if (found === undefined) return { state: 'loading' };
  if (!isEmpty) return { state: 'ready', value: found };
  if (sync.syncing) return { state: 'loading' };
  if (!sync.lastSyncedAt && (sync.lastError || !sync.online)) return { state: 'error' };
  if (!sync.lastSyncedAt) return { state: 'loading' };
  return { state: 'ready', value: found };
}

/**
 * Newest first. `createdAt` is an ISO 8601 time, whose order is its characters' order: compared as plain
 * strings, not with localeCompare, whose first call sets up the browser's collator (13–18 ms on this machine,
 * four times that on a phone), inside the hydration of /services (decision 070).
 */
const newestFirst = (a: Service, b: Service) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);

/**
 * Every service stored on this device, newest first. Until the device has them, those the page was
 * rendered with on the server (decision 053), so the list the HTML showed stays as it is. The device's
 * database loads after the first paint (decision 052): the public pages' first load carries no Dexie.
 */
export function usePublicServices(): Loaded<Service[]> {
  const snapshot = usePublicSnapshot();
  const services = useDeviceQuery(async (device) => (await device.getPublicDb().services.toArray()).sort(newestFirst), []);
  const settled = useSettled(services, services?.length === 0) as Loaded<Service[]>;
  const rendered = useMemo(() => (snapshot ? [...snapshot.services].sort(newestFirst) : null), [snapshot]);
  const shown = useRef<Loaded<Service[]> | null>(null);
  const next: Loaded<Service[]> = settled.state !== 'ready' && rendered ? { state: 'ready', value: rendered } : settled;
  // The device's copy of the rows on screen (the server's, then each sync's read) is the same list: the
  // screen keeps what it has, so neither the list nor a card renders again for it. On /services that
  // render came once the device had loaded and synced, inside Lighthouse's blocking-time window (decision 070).
  const previous = shown.current;
  if (previous?.state === 'ready' && next.state === 'ready' && sameRows(previous.value, next.value)) return previous;
  shown.current = next;
  return next;
}

/** The same services, each at the same version, in the same order. */
function sameRows(a: Service[], b: Service[]): boolean {
  return a === b || (a.length === b.length && a.every((service, index) => service.id === b[index]!.id && service.version === b[index]!.version));
}

/** One service by id; `null` once it is known not to exist. */
export function usePublicService(id: string): Loaded<Service | null> {
  const service = useDeviceQuery(async (device) => (await device.getPublicDb().services.get(id)) ?? null, [id]);
  return useSettled(service, service === null);
}

/** Asks the sync engine for the services again (the error state's retry). */
export function retryServices(): Promise<void> {
  return loadDevice().then((device) => device.getSyncEngine().syncNow());
}
