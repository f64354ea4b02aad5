import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverOutcome } from './server-outcome.ts';

afterEach(() => vi.restoreAllMocks());

describe('waiting for the server to confirm a change', () => {
  it('is confirmed when the server took it', async () => {
    await expect(serverOutcome(Promise.resolve())).resolves.toBe('confirmed');
  });

  it('rejects with the reason when the server refused it', async () => {
    await expect(serverOutcome(Promise.reject(new Error('version_conflict')))).rejects.toThrow('version_conflict');
  });

  it('moves on at once while offline: the change waits in the outbox', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await expect(serverOutcome(new Promise<void>(() => undefined))).resolves.toBe('offline');
  });

  it('moves on when the connection drops while waiting', async () => {
    const outcome = serverOutcome(new Promise<void>(() => undefined));
    window.dispatchEvent(new Event('offline'));
    await expect(outcome).resolves.toBe('offline');
  });

  it('moves on when the server does not answer in time, without waiting for it', async () => {
    vi.useFakeTimers();
    try {
      const outcome = serverOutcome(new Promise<void>(() => undefined), 10_000);
      vi.advanceTimersByTime(10_000);
      await expect(outcome).resolves.toBe('slow');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the verdict that came first', async () => {
    let confirm!: () => void;
    const outcome = serverOutcome(new Promise<void>((resolve) => (confirm = resolve)));
    confirm();
    await Promise.resolve();
    window.dispatchEvent(new Event('offline'));
    await expect(outcome).resolves.toBe('confirmed');
  });
});
