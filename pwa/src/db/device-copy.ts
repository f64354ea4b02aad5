import type { Order, WiseStock } from '../../../edge-api/src/contract.ts';
import type { UserDb } from './local-db.ts';
import { entryTargets } from './sync-engine.ts';

/**
 * Rows read from the server are kept on the device as they are seen (DESIGN section 6): an order found by
 * a search can then be changed, and a stock still read, offline. A row is never replaced by an older one,
 * nor while a change to it waits in the outbox (the sync engine owns those, as its pulls do).
 */
export async function keepOnDevice(db: UserDb, rows: { orders?: readonly Order[]; stocks?: readonly WiseStock[] }): Promise<void> {
  const orders = rows.orders ?? [];
  const stocks = rows.stocks ?? [];
  if (orders.length === 0 && stocks.length === 0) return;
  await db.transaction('rw', [db.orders, db.wiseStocks, db.outbox], async () => {
    const pending = await db.outbox.where('status').equals('pending').toArray();
    const queued = new Set(pending.flatMap(entryTargets).map((ref) => `${ref.table}:${ref.id}`));

    const knownOrders = await db.orders.bulkGet(orders.map((order) => order.id));
    const freshOrders: Order[] = [];
    orders.forEach((order, index) => {
      const local = knownOrders[index];
      if (queued.has(`orders:${order.id}`) || (local && local.version >= order.version)) return;
      // Staff are never sent a delivered password; keep the one the device has for its own order.
      const keepPassword = local?.wisePassword !== undefined && local.wiseEmail === order.wiseEmail;
      freshOrders.push(keepPassword ? { ...order, wisePassword: local.wisePassword } : order);
    });
    if (freshOrders.length > 0) await db.orders.bulkPut(freshOrders);

    // The same version again still replaces a stock: its signed image links are fresh.
    const knownStocks = await db.wiseStocks.bulkGet(stocks.map((stock) => stock.id));
    const freshStocks = stocks.filter((stock, index) => {
      const local = knownStocks[index];
      return !queued.has(`wiseStocks:${stock.id}`) && (!local || local.version <= stock.version);
    });
    if (freshStocks.length > 0) await db.wiseStocks.bulkPut(freshStocks);
  });
}
