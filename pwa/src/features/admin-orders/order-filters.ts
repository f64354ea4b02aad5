/**
 * The admin order list's filters (spec: status, paymentStatus, search, page, limit) and the rules the
 * server applies to them, repeated here so the offline list reads exactly like the online one.
 */
import {
  isOrderStatus,
  isPaymentStatus,
  orderPageSizes,
  type AdminOrderPage,
  type Order,
  type OrderStatus,
  type PaymentStatus,
} from '../../../../edge-api/src/contract/orders.ts';
import { isOrderAttention, needsAttention, type OrderAttention } from '../../../../edge-api/src/contract/order-attention.ts';

export interface OrderFilters {
  status: OrderStatus | '';
  paymentStatus: PaymentStatus | '';
  search: string;
  /** 'open': only orders with a problem report waiting for staff (decision 063). */
  report?: '' | 'open';
  /** The orders a bell item counts (decision 130): the same rule as the bell. */
  attention?: OrderAttention | '';
  page: number;
  limit: number;
  /** Where the page starts, as the server answered it (nextCursor/prevCursor, decision 185); none on page 1. */
  cursor?: string;
}

export const defaultFilters: OrderFilters = { status: '', paymentStatus: '', search: '', page: 1, limit: 10 };

/** The spec: changing any filter other than the page returns to page 1. */
export function changeFilters(current: OrderFilters, change: Partial<OrderFilters>): OrderFilters {
  const next = { ...current, ...change };
  const otherChanged = (Object.keys(change) as (keyof OrderFilters)[]).some((key) => key !== 'page' && key !== 'cursor' && change[key] !== current[key]);
  if (otherChanged) next.page = 1;
  // A cursor belongs to the page it was answered for: a new page or new filters leave it behind unless given.
  if (otherChanged || next.page === 1 || !('cursor' in change)) delete next.cursor;
  if (next.page !== 1 && change.cursor) next.cursor = change.cursor;
  return next;
}

/** Filters kept in the address bar, so a reload or the back button keeps the admin's place. */
export function filtersFromSearchParams(params: URLSearchParams): OrderFilters {
  const status = params.get('status') ?? '';
  const paymentStatus = params.get('paymentStatus') ?? '';
  const attention = params.get('attention');
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  const cursor = params.get('cursor');
  return {
    status: isOrderStatus(status) ? status : '',
    paymentStatus: isPaymentStatus(paymentStatus) ? paymentStatus : '',
    search: params.get('search') ?? '',
    ...(params.get('report') === 'open' ? { report: 'open' as const } : {}),
    ...(isOrderAttention(attention) ? { attention } : {}),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: (orderPageSizes as readonly number[]).includes(limit) ? limit : defaultFilters.limit,
    ...(cursor && page > 1 && /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? { cursor } : {}),
  };
}

export function filtersToSearchParams(filters: OrderFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.paymentStatus) params.set('paymentStatus', filters.paymentStatus);
  if (filters.search) params.set('search', filters.search);
  if (filters.report) params.set('report', filters.report);
  if (filters.attention) params.set('attention', filters.attention);
  if (filters.page !== 1) params.set('page', String(filters.page));
  if (filters.limit !== defaultFilters.limit) params.set('limit', String(filters.limit));
  if (filters.cursor && filters.page !== 1) params.set('cursor', filters.cursor);
  return params;
}

/** What decides which orders match: the filters without their page. */
type MatchFilters = Pick<OrderFilters, 'status' | 'paymentStatus' | 'search'> & Partial<Pick<OrderFilters, 'report' | 'attention'>>;

/** The filter part of a query, empty values omitted (spec section 7). */
function filterQuery(filters: MatchFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.report) query.report = filters.report;
  if (filters.attention) query.attention = filters.attention;
  if (filters.status) query.status = filters.status;
  if (filters.paymentStatus) query.paymentStatus = filters.paymentStatus;
  const search = filters.search.trim();
  if (search) query.search = search;
  return query;
}

/** The query of GET /api/admin/orders. */
export function ordersQuery(filters: OrderFilters): Record<string, string> {
  return { ...filterQuery(filters), page: String(filters.page), limit: String(filters.limit), ...(filters.cursor ? { cursor: filters.cursor } : {}) };
}

/** The CSV export of everything the filters match (every page, so no page or limit). */
export function exportCsvUrl(filters: MatchFilters): string {
  const params = new URLSearchParams(filterQuery(filters)).toString();
  return `/api/admin/orders/export.csv${params ? `?${params}` : ''}`;
}

/** The same match the server makes: one case-insensitive substring over id, title, email and name. */
export function matchesFilters(order: Order, filters: MatchFilters): boolean {
  if (filters.status && order.orderStatus !== filters.status) return false;
  if (filters.report && order.report?.status !== filters.report) return false;
  if (filters.paymentStatus && order.paymentStatus !== filters.paymentStatus) return false;
  if (filters.attention && !needsAttention(order, filters.attention)) return false;
  const term = filters.search.trim().toLowerCase();
  if (!term) return true;
  return `${order.id} ${order.title} ${order.userEmail} ${order.userName}`.toLowerCase().includes(term);
}

/** Newest first, ties by id: the server's order. */
export function compareOrders(a: Order, b: Order): number {
  const byDate = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (byDate !== 0 && !Number.isNaN(byDate)) return byDate;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** One page of the locally synced orders, read with the server's rules. */
export function pageOfOrders(orders: readonly Order[], filters: OrderFilters): AdminOrderPage {
  const matching = orders.filter((order) => matchesFilters(order, filters)).sort(compareOrders);
  const start = (filters.page - 1) * filters.limit;
  return { orders: matching.slice(start, start + filters.limit), total: matching.length, totalIsLowerBound: false, page: filters.page, limit: filters.limit };
}

/** The list's size as the server knows it: exact, '10,000+' past the count's cap, or 'many' when counting took too long. */
export function describeTotal(total: number, isLowerBound: boolean): string {
  if (!isLowerBound) return total.toLocaleString('en-US');
  return total >= 10_000 ? `${total.toLocaleString('en-US')}+` : 'many';
}

/** The spec leaves Next unbounded; the total is known (or proven to reach past this page), so it stops at the last page. */
export const hasNextPage = (page: number, limit: number, total: number) => page * limit < total;
export const lastPage = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));
