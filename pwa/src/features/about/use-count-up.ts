import { useEffect, useState } from 'react';

export const COUNT_UP_DURATION_MS = 2000;
export const COUNT_UP_STEPS = 60;

const prefersReducedMotion = () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Counts from 0 to `target` over 2 seconds in 60 steps (spec section 9); reduced motion shows the target at once. */
export function useCountUp(target: number): number {
  const [value, setValue] = useState(() => (prefersReducedMotion() ? target : 0));

  useEffect(() => {
    if (prefersReducedMotion()) {
      setValue(target);
      return;
    }
    let step = 0;
    setValue(0);
    const timer = window.setInterval(() => {
      step += 1;
      setValue(step >= COUNT_UP_STEPS ? target : Math.round((target * step) / COUNT_UP_STEPS));
      if (step >= COUNT_UP_STEPS) window.clearInterval(timer);
    }, COUNT_UP_DURATION_MS / COUNT_UP_STEPS);
    return () => window.clearInterval(timer);
  }, [target]);

  return value;
}
