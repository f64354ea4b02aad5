import type { OutboxEntry } from '../../db/local-db.ts';
import { dismissFailed, retryFailed } from '../../db/mutations.ts';
import { describeTotal, hasNextPage, lastPage, type OrderFilters } from './order-filters.ts';
import { describeChange } from './outbox-change.ts';

/** The header's sync line: never "synced" while a change waits or was refused. */
function syncSummary(pending: number, refused: number): string {
  const count = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;
  const parts = [pending > 0 ? `${count(pending)} waiting to sync` : '', refused > 0 ? `${count(refused)} refused` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'All changes synced';
}

export interface OrdersHeaderProps {
  online: boolean;
  pendingCount: number;
  refusedCount: number;
  exporting: boolean;
  onRefresh: () => void;
  onExport: () => void;
}

export function OrdersHeader({ online, pendingCount, refusedCount, exporting, onRefresh, onExport }: OrdersHeaderProps) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold">Admin Order Management</h1>
        <p className="text-base-content/70">Process payments, deliver credentials and track every order.</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {!online && <span className="badge badge-warning">Offline</span>}
        <p role="status" aria-live="polite" className="text-sm">
          {syncSummary(pendingCount, refusedCount)}
        </p>
        <button type="button" className="btn btn-outline btn-sm" onClick={onRefresh} disabled={!online}>
          Refresh
        </button>
        <button type="button" className="btn btn-primary btn-sm" onClick={onExport} disabled={!online || exporting}>
          {exporting && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Export
        </button>
      </div>
    </header>
  );
}

/** The order changes the server refused, each to retry or dismiss. */
export function RefusedChanges({ entries, userId }: { entries: OutboxEntry[]; userId: string }) {
  if (entries.length === 0) return null;
  return (
    <section role="alert" aria-labelledby="failed-changes-heading" className="alert alert-error flex-col items-stretch">
      <h2 id="failed-changes-heading" className="font-semibold">
        The server refused {entries.length === 1 ? 'a change' : `${entries.length} changes`} made on this device
      </h2>
      <ul className="space-y-2">
        {entries.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 rounded-box bg-base-100 p-2 text-base-content">
            <span>
              <strong>{describeChange(entry)}</strong>: {entry.error ?? 'refused by the server'}
            </span>
            <span className="flex gap-2">
              <button type="button" className="btn btn-sm" onClick={() => void retryFailed(userId, entry.id)}>
                Retry
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => void dismissFailed(userId, entry.id)}>
                Dismiss
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface OrdersPaginationProps {
  filters: OrderFilters;
  total: number;
  totalIsLowerBound: boolean;
  /** The server's cursors either side of the page (absent for the orders on this device, which page by number). */
  nextCursor?: string;
  prevCursor?: string;
  /** Online the server answered the page: Next follows its cursor, and there is a next page only when it says so. */
  byCursor: boolean;
  onPage: (page: number, cursor?: string) => void;
}

export function OrdersPagination({ filters, total, totalIsLowerBound, nextCursor, prevCursor, byCursor, onPage }: OrdersPaginationProps) {
  const hasNext = byCursor ? nextCursor !== undefined : hasNextPage(filters.page, filters.limit, total);
  // Page 1 is always asked afresh (the newest orders), never by a cursor.
  const previous = () => onPage(filters.page - 1, filters.page - 1 > 1 ? prevCursor : undefined);
  const firstShown = total === 0 ? 0 : (filters.page - 1) * filters.limit + 1;
  const lastShown = Math.min(total, filters.page * filters.limit);
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-base-content/70">
        Showing {firstShown}–{lastShown} of {describeTotal(total, totalIsLowerBound)} orders
      </p>
      <div className="join">
        <button type="button" className="btn join-item btn-sm" disabled={filters.page <= 1} onClick={previous}>
          Previous
        </button>
        <span className="join-item flex items-center border border-base-300 px-3 text-sm" aria-current="page">
          Page {filters.page}
          {totalIsLowerBound ? '' : ` of ${lastPage(total, filters.limit)}`}
        </span>
        <button type="button" className="btn join-item btn-sm" disabled={!hasNext} onClick={() => onPage(filters.page + 1, nextCursor)}>
          Next
        </button>
      </div>
    </nav>
  );
}
