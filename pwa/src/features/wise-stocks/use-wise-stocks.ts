import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { useToast } from '../../components/toast.tsx';
import { forgetOnDevice } from '../../db/device-copy.ts';
import { useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { byNewest } from './stock-filters.ts';
import { statusLabel } from './stock-status.ts';

export const FETCH_FAILED_MESSAGE = 'Failed to fetch Wise stocks';
export const DELETE_FAILED_MESSAGE = 'Failed to delete Wise stock';
export const DELETED_MESSAGE = 'Wise stock has been deleted.';

/**
 * The Wise stocks of this device's copy, newest first (undefined while loading), synced on arrival;
 * `refresh` syncs again along with `alsoReload` (the batches).
 */
export function useWiseStocksCopy(alsoReload: () => Promise<unknown>) {
  const db = useUserDb();
  const toast = useToast();
  const [refreshing, setRefreshing] = useState(false);
  const [fetchFailed, setFetchFailed] = useState(false);

  const local = useLiveQuery(async () => {
    if (!db) return { stocks: [] as WiseStock[], synced: false };
    const [stocks, cursor] = await Promise.all([db.wiseStocks.toArray(), db.meta.get('cursor')]);
    return { stocks: stocks.sort(byNewest), synced: cursor !== undefined };
  }, [db]);

  // The device copy shows at once; a sync on arrival brings it up to date.
  useEffect(() => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
    let cancelled = false;
    requestSync().catch((error: unknown) => {
      console.warn(FETCH_FAILED_MESSAGE, error);
      if (!cancelled) setFetchFailed(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([requestSync(), alsoReload()]);
      setFetchFailed(false);
    } catch (error) {
      console.warn(FETCH_FAILED_MESSAGE, error);
      setFetchFailed(true);
      toast.error(FETCH_FAILED_MESSAGE);
    } finally {
      setRefreshing(false);
    }
  };

  return { local, refreshing, fetchFailed, refresh };
}

/** Deletes a stock once confirmed, on the server and in the device copy; `deleting` is its id meanwhile. */
export function useDeleteWiseStock() {
  const db = useUserDb();
  const toast = useToast();
  const confirm = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);

  const remove = async (stock: WiseStock) => {
    const confirmed = await confirm({
      title: 'Are you sure?',
      subject: [`Wise stock of ${stock.wiseName}`, `${stock.wiseEmail} · ${statusLabel(stock.status)}`],
      text: "You won't be able to revert this!",
      confirmLabel: 'Yes, delete it!',
      danger: true,
    });
    if (!confirmed) return;
    setDeleting(stock.id);
    try {
      try {
        await unwrap(api['wise-stocks'][':id'].$delete({ param: { id: stock.id } }));
      } catch (error) {
        // Already gone on the server: the device copy just goes too.
        if (!hasCode(error, 'not_found')) throw error;
      }
      if (db) await forgetOnDevice(db, { stocks: [stock.id] });
      toast.success(DELETED_MESSAGE);
    } catch (error) {
      console.error('Deleting a Wise stock failed', error);
      toast.error(DELETE_FAILED_MESSAGE);
    } finally {
      setDeleting(null);
    }
  };

  return { deleting, remove };
}
