import { getHeapStatistics } from 'node:v8';
import { afterEach, expect, it, vi } from 'vitest';
import { fullCollection, returnMemoryWhenQuiet } from './quiet-memory.ts';

// A clock of the test's own: the quiet spells pass at once, and a loaded machine cannot stretch them.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);
afterEach(() => {
  vi.useRealTimers();
});

it('collects once the requests have stopped for the quiet time: never while they come, once per quiet spell', async () => {
  vi.useFakeTimers();
  let collections = 0;
  const quiet = returnMemoryWhenQuiet({ quietMs: 400, collect: () => (collections += 1) });
  try {
    // After the start, with no request at all.
    await sleep(700);
    expect(collections).toBe(1);
    // Requests every 30 ms for 600 ms: never quiet long enough.
    for (let i = 0; i < 20; i += 1) {
      quiet.touch();
      await sleep(30);
    }
    expect(collections).toBe(1);
    await sleep(900);
    expect(collections).toBe(2);
    // Still idle: nothing more to give back, no more collections.
    await sleep(900);
    expect(collections).toBe(2);
  } finally {
    quiet.stop();
  }
});

it('reaches a collection that gives the heap of dead objects back', () => {
  const collect = fullCollection();
  expect(collect).toBeTypeOf('function');
  const holder: { rows?: unknown[] } = { rows: Array.from({ length: 300_000 }, (_, i) => ({ i, text: `row ${i}` })) };
  collect!();
  const withRows = getHeapStatistics().used_heap_size;
  // (Not through expect, which would keep a reference to them.)
  if (holder.rows?.length !== 300_000) throw new Error('the rows are not there');
  delete holder.rows;
  collect!();
  expect(getHeapStatistics().used_heap_size).toBeLessThan(withRows - 10 * 1024 * 1024);
  // Only the context made for it saw `gc`: this one did not.
  expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
});
