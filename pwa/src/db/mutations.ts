import type { Order, Service, WiseStock } from '../../../edge-api/src/contract.ts';
import { getPublicDb, getUserDb, type MutationName, type OutboxEntry, type UserDb } from './local-db.ts';
import { entryTargets, keepServerCopy, notifyLocalWrite, waitForEntry, type MutationArgs, type RowRef } from './sync-engine.ts';

/**
 * A change made on this device. `saved` settles once it is written locally (the screen already shows it);
 * `done` resolves when the server confirmed it and rejects with ApiRequestError when the server refused it.
 * While offline `done` stays pending: the change is queued and syncs later, even after a reload.
 */
export interface MutationHandle {
  id: string;
  saved: Promise<void>;
  done: Promise<void>;
}

/** Something the change cannot be made on, found on this device before anything was queued. */
export class LocalMutationError extends Error {
  override name = 'LocalMutationError';
}

let lastCreatedAt = 0;
/** Strictly increasing, so entries made in one millisecond still push in the order they were made. */
function nextCreatedAt(): string {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return new Date(lastCreatedAt).toISOString();
}

type Row = Order | WiseStock;
type Change = { ref: RowRef; row: Row | null };
/** What an effect needs from outside the user's database (one transaction cannot span two databases). */
interface EffectContext {
  userId: string;
  service?: Service;
}

/**
 * The optimistic effect of each mutation on the local rows, from the rows as they are now. Used when the
 * change is made and again when a failed one is retried.
 */
const effects: { [N in MutationName]: (db: UserDb, args: MutationArgs[N], context: EffectContext) => Promise<Change[]> } = {
  async placeOrder(db, args, { userId, service }) {
    const existing = await db.orders.get(args.id);
    if (existing) return [];
    if (!service) throw new LocalMutationError('Service not found');
    const me = await db.users.get(userId);
    const now = new Date().toISOString();
    const order: Order = {
      id: args.id,
      productId: service.id,
      title: service.title,
      description: service.description,
      category: service.category,
      image: service.image,
      price: service.price,
      deliveryTime: service.deliveryTime,
      userId,
      userEmail: me?.email ?? '',
      userName: me?.displayName ?? '',
      paymentStatus: 'pending',
      orderStatus: 'pending',
      orderDate: now,
      createdAt: now,
      updatedAt: now,
      version: 0,
    };
    return [{ ref: { table: 'orders', id: args.id }, row: order }];
  },
  async setOrderStatus(db, args) {
    const order = await findOrder(db, args.orderId);
    return [{ ref: { table: 'orders', id: order.id }, row: { ...order, orderStatus: args.orderStatus, updatedAt: new Date().toISOString() } }];
  },
  async setPaymentStatus(db, args) {
    const order = await findOrder(db, args.orderId);
    return [{ ref: { table: 'orders', id: order.id }, row: { ...order, paymentStatus: args.paymentStatus, updatedAt: new Date().toISOString() } }];
  },
  async deliverOrder(db, args) {
    const order = await findOrder(db, args.orderId);
    const now = new Date().toISOString();
    const delivered: Order = { ...order, paymentStatus: 'paid', orderStatus: 'delivered', updatedAt: now };
    if ('stockId' in args) {
      const stock = await db.wiseStocks.get(args.stockId);
      if (!stock) throw new LocalMutationError('Wise stock not found');
      if (stock.status !== 'available') throw new LocalMutationError('This Wise stock is no longer available');
      return [
        { ref: { table: 'orders', id: order.id }, row: { ...delivered, wiseEmail: stock.wiseEmail, wisePassword: stock.wisePassword, stockId: stock.id } },
        { ref: { table: 'wiseStocks', id: stock.id }, row: { ...stock, status: 'sold', soldTo: order.userId, orderId: order.id, updatedAt: now } },
      ];
    }
    // An uploaded proof is a storage path until the server answers with a URL the browser can load.
    return [{ ref: { table: 'orders', id: order.id }, row: { ...delivered, wiseEmail: args.wiseEmail, wisePassword: args.wisePassword } }];
  },
  async setStockStatus(db, args) {
    const stock = await db.wiseStocks.get(args.stockId);
    if (!stock) throw new LocalMutationError('Wise stock not found');
    const row: WiseStock = {
      ...stock,
      status: args.status,
      soldTo: args.status === 'sold' ? (args.soldTo ?? null) : null,
      notes: args.notes ?? stock.notes,
      updatedAt: new Date().toISOString(),
    };
    return [{ ref: { table: 'wiseStocks', id: stock.id }, row }];
  },
};

async function findOrder(db: UserDb, id: string): Promise<Order> {
  const order = await db.orders.get(id);
  if (!order) throw new LocalMutationError('Order not found');
  return order;
}

async function applyChanges(db: UserDb, changes: Change[]) {
  for (const change of changes) {
    await keepServerCopy(db, change.ref);
    if (change.row) await db.table(change.ref.table).put(change.row);
    else await db.table(change.ref.table).delete(change.ref.id);
  }
}

async function effectContext(userId: string, name: MutationName, args: Record<string, unknown>): Promise<EffectContext> {
  if (name !== 'placeOrder' || typeof args.productId !== 'string') return { userId };
  return { userId, service: await getPublicDb().services.get(args.productId) };
}

const runEffect = (db: UserDb, name: MutationName, args: unknown, context: EffectContext) =>
  (effects[name] as (db: UserDb, args: unknown, context: EffectContext) => Promise<Change[]>)(db, args, context);

function handle(id: string, saved: Promise<void>, confirmed: Promise<void>): MutationHandle {
  const done = saved.then(() => confirmed);
  // Screens may ignore either promise; a refusal is shown through the outbox, never as an unhandled rejection.
  saved.catch(() => {});
  done.catch(() => {});
  return { id, saved, done };
}

/** The optimistic change and its outbox entry, in one transaction; then a push soon. */
function enqueue<N extends MutationName>(userId: string, name: N, args: MutationArgs[N], target: RowRef, entryId: string = crypto.randomUUID()): MutationHandle {
  const db = getUserDb(userId);
  const confirmed = waitForEntry(entryId);
  const saved = (async () => {
    const context = await effectContext(userId, name, args as unknown as Record<string, unknown>);
    await db.transaction('rw', [db.orders, db.wiseStocks, db.users, db.outbox, db.meta], async () => {
      if (await db.outbox.get(entryId)) return; // the same order placed twice: one entry
      const changes = await runEffect(db, name, args, context);
      await applyChanges(db, changes);
      const entry: OutboxEntry = { id: entryId, name, args: args as unknown as Record<string, unknown>, createdAt: nextCreatedAt(), status: 'pending', attempts: 0, target };
      await db.outbox.add(entry);
    });
    notifyLocalWrite();
  })();
  return handle(entryId, saved, confirmed);
}

/** Places an order for a local service; the order's id is also the idempotency key, so it is made once. */
export function placeOrder(userId: string, input: { id: string; productId: string }): MutationHandle {
  return enqueue(userId, 'placeOrder', { id: input.id, productId: input.productId }, { table: 'orders', id: input.id }, input.id);
}

export function setOrderStatus(userId: string, input: MutationArgs['setOrderStatus']): MutationHandle {
  return enqueue(userId, 'setOrderStatus', input, { table: 'orders', id: input.orderId });
}

export function setPaymentStatus(userId: string, input: MutationArgs['setPaymentStatus']): MutationHandle {
  return enqueue(userId, 'setPaymentStatus', input, { table: 'orders', id: input.orderId });
}

/** Marks the order paid and delivered with typed credentials, or with an inventory account (`stockId`). */
export function deliverOrder(userId: string, input: MutationArgs['deliverOrder']): MutationHandle {
  return enqueue(userId, 'deliverOrder', input, { table: 'orders', id: input.orderId });
}

export function setStockStatus(userId: string, input: MutationArgs['setStockStatus']): MutationHandle {
  return enqueue(userId, 'setStockStatus', input, { table: 'wiseStocks', id: input.stockId });
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
    const context = queued ? await effectContext(userId, queued.name, queued.args) : { userId };
    await db.transaction('rw', [db.orders, db.wiseStocks, db.users, db.outbox, db.meta], async () => {
      const entry = await db.outbox.get(outboxId);
      if (!entry || entry.status !== 'failed') throw new LocalMutationError('This change is no longer waiting to be retried');
      const args = { ...entry.args };
      const [target] = entryTargets(entry);
      const current = target ? ((await db.table(target.table).get(target.id)) as Row | undefined) : undefined;
      if (current && typeof args.version === 'number') args.version = current.version;
      const changes = await runEffect(db, entry.name, args, context);
      await applyChanges(db, changes);
      await db.outbox.put({ ...entry, args, status: 'pending', error: undefined, attempts: 0, createdAt: nextCreatedAt() });
    });
    notifyLocalWrite();
  })();
  return handle(outboxId, saved, confirmed);
}
