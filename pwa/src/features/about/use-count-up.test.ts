import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNT_UP_DURATION_MS, COUNT_UP_STEPS, useCountUp } from './use-count-up.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function preferReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: reduce && query.includes('reduce'), media: query }) as MediaQueryList,
  );
}

describe('about counters', () => {
  it('count up from 0 in 60 steps over 2 seconds and stop at the target', () => {
    preferReducedMotion(false);
    vi.useFakeTimers();
    const { result } = renderHook(() => useCountUp(250));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime((COUNT_UP_DURATION_MS / COUNT_UP_STEPS) * 30));
    expect(result.current).toBe(125);
    act(() => vi.advanceTimersByTime(COUNT_UP_DURATION_MS));
    expect(result.current).toBe(250);
  });

  it('show the final value at once when the visitor prefers reduced motion', () => {
    preferReducedMotion(true);
    const { result } = renderHook(() => useCountUp(150));
    expect(result.current).toBe(150);
  });
});
