/**
 * Making changes on this device: each is applied optimistically and queued in the outbox in one
 * transaction, then pushed soon (the registry in mutators.ts says what each one does).
 */
import { AppError } from '../lib/app-error.ts';
import { sealServerRows, storeOnDevice, type ServerRows } from './device-copy.ts';
import { getUserDb, type MutationName, type OutboxEntry, type UserDb } from './local-db.ts';
import { mutatorOf, type MutationArgs, type MutationContext, type RowChange } from './mutators.ts';
import { entryTargets, failOnServerError, keepServerCopy, waitForEntry } from './outbox.ts';
import { notifyLocalWrite } from './sync-engine.ts';
import { checkVaultSeal, sealArgs, withVaultSeal } from './vault-seal.ts';

/**
 * A change made on this device. `saved` settles once it is written locally (the screen already shows it);
 * `done` resolves when the server confirmed it and rejects with the server's AppError when the server refused it.
 * While offline `done` stays pending: the change is queued and syncs later, even after a reload.
 */
export interface MutationHandle {
  id: string;
  saved: Promise<void>;
  done: Promise<void>;
}

let lastCreatedAt = 0;
/** Strictly increasing, so entries made in one millisecond still push in the order they were made. */
function nextCreatedAt(): string {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return new Date(lastCreatedAt).toISOString();
}

// serviceStocks: read by a delivery from a service's own stock (decision 072).
const changeTables = (db: UserDb) => [db.orders, db.wiseStocks, db.users, db.outbox, db.meta, db.serviceStocks, db.tickets];

async function applyChanges(db: UserDb, changes: RowChange[]) {
  for (const change of changes) {
    await keepServerCopy(db, change.ref);
    if (change.row) await db.table(change.ref.table).put(change.row);
    else await db.table(change.ref.table).delete(change.ref.id);
  }
}

async function contextFor(userId: string, name: MutationName, args: unknown): Promise<MutationContext> {
  return { userId, ...(await mutatorOf(name).prepare?.(args)) };
}

/** How a change is made. */
export interface ChangeOptions {
  /**
   * The rows as the screen showed them when the person made the change (an order from a search page,
   * say): kept on the device first, as keepOnDevice keeps rows, in the change's own transaction.
   */
  shown?: ServerRows;
}

function handle(id: string, saved: Promise<void>, confirmed: Promise<void>): MutationHandle {
  const done = saved.then(() => confirmed);
  // Screens may ignore either promise; a refusal is shown through the outbox, never as an unhandled rejection.
  saved.catch(() => {});
  done.catch(() => {});
  return { id, saved, done };
}

/** The optimistic change and its outbox entry, in one transaction; then a push soon. */
function enqueue<N extends MutationName>(userId: string, name: N, args: MutationArgs[N], options: ChangeOptions & { entryId?: string } = {}): MutationHandle {
  const entryId = options.entryId ?? crypto.randomUUID();
  const db = getUserDb(userId);
  const mutator = mutatorOf(name);
  const confirmed = waitForEntry(entryId);
  const saved = (async () => {
    const context = await contextFor(userId, name, args);
    // With the vault on, typed secrets wait in the outbox sealed, and the optimistic row holds them sealed.
    await withVaultSeal(db, async (seal) => {
      const sealedArgs = await sealArgs(seal, name, args);
      const shown = options.shown && (await sealServerRows(seal, options.shown));
      await db.transaction('rw', changeTables(db), async () => {
        await checkVaultSeal(db, seal);
        if (await db.outbox.get(entryId)) return; // the same order placed twice: one entry
        if (shown) await storeOnDevice(db, shown);
        await applyChanges(db, await mutator.apply(db, sealedArgs, context));
        const entry: OutboxEntry = {
          id: entryId,
          name,
          args: sealedArgs as unknown as Record<string, unknown>,
          createdAt: nextCreatedAt(),
          status: 'pending',
          attempts: 0,
          target: mutator.rows(args)[0],
        };
        await db.outbox.add(entry);
      });
    });
    notifyLocalWrite();
  })();
  return handle(entryId, saved, confirmed);
}

/**
 * Places an order for a local service; the order's id is also the idempotency key, so it is made once.
 * With `answerNow` (the customer waits on the screen, online) a server error fails it at once, as a refusal
 * does, rather than leaving it queued: only an order placed offline waits in the queue.
 */
export function placeOrder(userId: string, input: MutationArgs['placeOrder'], options: { answerNow?: boolean } = {}): MutationHandle {
  const { id, productId, note, paymentMethod, couponCode, quantity } = input;
  if (options.answerNow) failOnServerError(id);
  return enqueue(
    userId,
    'placeOrder',
    {
      id,
      productId,
      ...(note ? { note } : {}),
      ...(paymentMethod ? { paymentMethod } : {}),
      ...(couponCode ? { couponCode } : {}),
      ...(quantity && quantity > 1 ? { quantity } : {}),
    },
    { entryId: id },
  );
}

/** The customer cancels their own pending, unpaid order. */
export function cancelOrder(userId: string, input: MutationArgs['cancelOrder']): MutationHandle {
  return enqueue(userId, 'cancelOrder', input);
}

/** The customer's transaction id and/or payment screenshot for a pending order. */
export function sendPaymentProof(userId: string, input: MutationArgs['sendPaymentProof']): MutationHandle {
  return enqueue(userId, 'sendPaymentProof', input);
}

export function setOrderStatus(userId: string, input: MutationArgs['setOrderStatus'], options?: ChangeOptions): MutationHandle {
  return enqueue(userId, 'setOrderStatus', input, options);
}

export function setPaymentStatus(userId: string, input: MutationArgs['setPaymentStatus'], options?: ChangeOptions): MutationHandle {
  return enqueue(userId, 'setPaymentStatus', input, options);
}

/** Marks the order paid and delivered with typed credentials, or with an inventory account (`stockId`). */
export function deliverOrder(userId: string, input: MutationArgs['deliverOrder'], options?: ChangeOptions): MutationHandle {
  return enqueue(userId, 'deliverOrder', input, options);
}

export function setStockStatus(userId: string, input: MutationArgs['setStockStatus'], options?: ChangeOptions): MutationHandle {
  return enqueue(userId, 'setStockStatus', input, options);
}

/** The customer reports a problem with a delivered order (decision 063); works offline like every change. */
export function reportProblem(userId: string, input: MutationArgs['reportProblem'], options?: ChangeOptions): MutationHandle {
  return enqueue(userId, 'reportProblem', input, options);
}

/** The customer showed a delivered password: logged on the server with its time and device (decision 066), offline too. */
export function logReveal(userId: string, input: MutationArgs['logReveal']): MutationHandle {
  return enqueue(userId, 'logReveal', input);
}

/** Staff answer a problem report without replacing the delivery. */
export function declineReport(userId: string, input: MutationArgs['declineReport'], options?: ChangeOptions): MutationHandle {
  return enqueue(userId, 'declineReport', input, options);
}

/** Support tickets (decision 170): opened, answered and closed on the device first, sent once. */
export function openTicket(userId: string, input: MutationArgs['openTicket']): MutationHandle {
  return enqueue(userId, 'openTicket', input, { entryId: input.id });
}

export function replyTicket(userId: string, input: MutationArgs['replyTicket']): MutationHandle {
  return enqueue(userId, 'replyTicket', input, { entryId: input.messageId });
}

export function closeTicket(userId: string, input: MutationArgs['closeTicket']): MutationHandle {
  return enqueue(userId, 'closeTicket', input);
}

/** Forgets a change the server refused (its row already shows the server's state again). */
export async function dismissFailed(userId: string, outboxId: string): Promise<void> {
  const db = getUserDb(userId);
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.get(outboxId);
    if (entry?.status === 'failed') await db.outbox.delete(outboxId);
  });
}

/**
 * Sends a refused change again, on top of the row as it is now (the person saw the server's state and
 * chose to repeat the change): it is applied locally again and queued last.
 */
export function retryFailed(userId: string, outboxId: string): MutationHandle {
  const db = getUserDb(userId);
  const confirmed = waitForEntry(outboxId);
  const saved = (async () => {
    const queued = await db.outbox.get(outboxId);
    const context = queued ? await contextFor(userId, queued.name, queued.args) : { userId };
    await db.transaction('rw', changeTables(db), async () => {
      const entry = await db.outbox.get(outboxId);
      if (!entry || entry.status !== 'failed') throw new AppError('not_on_device', 'This change is no longer waiting to be retried');
      const args = { ...entry.args };
      const [target] = entryTargets(entry);
      const current = target ? ((await db.table(target.table).get(target.id)) as ({ version: number } & Record<string, unknown>) | undefined) : undefined;
      if (current && typeof args.version === 'number') args.version = current.version;
      // Retrying a refused field change keeps this device's value over the one found on the server.
      const field = entry.name === 'setOrderStatus' ? 'orderStatus' : entry.name === 'setPaymentStatus' ? 'paymentStatus' : null;
      if (current && field && 'from' in args) args.from = current[field];
      await applyChanges(db, await mutatorOf(entry.name).apply(db, args, context));
      await db.outbox.put({ ...entry, args, status: 'pending', error: undefined, attempts: 0, createdAt: nextCreatedAt() });
    });
    notifyLocalWrite();
  })();
  return handle(outboxId, saved, confirmed);
}
