import { useMemo, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isStockStatus } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { usePendingIds } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { countStocks, filterStocks, hasActiveFilters, type StatusFilter } from './stock-filters.ts';
import { StockBatchesPanel, useStockBatches } from './stock-batches-panel.tsx';
import { ADD_STOCK_PATH, IMPORT_STOCK_PATH } from './stock-paths.ts';
import { statusLabel } from './stock-status.ts';
import { useStockUsers } from './use-stock-users.ts';
import { FETCH_FAILED_MESSAGE, useDeleteWiseStock, useWiseStocksCopy } from './use-wise-stocks.ts';
import { StockCountCards, StockFiltersBar } from './wise-stocks-toolbar.tsx';
import { WiseStocksTable } from './wise-stocks-table.tsx';

const readStatusFilter = (value: string | null): StatusFilter => (value && isStockStatus(value) ? value : 'all');

/** The search and status filter, kept in the address (`q`, `status`). */
function useStockFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const status = readStatusFilter(params.get('status'));
  const filters = useMemo(() => ({ search, status }), [search, status]);
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
  return { filters, setFilter };
}

function WiseStocksHeader({ canManage }: { canManage: boolean }) {
  return (
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
}

/** Wise Stocks Management (/dashboard/all-wise-stocks): the inventory as synced to this device. */
export function WiseStocksPage() {
  usePageTitle('Wise Stocks');
  const canManage = useAuthorization().can('stocks:manage');
  const pendingIds = usePendingIds();
  const { online, syncing } = useSyncStatus();
  const { usersById } = useStockUsers(online);
  const batches = useStockBatches(online);
  const batchLabels = useMemo(() => new Map(batches.batches?.map((batch) => [batch.id, batch.label]) ?? []), [batches.batches]);
  const { filters, setFilter } = useStockFilters();
  const { local, refreshing, fetchFailed, refresh } = useWiseStocksCopy(batches.reload);
  const { deleting, remove } = useDeleteWiseStock();

  const filtered = useMemo(() => (local ? filterStocks(local.stocks, filters, usersById) : []), [local, filters, usersById]);
  const counts = useMemo(() => countStocks(filtered), [filtered]);
  const page = (body: ReactNode) => (
    <div className="space-y-6">
      <WiseStocksHeader canManage={canManage} />
      {body}
    </div>
  );

  if (!local || (!local.synced && local.stocks.length === 0 && !fetchFailed && (syncing || online))) {
    return page(<LoadingState text="Loading Wise stocks..." />);
  }
  if (!local.synced && local.stocks.length === 0 && (fetchFailed || !online)) {
    return page(
      <ErrorState
        title={FETCH_FAILED_MESSAGE}
        message="The stock list could not be loaded. Check your connection and try again."
        onRetry={() => void refresh()}
      />,
    );
  }

  const filtering = hasActiveFilters(filters);
  return page(
    <>
      <StockCountCards counts={counts} />
      <StockFiltersBar filters={filters} setFilter={setFilter} refreshing={refreshing} onRefresh={() => void refresh()} canManage={canManage} online={online} />
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
        <WiseStocksTable
          stocks={filtered}
          usersById={usersById}
          batchLabels={batchLabels}
          pendingIds={pendingIds}
          canManage={canManage}
          deleting={deleting}
          onDelete={(stock) => void remove(stock)}
        />
      )}
      <p className="text-sm text-base-content/70" aria-live="polite">
        Showing {filtered.length} of {local.stocks.length} Wise stocks
        {filters.search.trim() && <> matching “{filters.search.trim()}”</>}
        {filters.status !== 'all' && <> with status {statusLabel(filters.status)}</>}
      </p>
      <StockBatchesPanel batches={batches.batches} failed={batches.failed} canManage={canManage} onChanged={batches.replace} more={batches} />
    </>,
  );
}
