import { useEffect, useState, useSyncExternalStore, type DependencyList } from 'react';

/**
 * The device's database and sync engine, loaded after the first paint (decision 052): the frame of the
 * storefront and its public pages render from defaults first, then from the device once it is loaded.
 * This module imports neither Dexie nor the sync engine, only their types.
 */
export type Device = typeof import('./device-impl.ts');

let loading: Promise<Device> | undefined;
let loaded: Device | undefined;
const waiting = new Set<() => void>();

/** Loads the device module (once); resolves with it. */
export function loadDevice(): Promise<Device> {
  loading ??= import('./device-impl.ts').then((device) => {
    loaded = device;
    for (const listener of waiting) listener();
    return device;
  });
  return loading;
}

/** Calls `listener` once the device module has loaded; returns an unsubscribe. */
export function onDeviceLoaded(listener: () => void): () => void {
  waiting.add(listener);
  return () => waiting.delete(listener);
}

const current = () => loaded;

/** The device module once loaded (undefined before); asks for it after the first paint. */
export function useDevice(): Device | undefined {
  const device = useSyncExternalStore(onDeviceLoaded, current, current);
  useEffect(() => {
    if (!device) void loadDevice();
  }, [device]);
  return device;
}

/**
 * A live query on the device's database, like dexie-react-hooks' useLiveQuery: undefined until the
 * first answer (and until Dexie has loaded), then every change of what it read.
 */
export function useDeviceQuery<T>(query: (device: Device) => Promise<T> | T, deps: DependencyList): T | undefined {
  const [answer, setAnswer] = useState<{ value: T } | undefined>(undefined);
  useEffect(() => {
    let active = true;
    let subscription: { unsubscribe(): void } | undefined;
    void loadDevice().then((device) => {
      if (!active) return;
      subscription = device.liveQuery(() => query(device)).subscribe({
        next: (value) => setAnswer({ value }),
        error: (error: unknown) => console.warn('A query on the device failed', error),
      });
    });
    return () => {
      active = false;
      subscription?.unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, as useLiveQuery takes them
  }, deps);
  return answer?.value;
}
