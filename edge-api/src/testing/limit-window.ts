/**
 * The write limits count in fixed windows of the clock (10 minutes, aligned to it). A test that fills
 * one with the real clock waits here, when less than `marginMs` of the current window is left, for the
 * next to begin: its requests then all fall in one window, whatever the time of day it runs.
 */
export async function insideOneWindow(windowMs: number, marginMs = 5_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * The start of the next fixed window of `windowMs`: a test that fakes `Date` to a second past it (the
 * API's clock reads `Date`) knows every wait the limits answer, whatever the time of day it runs.
 */
export const nextWindowStart = (windowMs: number, now = Date.now()): number => Math.floor(now / windowMs) * windowMs + windowMs;

/**
 * How far ahead of the real clock a test's injected clock goes to stand a second into the next fixed window
 * of `windowMs`: a test that fills a window then has all of it (less a second) before it, at once.
 */
export const offsetIntoNextWindow = (windowMs: number, now = Date.now()): number => nextWindowStart(windowMs, now) + 1_000 - now;

/** A clock that runs with the real one, a second into the next fixed window of `windowMs` from now (offsetIntoNextWindow). */
export function clockInNextWindow(windowMs: number): () => Date {
  const offset = offsetIntoNextWindow(windowMs);
  return () => new Date(Date.now() + offset);
}
