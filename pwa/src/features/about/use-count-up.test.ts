import { act, cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNT_UP_DURATION_MS, COUNT_UP_STEPS, useCountUp } from './use-count-up.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function preferReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ matches: reduce && query.includes('reduce'), media: query }) as MediaQueryList);
}

function Counter({ target }: { target: number }) {
  return createElement('span', { ref: useCountUp<HTMLSpanElement>(target), 'data-testid': 'counter' }, '0');
}

describe('about counters', () => {
  it('count up from 0 in 60 steps over 2 seconds and stop at the target', () => {
    preferReducedMotion(false);
    vi.useFakeTimers();
    const { getByTestId } = render(createElement(Counter, { target: 250 }));
    expect(getByTestId('counter').textContent).toBe('0');
    act(() => vi.advanceTimersByTime((COUNT_UP_DURATION_MS / COUNT_UP_STEPS) * 30));
    expect(getByTestId('counter').textContent).toBe('125');
    act(() => vi.advanceTimersByTime(COUNT_UP_DURATION_MS));
    expect(getByTestId('counter').textContent).toBe('250');
  });

  it('show the final value at once when the visitor prefers reduced motion', () => {
    preferReducedMotion(true);
    const { getByTestId } = render(createElement(Counter, { target: 150 }));
    expect(getByTestId('counter').textContent).toBe('150');
  });
});
