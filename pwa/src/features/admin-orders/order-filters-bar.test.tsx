import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeFilters, defaultFilters, type OrderFilters } from './order-filters.ts';
import { OrderFiltersBar } from './order-filters-bar.tsx';

function Screen({ initial }: { initial: OrderFilters }) {
  const [filters, setFilters] = useState(initial);
  return (
    <>
      <OrderFiltersBar filters={filters} onChange={(change) => setFilters((current) => changeFilters(current, change))} />
      <output data-testid="filters">{JSON.stringify(filters)}</output>
      <button type="button" onClick={() => setFilters((current) => changeFilters(current, { page: current.page + 1 }))}>
        Next
      </button>
    </>
  );
}

const shown = (): OrderFilters => JSON.parse(screen.getByTestId('filters').textContent!);

afterEach(cleanup);

describe('order filters bar', () => {
  it('returns to page 1 when the status, payment status or page size changes', () => {
    render(<Screen initial={{ ...defaultFilters, page: 3 }} />);
    fireEvent.change(screen.getByLabelText('Order status'), { target: { value: 'delivered' } });
    expect(shown()).toMatchObject({ status: 'delivered', page: 1 });

    fireEvent.click(screen.getByText('Next'));
    expect(shown().page).toBe(2);
    fireEvent.change(screen.getByLabelText('Payment status'), { target: { value: 'refunded' } });
    expect(shown()).toMatchObject({ status: 'delivered', paymentStatus: 'refunded', page: 1 });

    fireEvent.click(screen.getByText('Next'));
    fireEvent.change(screen.getByLabelText('Per page'), { target: { value: '50' } });
    expect(shown()).toMatchObject({ limit: 50, page: 1 });
  });

  it('applies the search once typing pauses, back on page 1', async () => {
    render(<Screen initial={{ ...defaultFilters, page: 4 }} />);
    const search = screen.getByLabelText('Search');
    fireEvent.change(search, { target: { value: 'alice' } });
    expect(shown().page).toBe(4);
    await waitFor(() => expect(shown()).toMatchObject({ search: 'alice', page: 1 }));
    expect((search as HTMLInputElement).value).toBe('alice');
  });

  it('offers the page sizes 10, 25, 50 and 100, 10 first', () => {
    render(<Screen initial={defaultFilters} />);
    const sizes = [...(screen.getByLabelText('Per page') as HTMLSelectElement).options].map((option) => option.value);
    expect(sizes).toEqual(['10', '25', '50', '100']);
    expect((screen.getByLabelText('Per page') as HTMLSelectElement).value).toBe('10');
  });
});
