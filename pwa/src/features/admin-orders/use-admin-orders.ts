import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AdminOrderPage, Order, OrderStats } from '../../../../edge-api/src/contract/orders.ts';
import { keepOnDevice } from '../../db/device-copy.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { isApiAnswer } from '../../lib/app-error.ts';
import { ordersQuery, pageOfOrders, type OrderFilters } from './order-filters.ts';
import { statsFromOrders } from './order-stats.ts';
import { useSyncStatus } from '../../db/sync-status.ts';

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

/** What the server said of one page: which orders, in which order, and how many match. The rows are kept on the device. */
type ServerPage = Omit<AdminOrderPage, 'orders'> & { ids: string[] };

/**
 * The order list. Online, the server finds the page (its search covers the whole history); the orders it
 * answers are kept on the device and read from there, so this device's queued changes and anything synced
 * since show on them. Offline or unreachable, the locally synced orders are read with the same rules.
 */
export function useOrdersPage(filters: OrderFilters, localOrders: Order[] | undefined): OrdersPageState {
  const db = useUserDb();
  const { online, lastSyncedAt } = useSyncStatus();
  const pendingIds = usePendingIds();
  const pendingKey = [...pendingIds].sort().join(',');
  const [reloads, setReloads] = useState(0);
  const [server, setServer] = useState<{ key: string; page?: ServerPage; error?: 'failed' | 'unreachable' }>();
  const query = ordersQuery(filters);
  const key = JSON.stringify(query);

  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    const request: Record<string, string> = JSON.parse(key);
    unwrap(api.admin.orders.$get({ query: request }))
      .then(async ({ orders, ...counts }) => {
        if (db) await keepOnDevice(db, { orders });
        if (!cancelled) setServer({ key, page: { ...counts, ids: orders.map((order) => order.id) } });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (isApiAnswer(error)) console.error('Failed to load orders', error);
        setServer((previous) => ({ key, page: previous?.key === key ? previous.page : undefined, error: isApiAnswer(error) ? 'failed' : 'unreachable' }));
      });
    return () => {
      cancelled = true;
    };
    // Refetched when a queued change settles or a sync lands, so the page shows what the server has.
  }, [online, key, reloads, lastSyncedAt, pendingKey, db]);

  const current = server?.key === key ? server : undefined;
  const idsKey = current?.page?.ids.join(',');
  // The page's orders as the device has them, in the server's order.
  const rows = useLiveQuery(
    async () => (db && current?.page ? (await db.orders.bulkGet(current.page.ids)).filter((order) => order !== undefined) : undefined),
    [db, idsKey],
  );

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  return useMemo<OrdersPageState>(() => {
    const useLocal = !online || server?.error === 'unreachable';
    if (useLocal) {
      return { page: localOrders ? pageOfOrders(localOrders, filters) : undefined, source: 'local', loading: localOrders === undefined, failed: false, reload };
    }
    const found = current?.page;
    const page: AdminOrderPage | undefined =
      found && rows
        ? {
            orders: rows,
            total: found.total,
            totalIsLowerBound: found.totalIsLowerBound,
            page: found.page,
            limit: found.limit,
            nextCursor: found.nextCursor,
            prevCursor: found.prevCursor,
          }
        : undefined;
    return { page, source: 'server', loading: !current || (!current.page && !current.error), failed: current?.error === 'failed', reload };
  }, [online, server, current, rows, localOrders, filters, reload]);
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
        if (!cancelled) setServer((previous) => ({ ...previous, unreachable: !isApiAnswer(error) }));
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
