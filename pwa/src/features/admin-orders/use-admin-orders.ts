import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AdminOrderPage, Order, OrderStats } from '../../../../edge-api/src/contract.ts';
import { keepOnDevice } from '../../db/device-copy.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-engine.ts';
import { api, ApiRequestError, unwrap } from '../../lib/api-client.ts';
import { ordersQuery, pageOfOrders, type OrderFilters } from './order-filters.ts';
import { statsFromOrders } from './order-stats.ts';

export type OrdersSource = 'server' | 'local';

export interface OrdersPageState {
  /** Undefined while the first answer is awaited (not "no orders"). */
  page: AdminOrderPage | undefined;
  source: OrdersSource;
  loading: boolean;
  /** The server answered with an error: 'Failed to load orders. Please try again.' */
  failed: boolean;
  reload: () => void;
}

/** Every order synced to this device (the staff working set plus pages seen); undefined while loading. */
export function useLocalOrders(): Order[] | undefined {
  const db = useUserDb();
  return useLiveQuery(async () => (db ? db.orders.toArray() : undefined), [db]);
}

/**
 * The order list: online, the server's page (search covers the whole history) with this device's queued
 * changes laid over it; offline or unreachable, the locally synced orders read with the same rules.
 */
export function useOrdersPage(filters: OrderFilters, localOrders: Order[] | undefined): OrdersPageState {
  const db = useUserDb();
  const { online, lastSyncedAt } = useSyncStatus();
  const pendingIds = usePendingIds();
  const pendingKey = [...pendingIds].sort().join(',');
  const [reloads, setReloads] = useState(0);
  const [server, setServer] = useState<{ key: string; page?: AdminOrderPage; error?: 'failed' | 'unreachable' }>();
  const query = ordersQuery(filters);
  const key = JSON.stringify(query);

  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    const request: Record<string, string> = JSON.parse(key);
    unwrap(api.admin.orders.$get({ query: request })).then(
      (page) => {
        if (cancelled) return;
        setServer({ key, page });
        if (db) keepOnDevice(db, { orders: page.orders }).catch((error: unknown) => console.warn('Could not keep the orders page on this device', error));
      },
      (error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiRequestError) console.error('Failed to load orders', error);
        setServer((previous) => ({ key, page: previous?.key === key ? previous.page : undefined, error: error instanceof ApiRequestError ? 'failed' : 'unreachable' }));
      },
    );
    return () => {
      cancelled = true;
    };
    // Refetched when a queued change settles or a sync lands, so the page shows what the server has.
  }, [online, key, reloads, lastSyncedAt, pendingKey, db]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  return useMemo<OrdersPageState>(() => {
    const useLocal = !online || server?.error === 'unreachable';
    if (useLocal) {
      return { page: localOrders ? pageOfOrders(localOrders, filters) : undefined, source: 'local', loading: localOrders === undefined, failed: false, reload };
    }
    const current = server?.key === key ? server : undefined;
    let page = current?.page;
    if (page && localOrders) {
      // Queued changes show over the page, and so does anything synced since the page was fetched.
      const localById = new Map(localOrders.map((order) => [order.id, order]));
      page = {
        ...page,
        orders: page.orders.map((order) => {
          const local = localById.get(order.id);
          return local && (pendingIds.has(order.id) || local.version > order.version) ? local : order;
        }),
      };
    }
    return { page, source: 'server', loading: !current || (!current.page && !current.error), failed: current?.error === 'failed', reload };
  }, [online, server, key, localOrders, filters, pendingIds, reload]);
}

/** The stats cards and chart: the server's figures online; offline, those of the orders on this device. */
export function useOrderStats(localOrders: Order[] | undefined): { stats: OrderStats | undefined; local: boolean } {
  const { online, lastSyncedAt } = useSyncStatus();
  const pendingIds = usePendingIds();
  const pendingKey = [...pendingIds].sort().join(',');
  const [server, setServer] = useState<{ stats?: OrderStats; unreachable: boolean }>({ unreachable: false });

  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    unwrap(api.admin.orders.stats.$get()).then(
      (stats) => {
        if (!cancelled) setServer({ stats, unreachable: false });
      },
      (error: unknown) => {
        // Spec section 8: a stats failure is only logged.
        console.error('Failed to load order stats', error);
        if (!cancelled) setServer((previous) => ({ ...previous, unreachable: !(error instanceof ApiRequestError) }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [online, lastSyncedAt, pendingKey]);

  const local = !online || (server.unreachable && !server.stats);
  const localStats = useMemo(() => (local && localOrders ? statsFromOrders(localOrders, new Date()) : undefined), [local, localOrders]);
  return local ? { stats: localStats, local: true } : { stats: server.stats, local: false };
}
