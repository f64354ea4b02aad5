/** How a queued change ended for the screen: confirmed by the server, or left in the outbox to sync later. */
export type ServerOutcome = 'confirmed' | 'offline' | 'slow';

/**
 * Waits for the server's verdict on an outbox mutation (`done` of a MutationHandle), but not forever:
 * offline, when the connection drops, or when the answer takes longer than `patienceMs`, the change stays
 * in the outbox and syncs later, so the screen moves on. Rejects when the server refused the change.
 */
export function serverOutcome(done: Promise<void>, patienceMs = 15_000): Promise<ServerOutcome> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) {
    done.catch(() => undefined); // refusals after reconnecting are shown by the failed-changes panel
    return Promise.resolve('offline');
  }
  return new Promise<ServerOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      window.removeEventListener('offline', onOffline);
      action();
    };
    const onOffline = () => finish(() => resolve('offline'));
    const timer = setTimeout(() => finish(() => resolve('slow')), patienceMs);
    window.addEventListener('offline', onOffline);
    done.then(
      () => finish(() => resolve('confirmed')),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
