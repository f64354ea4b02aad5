import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { chartGeometry, OrdersChart } from './orders-chart.tsx';

const daily = Array.from({ length: 30 }, (_, index) => ({
  date: new Date(Date.UTC(2026, 9, 23 + index)).toISOString().slice(0, 10),
  orders: index === 29 ? 4 : index % 3,
  revenue: index === 29 ? 120.5 : 0,
}));

afterEach(cleanup);

describe('orders chart', () => {
  it('is an image with a title and a summary, and its data as a table for screen readers', () => {
    render(<OrdersChart daily={daily} />);
    const chart = screen.getByRole('img');
    expect(chart.getAttribute('aria-labelledby')?.split(' ')).toHaveLength(2);
    expect(chart.querySelector('title')?.textContent).toBe('Orders and revenue per day, last 30 days');
    expect(chart.querySelector('desc')?.textContent).toContain('Busiest day: Nov 21 with 4 orders.');
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getByText('$120.50')).toBeTruthy();
  });

  it('draws the busiest day full height and a day without orders flat', () => {
    const { bars } = chartGeometry(daily);
    expect(bars).toHaveLength(30);
    expect(bars[0]!.height).toBe(0);
    expect(bars[29]!.height).toBeGreaterThan(bars[1]!.height);
    expect(bars[29]!.y + bars[29]!.height).toBeCloseTo(bars[1]!.y + bars[1]!.height);
  });
});
