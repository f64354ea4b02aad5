import { useEffect, useRef, type RefObject } from 'react';

export const COUNT_UP_DURATION_MS = 2000;
export const COUNT_UP_STEPS = 60;

const prefersReducedMotion = () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** What the counter shows at `step` of its count from 0 to `target`. */
const valueAt = (target: number, step: number) => (step >= COUNT_UP_STEPS ? target : Math.round((target * step) / COUNT_UP_STEPS));

/**
 * Counts the text of the element it is given from 0 to `target` over 2 seconds in 60 steps (spec section
 * 9); reduced motion shows the target at once. The element is rendered with 0 (the server's HTML too).
 *
 * Each step writes the element's text itself instead of setting React state: as state, every step of
 * each of the four counters re-rendered and committed the page from its root, 240 commits of ~40 ms
 * each on a phone (4× CPU slowdown) while /about loads, which Lighthouse counts as blocking (decision 070).
 */
export function useCountUp<T extends HTMLElement>(target: number): RefObject<T | null> {
  const ref = useRef<T>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const show = (step: number) => {
      element.textContent = String(valueAt(target, step));
    };
    if (prefersReducedMotion()) {
      show(COUNT_UP_STEPS);
      return undefined;
    }
    let step = 0;
    show(step);
    const timer = window.setInterval(() => {
      step += 1;
      show(step);
      if (step >= COUNT_UP_STEPS) window.clearInterval(timer);
    }, COUNT_UP_DURATION_MS / COUNT_UP_STEPS);
    return () => window.clearInterval(timer);
  }, [target]);

  return ref;
}
