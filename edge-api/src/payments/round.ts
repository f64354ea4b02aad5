import type { Deps } from '../deps.ts';
import { sendWaitingPushes } from '../push/send.ts';
import { expireOverdue } from './expire.ts';
import { sendWaitingMail } from '../operations/receipts.ts';
import { unref } from '../lib/unref.ts';
import { emptyReport, reconcileOpen, watchTron, type RoundReport } from './reconcile.ts';

/**
 * One reconciliation round (decision 203): every rail is asked about every payment still waiting (and
 * USDT transfers of the last day are read), then the payments whose window passed expire, then the
 * receipts the round wrote are sent. Node runs it every minute, the Worker on its cron trigger (which
 * then sends the push messages that are due, as it always did); staff can run it from the dashboard (an
 * API write: the push middleware sends what it wrote).
 */
export async function paymentRound(deps: Deps): Promise<RoundReport & { expired: number }> {
  const report = emptyReport();
  await guarded(deps, 'USDT', () => watchTron(deps, report, true));
  await guarded(deps, 'Binance Pay and bKash', () => reconcileOpen(deps, report));
  const expired = await expireOverdue(deps);
  await sendWaitingMail(deps);
  return { ...report, expired };
}

/** Receipts written by a payment, sent once it committed (an API write's push messages go through the push middleware). */
export const afterPayments = (deps: Deps) => sendWaitingMail(deps);

/** Outside a request (Node's timer): the receipts and the push messages a round wrote. */
async function afterRound(deps: Deps): Promise<void> {
  await sendWaitingMail(deps);
  if (deps.config.push) await sendWaitingPushes(deps);
}

/** A rail that fails is logged and the round goes on with the others. */
async function guarded(deps: Deps, what: string, work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    deps.logger.warn(`payments: reading ${what} failed this round`, { error: error instanceof Error ? error.message : String(error) });
  }
}

/** How often Node reads USDT transfers while a USDT payment is open: a confirmed transfer is seen within seconds. */
export const WATCH_EVERY_MS = 3_000;
/** How often Node runs the whole round: a callback that never came is caught within two minutes. */
export const ROUND_EVERY_MS = 60_000;

/**
 * The Node entry's periodic payment work, started beside the server (node-server.ts) and stopped at
 * shutdown before the database closes: the USDT watch every few seconds, the whole round every minute.
 * A tick still running when the next is due is not doubled.
 */
export function startPaymentJobs(deps: Deps, every = { watchMs: WATCH_EVERY_MS, roundMs: ROUND_EVERY_MS }): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  let lastRound = Date.now();
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    const full = Date.now() - lastRound >= every.roundMs;
    if (full) lastRound = Date.now();
    running = (full ? paymentRound(deps) : guarded(deps, 'USDT', () => watchTron(deps)))
      .then(() => afterRound(deps))
      .catch((error: unknown) => deps.logger.warn('payments: a round failed', { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, every.watchMs);
  unref(timer);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
