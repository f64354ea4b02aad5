import { useEffect, useId, useRef, useState } from 'react';
import { orderPageSizes, orderStatuses, paymentStatuses } from '../../../../edge-api/src/contract/orders.ts';
import { isOrderAttention, orderAttentionLabels, orderAttentions } from '../../../../edge-api/src/contract/order-attention.ts';
import { capitalize } from '../../lib/format.ts';
import type { OrderFilters } from './order-filters.ts';

const SEARCH_DELAY_MS = 300;

interface StatusSelectProps<T extends string> {
  id: string;
  label: string;
  /** The empty choice, which filters nothing. */
  allLabel: string;
  statuses: readonly T[];
  value: T | '';
  onChange: (value: T | '') => void;
}

function StatusSelect<T extends string>({ id, label, allLabel, statuses, value, onChange }: StatusSelectProps<T>) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={id} className="select w-full" value={value} onChange={(event) => onChange(event.target.value as T | '')}>
        <option value="">{allLabel}</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {capitalize(status)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The search field's text, sent once typing pauses (or at once on submit). */
function useDebouncedSearch(current: string, onChange: (change: Partial<OrderFilters>) => void) {
  const [search, setSearch] = useState(current);
  const sent = useRef(current);

  // The back button may change the search under the field; the field's own echo must not undo typing.
  useEffect(() => {
    if (current !== sent.current) {
      sent.current = current;
      setSearch(current);
    }
  }, [current]);

  useEffect(() => {
    if (search === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = search;
      onChange({ search });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, onChange]);

  const sendNow = () => {
    sent.current = search;
    onChange({ search });
  };
  return { search, setSearch, sendNow };
}

function MoreFilterSelects({ id, filters, onChange }: { id: string; filters: OrderFilters; onChange: (change: Partial<OrderFilters>) => void }) {
  return (
    <>
      <div className="col-span-2 sm:col-span-1">
        <label htmlFor={`${id}-report`} className="mb-1 block text-sm font-medium">
          Problem reports
        </label>
        <select
          id={`${id}-report`}
          className="select w-full"
          value={filters.report ?? ''}
          onChange={(event) => onChange({ report: event.target.value === 'open' ? 'open' : '' })}
        >
          <option value="">All orders</option>
          <option value="open">Reported problems</option>
        </select>
      </div>
      <div className="col-span-2 sm:col-span-1">
        <label htmlFor={`${id}-attention`} className="mb-1 block text-sm font-medium">
          Needs staff
        </label>
        <select
          id={`${id}-attention`}
          className="select w-full"
          value={filters.attention ?? ''}
          onChange={(event) => onChange({ attention: isOrderAttention(event.target.value) ? event.target.value : '' })}
        >
          <option value="">All orders</option>
          {orderAttentions.map((attention) => (
            <option key={attention} value={attention}>
              {orderAttentionLabels[attention]}
            </option>
          ))}
        </select>
      </div>
      <div className="col-span-2 sm:col-span-1">
        <label htmlFor={`${id}-limit`} className="mb-1 block text-sm font-medium">
          Per page
        </label>
        <select id={`${id}-limit`} className="select w-full" value={filters.limit} onChange={(event) => onChange({ limit: Number(event.target.value) })}>
          {orderPageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** Status, payment status, search (applied once typing pauses) and page size. */
export function OrderFiltersBar({ filters, onChange }: { filters: OrderFilters; onChange: (change: Partial<OrderFilters>) => void }) {
  const id = useId();
  const { search, setSearch, sendNow } = useDebouncedSearch(filters.search, onChange);

  return (
    <form
      role="search"
      aria-label="Filter orders"
      className="grid grid-cols-2 gap-3 rounded-box bg-base-100 p-4 shadow-sm sm:grid-cols-3 2xl:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto]"
      onSubmit={(event) => {
        event.preventDefault();
        sendNow();
      }}
    >
      <div className="col-span-2 sm:col-span-3 2xl:col-span-1">
        <label htmlFor={`${id}-search`} className="mb-1 block text-sm font-medium">
          Search
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className="input w-full"
          placeholder="Order ID, title, customer email or name..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <StatusSelect
        id={`${id}-status`}
        label="Order status"
        allLabel="All Status"
        statuses={orderStatuses}
        value={filters.status}
        onChange={(status) => onChange({ status })}
      />
      <StatusSelect
        id={`${id}-payment`}
        label="Payment status"
        allLabel="All Payments"
        statuses={paymentStatuses}
        value={filters.paymentStatus}
        onChange={(paymentStatus) => onChange({ paymentStatus })}
      />
      <MoreFilterSelects id={id} filters={filters} onChange={onChange} />
    </form>
  );
}
