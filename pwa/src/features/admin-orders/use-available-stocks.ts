import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo } from 'react';
import type { ServiceStockKind } from '../../../../edge-api/src/contract/service-stocks.ts';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { keepOnDevice } from '../../db/device-copy.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { api } from '../../lib/api-client.ts';
import { fetchAllPages } from '../../lib/list-pages.ts';

/**
 * The inventory accounts a delivery may use, read from the device: available, and with no change of
 * their own waiting (one picked for another delivery on this device is not offered). Online, the
 * server's list is kept on the device first, so a stock sold elsewhere disappears. `reloads` asks again.
 * Undefined while loading.
 */
export function useAvailableStocks(online: boolean, reloads: number): WiseStock[] | undefined {
  const db = useUserDb();
  const pendingIds = usePendingIds();
  const local = useLiveQuery(() => (db ? db.wiseStocks.where('status').equals('available').toArray() : []), [db]);

  useEffect(() => {
    if (!online || !db) return;
    fetchAllPages((args) => api['wise-stocks'].$get(args))
      .then((stocks) => keepOnDevice(db, { stocks }))
      .catch((error: unknown) => console.warn('Could not load Wise stocks from the server; using the synced ones', error));
  }, [online, reloads, db]);

  return useMemo(() => local?.filter((stock) => !pendingIds.has(stock.id)).sort((a, b) => a.wiseName.localeCompare(b.wiseName)), [local, pendingIds]);
}

/** The service's own stock of one kind as synced (decision 072), available to deliver; none for a kind no stock holds (a file). */
export function useOwnStockOfKind(serviceId: string, kind: ServiceStockKind | 'file') {
  const db = useUserDb();
  return useLiveQuery(
    async () =>
      db && kind !== 'file'
        ? (await db.serviceStocks.where('serviceId').equals(serviceId).toArray()).filter((item) => item.status === 'available' && item.kind === kind)
        : [],
    [db, serviceId, kind],
  );
}
