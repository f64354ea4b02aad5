import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';

/** Available inventory accounts whose name or email contains the search, case-insensitively. */
export function matchingStocks(stocks: readonly WiseStock[], search: string): WiseStock[] {
  const term = search.trim().toLowerCase();
  return stocks.filter((stock) => !term || stock.wiseName.toLowerCase().includes(term) || stock.wiseEmail.toLowerCase().includes(term));
}
