import { unref } from './unref.ts';

/**
 * The Node entry's timer over a leased outbox (web push, webhooks): every `everyMs`, one round of what is
 * due, never two at once. `stop` ends the timer, aborts the running round's signal and waits for it, so the
 * database can close after. Shared by push/send.ts and webhooks/send.ts (decision 225).
 */
export function repeatRounds(everyMs: number, round: (signal: AbortSignal) => Promise<void>): { stop(): Promise<void> } {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= round(stopping.signal).finally(() => (running = undefined));
  }, everyMs);
  unref(timer);
  return {
    stop: async () => {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}

/** The sends still running in this process, for tests (and a stopping process) to wait for. */
export function inFlightSet() {
  const running = new Set<Promise<void>>();
  return {
    track(run: Promise<void>): Promise<void> {
      running.add(run);
      void run.finally(() => running.delete(run));
      return run;
    },
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/**
 * Lets `run` go on after the answer: on Workers through the request's waitUntil, on Node (where Hono has
 * no execution context and says so by throwing) as a promise nobody waits for. Used by pushAfterCommit,
 * webhooksAfterCommit and a webhook delivery's resend.
 */
export function runInBackground(c: { readonly executionCtx: { waitUntil(promise: Promise<unknown>): void } }, run: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(run);
  } catch {
    // Node: no execution context; the promise runs on.
  }
}
