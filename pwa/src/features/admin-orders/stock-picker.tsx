import { useId, useState } from 'react';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { matchingStocks } from './stock-search.ts';

const STOCK_MATCHES_SHOWN = 6;

export interface StockPickerProps {
  /** Undefined while loading. */
  stocks: WiseStock[] | undefined;
  picked: WiseStock | null;
  onPick: (stock: WiseStock) => void;
  onTypeInstead: () => void;
}

/** 'Deliver from stock': search the available inventory accounts by name or email, and use one. */
export function StockPicker({ stocks, picked, onPick, onTypeInstead }: StockPickerProps) {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const shown = stocks ? matchingStocks(stocks, search).slice(0, STOCK_MATCHES_SHOWN) : [];

  return (
    <section aria-labelledby={`${searchId}-heading`} className="mb-4 rounded-box border border-base-300 p-3">
      <h3 id={`${searchId}-heading`} className="mb-2 font-semibold">
        Deliver from stock
      </h3>
      {picked ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm">
            Using stock account <strong>{picked.wiseName}</strong> ({picked.wiseEmail})
          </p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onTypeInstead}>
            Type credentials instead
          </button>
        </div>
      ) : (
        <>
          <label htmlFor={searchId} className="mb-1 block text-sm font-medium">
            Search available accounts by name or email
          </label>
          <input
            id={searchId}
            type="search"
            className="input input-sm w-full"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name or email"
          />
          {stocks === undefined ? (
            <p className="mt-2 text-sm text-base-content/70">Loading stock...</p>
          ) : shown.length === 0 ? (
            <p className="mt-2 text-sm text-base-content/70">No available stock accounts{search.trim() ? ' match this search' : ''}.</p>
          ) : (
            <ul className="mt-2 divide-y divide-base-200" aria-label="Available stock accounts">
              {shown.map((candidate) => (
                <li key={candidate.id} className="flex items-center justify-between gap-2 py-1.5">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{candidate.wiseName}</span> <span className="break-all text-base-content/70">{candidate.wiseEmail}</span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-outline btn-xs"
                    aria-label={`Use stock account ${candidate.wiseName} (${candidate.wiseEmail})`}
                    onClick={() => onPick(candidate)}
                  >
                    Use
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
