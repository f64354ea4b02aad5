import type { User } from '../../../../edge-api/src/contract/users.ts';
import { isStockStatus, stockStatuses, type StockStatus, type WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';

export type StatusFilter = StockStatus | 'all';

export interface StockFilters {
  search: string;
  status: StatusFilter;
}

export type StockCounts = { total: number } & Record<StockStatus, number>;

export const UNKNOWN_USER = 'Unknown User';

/** How a user is named on stock screens: display name, else email. */
export const userName = (user: Pick<User, 'displayName' | 'email'>): string => user.displayName.trim() || user.email || UNKNOWN_USER;

/** The buyer's name, only for a sold stock (spec: Sold To); 'Unknown User' when the buyer is not known here. */
export function soldToName(stock: Pick<WiseStock, 'status' | 'soldTo'>, usersById: ReadonlyMap<string, User>): string | null {
  if (stock.status !== 'sold') return null;
  const buyer = stock.soldTo ? usersById.get(stock.soldTo) : undefined;
  return buyer ? userName(buyer) : UNKNOWN_USER;
}

export const hasActiveFilters = (filters: StockFilters): boolean => filters.search.trim() !== '' || filters.status !== 'all';

/**
 * Stocks whose account name, email, or buyer ("sold to") contains the search, case-insensitively, with
 * the chosen status.
 */
export function filterStocks(stocks: readonly WiseStock[], filters: StockFilters, usersById: ReadonlyMap<string, User>): WiseStock[] {
  const term = filters.search.trim().toLowerCase();
  return stocks.filter((stock) => {
    if (filters.status !== 'all' && stock.status !== filters.status) return false;
    if (!term) return true;
    const buyer = stock.status === 'sold' && stock.soldTo ? usersById.get(stock.soldTo) : undefined;
    const haystack = [stock.wiseName, stock.wiseEmail, soldToName(stock, usersById) ?? '', buyer?.email ?? ''];
    return haystack.some((text) => text.toLowerCase().includes(term));
  });
}

/** The seven count cards, over whatever list they are given (the screen passes the filtered one). */
export function countStocks(stocks: readonly WiseStock[]): StockCounts {
  const counts = { total: stocks.length } as StockCounts;
  for (const status of stockStatuses) counts[status] = 0;
  for (const stock of stocks) {
    if (isStockStatus(stock.status)) counts[stock.status] += 1;
  }
  return counts;
}

/** Newest first, as the list shows them. */
export const byNewest = (a: WiseStock, b: WiseStock): number => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
