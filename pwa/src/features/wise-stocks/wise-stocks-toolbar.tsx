import { useId } from 'react';
import { stockStatuses } from '../../../../edge-api/src/contract/wise-stocks.ts';
import type { StatusFilter, StockCounts } from './stock-filters.ts';
import { StockExport } from './stock-export.tsx';
import { statusLabel } from './stock-status.ts';

const countCards: { key: keyof StockCounts; label: string; tone: string }[] = [
  { key: 'total', label: 'Total', tone: 'border-l-primary' },
  { key: 'available', label: 'Available', tone: 'border-l-success' },
  { key: 'sold', label: 'Sold', tone: 'border-l-info' },
  { key: 'active', label: 'Active', tone: 'border-l-primary' },
  { key: 'suspended', label: 'Suspended', tone: 'border-l-warning' },
  { key: 'disabled', label: 'Disabled', tone: 'border-l-error' },
  { key: 'used', label: 'Used', tone: 'border-l-neutral' },
];

/** The counts of the stocks shown, one card per status. */
export function StockCountCards({ counts }: { counts: StockCounts }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="sr-only">
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
  );
}

export interface StockFiltersBarProps {
  filters: { search: string; status: StatusFilter };
  setFilter: (key: 'q' | 'status', value: string) => void;
  refreshing: boolean;
  onRefresh: () => void;
  canManage: boolean;
  online: boolean;
}

/** Search, status filter, Refresh and (for managers) the export. */
export function StockFiltersBar({ filters, setFilter, refreshing, onRefresh, canManage, online }: StockFiltersBarProps) {
  const ids = { search: useId(), status: useId() };
  return (
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
      <button type="button" className="btn" onClick={onRefresh} disabled={refreshing} aria-busy={refreshing || undefined}>
        {refreshing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        Refresh
      </button>
      {canManage && <StockExport status={filters.status} online={online} />}
    </div>
  );
}
