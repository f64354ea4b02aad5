import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import {
  changeFilters,
  describeTotal,
  defaultFilters,
  exportCsvUrl,
  filtersFromSearchParams,
  filtersToSearchParams,
  hasNextPage,
  lastPage,
  matchesFilters,
  ordersQuery,
  pageOfOrders,
  type OrderFilters,
} from './order-filters.ts';

const onPage3: OrderFilters = { ...defaultFilters, page: 3 };

function order(fields: Partial<Order> & { id: string }): Order {
  return {
    productId: 'p',
    title: 'VPS Basic',
    description: '',
    category: 'vps',
    image: '',
    price: '10',
    deliveryTime: 'instant',
    userId: 'u1',
    userEmail: 'buyer@example.com',
    userName: 'Buyer',
    paymentStatus: 'pending',
    orderStatus: 'pending',
    orderDate: '2026-11-01T00:00:00.000Z',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    version: 1,
    ...fields,
  };
}

describe('changing filters', () => {
  it.each([
    ['status', { status: 'delivered' }],
    ['payment status', { paymentStatus: 'paid' }],
    ['search', { search: 'alice' }],
    ['page size', { limit: 25 }],
  ] as const)('returns to page 1 when the %s changes', (_name, change) => {
    expect(changeFilters(onPage3, change)).toEqual({ ...onPage3, ...change, page: 1 });
  });

  it('keeps the other filters when only the page changes', () => {
    const filtered: OrderFilters = { status: 'processing', paymentStatus: 'paid', search: 'x', page: 2, limit: 50 };
    expect(changeFilters(filtered, { page: 3 })).toEqual({ ...filtered, page: 3 });
  });

  it('keeps a cursor only with the page it was given for (decision 185)', () => {
    const deep: OrderFilters = { ...onPage3, cursor: 'abc' };
    expect(changeFilters(onPage3, { page: 4, cursor: 'next' })).toEqual({ ...onPage3, page: 4, cursor: 'next' });
    expect(changeFilters(deep, { page: 2, cursor: 'prev' })).toEqual({ ...onPage3, page: 2, cursor: 'prev' });
    // Page 1 is asked afresh; a page without a cursor, or new filters, leave the old one behind.
    expect(changeFilters(deep, { page: 1, cursor: 'prev' })).toEqual({ ...onPage3, page: 1 });
    expect(changeFilters(deep, { page: 4 })).toEqual({ ...onPage3, page: 4 });
    expect(changeFilters(deep, { status: 'delivered' })).not.toHaveProperty('cursor');
    expect(ordersQuery({ ...deep, status: 'pending' })).toEqual({ status: 'pending', page: '3', limit: '10', cursor: 'abc' });
    expect(ordersQuery(onPage3)).not.toHaveProperty('cursor');
  });

  it('stays on the page when a filter is set to the value it already has', () => {
    expect(changeFilters({ ...onPage3, status: 'processing' }, { status: 'processing' }).page).toBe(3);
  });
});

describe('filters in the address bar', () => {
  it('round-trips, leaving defaults out', () => {
    const filters: OrderFilters = { status: 'cancelled', paymentStatus: 'refunded', search: 'a b', page: 4, limit: 100 };
    expect(filtersFromSearchParams(filtersToSearchParams(filters))).toEqual(filters);
    expect(filtersToSearchParams(defaultFilters).toString()).toBe('');
  });

  it('keeps the cursor in the address bar past page 1 only, and only one the API could have answered', () => {
    const deep: OrderFilters = { ...onPage3, cursor: 'WyJhIiwi_-' };
    expect(filtersFromSearchParams(filtersToSearchParams(deep))).toEqual(deep);
    expect(filtersFromSearchParams(new URLSearchParams('cursor=WyJhIiwi'))).toEqual(defaultFilters);
    expect(filtersFromSearchParams(new URLSearchParams('page=2&cursor=a%20b'))).toEqual({ ...defaultFilters, page: 2 });
  });

  it('ignores values the screen does not offer', () => {
    expect(filtersFromSearchParams(new URLSearchParams('status=lost&paymentStatus=x&page=-2&limit=7'))).toEqual(defaultFilters);
  });
});

describe('request URLs', () => {
  it('asks the server for the page with empty filters omitted', () => {
    expect(ordersQuery({ ...defaultFilters, search: '  ' })).toEqual({ page: '1', limit: '10' });
    expect(ordersQuery({ status: 'pending', paymentStatus: '', search: ' bob ', page: 2, limit: 25 })).toEqual({
      status: 'pending',
      search: 'bob',
      page: '2',
      limit: '25',
    });
  });

  it('exports every page of what the filters match', () => {
    expect(exportCsvUrl(defaultFilters)).toBe('/api/admin/orders/export.csv');
    expect(exportCsvUrl({ status: 'delivered', paymentStatus: 'paid', search: 'a&b=c' })).toBe(
      '/api/admin/orders/export.csv?status=delivered&paymentStatus=paid&search=a%26b%3Dc',
    );
    const paged: OrderFilters = { ...onPage3, limit: 50 };
    expect(exportCsvUrl(paged)).not.toMatch(/page|limit/);
  });
});

describe('the offline list', () => {
  const orders = [
    order({ id: 'aaaa0001-0000-4000-8000-000000000001', title: 'Wise Account', createdAt: '2026-11-03T00:00:00.000Z' }),
    order({ id: 'aaaa0002-0000-4000-8000-000000000002', userEmail: 'Alice@Example.com', createdAt: '2026-11-05T00:00:00.000Z' }),
    order({ id: 'aaaa0003-0000-4000-8000-000000000003', userName: 'Bob Stone', orderStatus: 'delivered', paymentStatus: 'paid' }),
  ];

  it('searches id, title, customer email and name without regard to case, newest first', () => {
    const search = (term: string) => pageOfOrders(orders, { ...defaultFilters, search: term }).orders.map((o) => o.id.slice(-1));
    expect(search('')).toEqual(['2', '1', '3']);
    expect(search('WISE')).toEqual(['1']);
    expect(search('alice@')).toEqual(['2']);
    expect(search('bob st')).toEqual(['3']);
    expect(search('0003-0000')).toEqual(['3']);
    expect(search('nobody')).toEqual([]);
  });

  it('filters by order and payment status and pages with the total', () => {
    expect(pageOfOrders(orders, { ...defaultFilters, status: 'delivered' }).orders).toHaveLength(1);
    expect(pageOfOrders(orders, { ...defaultFilters, paymentStatus: 'pending' }).total).toBe(2);
    const second = pageOfOrders(orders, { ...defaultFilters, limit: 10, page: 2 });
    expect(second).toMatchObject({ orders: [], total: 3, page: 2 });
  });
});

describe('pagination', () => {
  it('stops Next at the last page', () => {
    expect(hasNextPage(1, 10, 10)).toBe(false);
    expect(hasNextPage(1, 10, 11)).toBe(true);
    expect(hasNextPage(2, 10, 11)).toBe(false);
    expect(lastPage(0, 10)).toBe(1);
    expect(lastPage(101, 25)).toBe(5);
  });
});

describe('describeTotal', () => {
  it('shows exact totals, the capped count with a plus, and "many" when counting gave up', () => {
    expect(describeTotal(1234, false)).toBe('1,234');
    expect(describeTotal(10_000, true)).toBe('10,000+');
    expect(describeTotal(21, true)).toBe('many');
  });
});

describe('the problem report filter (decision 063)', () => {
  it('reads and writes report=open, asks the server for it, and matches offline the same way', () => {
    const filters = filtersFromSearchParams(new URLSearchParams('report=open&page=2'));
    expect(filters.report).toBe('open');
    expect(filtersToSearchParams(filters).get('report')).toBe('open');
    expect(ordersQuery(filters).report).toBe('open');
    expect(filtersFromSearchParams(new URLSearchParams('report=closed')).report).toBeUndefined();
    const order = { id: 'o', title: 't', userEmail: 'e', userName: 'n', orderStatus: 'delivered', paymentStatus: 'paid' } as Order;
    expect(matchesFilters(order, { status: '', paymentStatus: '', search: '', report: 'open' })).toBe(false);
    expect(
      matchesFilters(
        { ...order, report: { status: 'open', reason: 'locked', note: '', reportedAt: '' } },
        { status: '', paymentStatus: '', search: '', report: 'open' },
      ),
    ).toBe(true);
    expect(
      matchesFilters(
        { ...order, report: { status: 'declined', reason: 'locked', note: '', reportedAt: '' } },
        { status: '', paymentStatus: '', search: '', report: 'open' },
      ),
    ).toBe(false);
  });
});
