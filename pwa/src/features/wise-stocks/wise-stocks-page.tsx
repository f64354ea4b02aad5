import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isStockStatus, stockStatuses, type WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { MaskedSecret } from '../../components/masked-secret.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { CellLabel, stacked } from '../../components/stacked-table.tsx';
import { useToast } from '../../components/toast.tsx';
import { forgetOnDevice } from '../../db/device-copy.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { formatDateShort } from '../../lib/format.ts';
import { byNewest, countStocks, filterStocks, hasActiveFilters, soldToName, type StatusFilter, type StockCounts } from './stock-filters.ts';
import { StockBatchesPanel, useStockBatches } from './stock-batches-panel.tsx';
import { StockExport } from './stock-export.tsx';
import { ADD_STOCK_PATH, IMPORT_STOCK_PATH, stockDetailsPath } from './stock-paths.ts';
import { statusBadgeClass, statusLabel } from './stock-status.ts';
import { useStockUsers } from './use-stock-users.ts';
import { revealFor } from './reveal-password.ts';

export const FETCH_FAILED_MESSAGE = 'Failed to fetch Wise stocks';
export const DELETE_FAILED_MESSAGE = 'Failed to delete Wise stock';
export const DELETED_MESSAGE = 'Wise stock has been deleted.';

const countCards: { key: keyof StockCounts; label: string; tone: string }[] = [
  { key: 'total', label: 'Total', tone: 'border-l-primary' },
  { key: 'available', label: 'Available', tone: 'border-l-success' },
  { key: 'sold', label: 'Sold', tone: 'border-l-info' },
  { key: 'active', label: 'Active', tone: 'border-l-primary' },
  { key: 'suspended', label: 'Suspended', tone: 'border-l-warning' },
  { key: 'disabled', label: 'Disabled', tone: 'border-l-error' },
  { key: 'used', label: 'Used', tone: 'border-l-neutral' },
];

const readStatusFilter = (value: string | null): StatusFilter => (value && isStockStatus(value) ? value : 'all');

/** Wise Stocks Management (/dashboard/all-wise-stocks): the inventory as synced to this device. */
export function WiseStocksPage() {
  usePageTitle('Wise Stocks');
  const canManage = useAuthorization().can('stocks:manage');
  const toast = useToast();
  const confirm = useConfirm();
  const db = useUserDb();
  const pendingIds = usePendingIds();
  const { online, syncing } = useSyncStatus();
  const { usersById } = useStockUsers(online);
  const batches = useStockBatches(online);
  const batchLabels = useMemo(() => new Map(batches.batches?.map((batch) => [batch.id, batch.label]) ?? []), [batches.batches]);
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const status = readStatusFilter(params.get('status'));
  const filters = useMemo(() => ({ search, status }), [search, status]);
  const [refreshing, setRefreshing] = useState(false);
  const [fetchFailed, setFetchFailed] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const ids = { search: useId(), status: useId(), counts: useId() };

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

  const filtered = useMemo(() => (local ? filterStocks(local.stocks, filters, usersById) : []), [local, filters, usersById]);
  const counts = useMemo(() => countStocks(filtered), [filtered]);

  const setFilter = (key: 'q' | 'status', value: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && value !== 'all') next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  };

  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([requestSync(), batches.reload()]);
      setFetchFailed(false);
    } catch (error) {
      console.warn(FETCH_FAILED_MESSAGE, error);
      setFetchFailed(true);
      toast.error(FETCH_FAILED_MESSAGE);
    } finally {
      setRefreshing(false);
    }
  };

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

  const header = (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold">Wise Stocks Management</h1>
        <p className="text-base-content/70">Every Wise account in stock, who added it and who bought it.</p>
      </div>
      {canManage && (
        <div className="flex flex-wrap gap-2">
          <Link to={IMPORT_STOCK_PATH} className="btn btn-outline">
            Import Stock
          </Link>
          <Link to={ADD_STOCK_PATH} className="btn btn-primary">
            <span aria-hidden="true">+</span> Add Wise Stock
          </Link>
        </div>
      )}
    </header>
  );

  if (!local || (!local.synced && local.stocks.length === 0 && !fetchFailed && (syncing || online))) {
    return (
      <div className="space-y-6">
        {header}
        <LoadingState text="Loading Wise stocks..." />
      </div>
    );
  }
  if (!local.synced && local.stocks.length === 0 && (fetchFailed || !online)) {
    return (
      <div className="space-y-6">
        {header}
        <ErrorState title={FETCH_FAILED_MESSAGE} message="The stock list could not be loaded. Check your connection and try again." onRetry={() => void refresh()} />
      </div>
    );
  }

  const filtering = hasActiveFilters(filters);

  return (
    <div className="space-y-6">
      {header}

      <section aria-labelledby={ids.counts}>
        <h2 id={ids.counts} className="sr-only">
          Stock counts
        </h2>
        <dl className="grid grid-cols-3 gap-2 sm:grid-cols-4 sm:gap-3 xl:grid-cols-7">
          {countCards.map((card) => (
            <div key={card.key} className={`rounded-box border-l-4 bg-base-100 p-3 shadow-sm sm:p-4 ${card.tone}`}>
              <dt className="text-sm text-base-content/70">{card.label}</dt>
              <dd className="text-xl font-bold sm:text-2xl">{counts[card.key]}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="flex flex-wrap items-end gap-3 rounded-box bg-base-100 p-4 shadow-sm">
        <div className="min-w-60 flex-1">
          <label htmlFor={ids.search} className="label mb-1 block text-sm font-medium text-base-content">
            Search
          </label>
          <input
            id={ids.search}
            type="search"
            className="input w-full"
            placeholder="Search by name, email, or sold to..."
            value={filters.search}
            onChange={(event) => setFilter('q', event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={ids.status} className="label mb-1 block text-sm font-medium text-base-content">
            Status
          </label>
          <select id={ids.status} className="select" value={filters.status} onChange={(event) => setFilter('status', event.target.value)}>
            <option value="all">All Status</option>
            {stockStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn" onClick={() => void refresh()} disabled={refreshing} aria-busy={refreshing || undefined}>
          {refreshing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Refresh
        </button>
        {canManage && <StockExport status={filters.status} online={online} />}
      </div>

      {fetchFailed && (
        <div role="alert" className="alert alert-warning">
          <span>
            <strong>{FETCH_FAILED_MESSAGE}.</strong> Showing the copy saved on this device.
          </span>
        </div>
      )}

      {filtered.length === 0 ? (
        <EmptyState
          title="No Wise stocks found"
          text={filtering ? 'Try adjusting your search or filter criteria' : 'Add your first Wise stock to get started'}
          action={
            !filtering && canManage ? (
              <Link to={ADD_STOCK_PATH} className="btn btn-primary">
                Add Wise Stock
              </Link>
            ) : undefined
          }
        />
      ) : (
        <div className={stacked.frame}>
          <table className={`table ${stacked.table}`} role="table">
            <caption className="sr-only">Wise stocks</caption>
            <thead className={stacked.head} role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">Wise Account</th>
                <th scope="col" role="columnheader">Added By</th>
                <th scope="col" role="columnheader">Sold To</th>
                <th scope="col" role="columnheader">Status</th>
                <th scope="col" role="columnheader">Date Added</th>
                <th scope="col" role="columnheader">Actions</th>
              </tr>
            </thead>
            <tbody className={stacked.body} role="rowgroup">
              {filtered.map((stock) => {
                const buyer = soldToName(stock, usersById);
                return (
                  <tr key={stock.id} role="row" className={`${stacked.row} grid-cols-2 @xl:grid-cols-4`}>
                    <td role="cell" className={`${stacked.cell} col-span-full`}>
                      <div className="font-semibold">{stock.wiseName}</div>
                      <div className="text-sm break-all text-base-content/80">{stock.wiseEmail}</div>
                      <div className="text-sm">
                        <span className="text-base-content/70">Password: </span>
                        {stock.wisePasswordUnreadable ? (
                          'cannot be read (wrong data key)'
                        ) : (
                          <MaskedSecret label={`password of ${stock.wiseName}`} value={stock.wisePassword} reveal={revealFor(stock)} />
                        )}
                      </div>
                      {stock.batchId && batchLabels.has(stock.batchId) && (
                        <div className="text-xs text-base-content/70">Batch: {batchLabels.get(stock.batchId)}</div>
                      )}
                    </td>
                    <td role="cell" className={stacked.cell}>
                      <CellLabel>Added By</CellLabel>
                      <div>{stock.userName}</div>
                      {stock.userEmail && <div className="text-sm break-all text-base-content/70">{stock.userEmail}</div>}
                    </td>
                    <td role="cell" className={stacked.cell}>
                      <CellLabel>Sold To</CellLabel>
                      {buyer ?? <span className="text-base-content/70">—</span>}
                    </td>
                    <td role="cell" className={stacked.cell}>
                      <CellLabel>Status</CellLabel>
                      <div className="flex flex-wrap items-center gap-1">
                        <span className={statusBadgeClass(stock.status)}>{statusLabel(stock.status)}</span>
                        {pendingIds.has(stock.id) && <span className="badge badge-outline badge-sm">Pending sync</span>}
                      </div>
                    </td>
                    <td role="cell" className={stacked.cell}>
                      <CellLabel>Date Added</CellLabel>
                      {formatDateShort(stock.createdAt)}
                    </td>
                    <td role="cell" className={`${stacked.cell} col-span-full`}>
                      <div className="flex flex-wrap gap-2">
                        <Link to={stockDetailsPath(stock.id)} className="btn btn-sm btn-outline" aria-label={`View Details of ${stock.wiseName}`}>
                          View Details
                        </Link>
                        {canManage && (
                          <button
                            type="button"
                            className="btn btn-sm btn-error"
                            title="Delete Stock"
                            aria-label={`Delete Stock ${stock.wiseName}`}
                            onClick={() => void remove(stock)}
                            disabled={deleting === stock.id}
                          >
                            Delete Stock
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <p className="text-sm text-base-content/70" aria-live="polite">
        Showing {filtered.length} of {local.stocks.length} Wise stocks
        {filters.search.trim() && <> matching “{filters.search.trim()}”</>}
        {filters.status !== 'all' && <> with status {statusLabel(filters.status)}</>}
      </p>

      <StockBatchesPanel batches={batches.batches} failed={batches.failed} canManage={canManage} onChanged={batches.replace} />
    </div>
  );
}
