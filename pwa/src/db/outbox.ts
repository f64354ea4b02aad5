/**
 * The outbox's bookkeeping on this device: which rows an entry is about, the server's copy of a row kept
 * aside while changes to it wait (docs/decisions/006-offline-pending-rows.md), and the promises screens
 * wait on for the server's verdict.
 */
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import type { Ticket } from '../../../edge-api/src/contract/tickets.ts';
import type { OutboxEntry, RowRef, UserDb } from './local-db.ts';
import { mutatorOf } from './mutators.ts';

export const baseKey = (ref: RowRef) => `base:${ref.table}:${ref.id}`;
export const sameRef = (a: RowRef, b: RowRef) => a.table === b.table && a.id === b.id;

/** The rows an entry changes optimistically: its target, and any other its mutation changes (a delivery's stock). */
export const entryTargets = (entry: Pick<OutboxEntry, 'name' | 'args'>): RowRef[] => mutatorOf(entry.name).rows(entry.args);

/** The entries still waiting to be sent, oldest first. */
export const pendingEntries = (db: UserDb) => db.outbox.where('status').equals('pending').sortBy('createdAt');

/**
 * Before the first optimistic change to a row, the server's copy is kept aside (null: the row does not
 * exist there yet). Pulls update that copy instead of the row while changes wait; when the queue for the
 * row drains, the server's latest copy wins again.
 */
export async function keepServerCopy(db: UserDb, ref: RowRef): Promise<void> {
  const key = baseKey(ref);
  if (await db.meta.get(key)) return;
  const row = (await db.table(ref.table).get(ref.id)) as Order | WiseStock | Ticket | undefined;
  await db.meta.put({ key, value: { row: row ?? null } });
}

/** A newer server copy of a row that has changes waiting: kept aside until they are done. */
export async function replaceServerCopy(db: UserDb, ref: RowRef, row: Order | WiseStock | Ticket | null): Promise<void> {
  await db.meta.put({ key: baseKey(ref), value: { row } });
}

export async function takeServerCopy(db: UserDb, ref: RowRef): Promise<{ row: Order | WiseStock | Ticket | null } | undefined> {
  const key = baseKey(ref);
  const entry = await db.meta.get(key);
  if (!entry) return undefined;
  await db.meta.delete(key);
  return entry.value as { row: Order | WiseStock | Ticket | null };
}

// Confirmation promises for `done` of mutations made in this page; an entry from before a reload still syncs.
const waiters = new Map<string, { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void }>();

export function waitForEntry(entryId: string): Promise<void> {
  let waiter = waiters.get(entryId);
  if (!waiter) {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A screen may ignore `done`; a refusal is shown through the outbox, so it is never an unhandled rejection.
    promise.catch(() => {});
    waiter = { promise, resolve, reject };
    waiters.set(entryId, waiter);
  }
  return waiter.promise;
}

/**
 * Entries a screen is waiting on while online (an order being placed): a server error fails them at once,
 * as a refusal does, instead of leaving them queued to retry. Only a change made offline waits in the queue.
 */
const answerNow = new Set<string>();

/** Asks for the server's answer now (`on`), or lets the entry wait in the queue as usual once the screen moves on. */
export function failOnServerError(entryId: string, on = true): void {
  if (on) answerNow.add(entryId);
  else answerNow.delete(entryId);
}

export const failsOnServerError = (entryId: string): boolean => answerNow.has(entryId);

/** The server's verdict on an entry: resolves its waiter, or rejects it with the refusal. */
export function settleEntry(entryId: string, error?: unknown) {
  answerNow.delete(entryId);
  const waiter = waiters.get(entryId);
  if (!waiter) return;
  waiters.delete(entryId);
  if (error === undefined) waiter.resolve();
  else waiter.reject(error);
}
