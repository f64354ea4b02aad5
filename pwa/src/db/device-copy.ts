/**
 * Where the network's answers go: every row the server answers is kept on the device through these, and
 * screens read rows only from the device (DESIGN section 6). Pulls are the sync engine's (pull.ts);
 * these take what screens ask the server for directly (a search page, a stock, the users list) and what
 * an online-only change answers (a deletion, a role change, saved settings).
 */
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../../../edge-api/src/contract/settings.ts';
import type { User } from '../../../edge-api/src/contract/users.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import { getPublicDb, type RowRef, type UserDb } from './local-db.ts';
import { entryTargets, replaceServerCopy } from './outbox.ts';
import { checkVaultSeal, sealRows, withVaultSeal, type VaultSeal } from './vault-seal.ts';

/** Rows as the server answered them. */
export interface ServerRows {
  orders?: readonly Order[];
  stocks?: readonly WiseStock[];
  users?: readonly User[];
}

const refKey = (ref: RowRef) => `${ref.table}:${ref.id}`;

/** The rows with a change still waiting in the outbox: the sync engine owns those. */
async function queuedRows(db: UserDb): Promise<Set<string>> {
  const pending = await db.outbox.where('status').equals('pending').toArray();
  return new Set(pending.flatMap(entryTargets).map(refKey));
}

/**
 * Keeps rows read from the server on the device as they are seen: an order found by a search can then be
 * changed, and a stock still read, offline. A row is never replaced by an older one, nor while a change
 * to it waits in the outbox.
 */
export async function keepOnDevice(db: UserDb, rows: ServerRows): Promise<void> {
  if (!rows.orders?.length && !rows.stocks?.length && !rows.users?.length) return;
  await withVaultSeal(db, async (seal) => {
    const sealed = await sealServerRows(seal, rows);
    await db.transaction('rw', [db.orders, db.wiseStocks, db.users, db.outbox, db.meta], async () => {
      await checkVaultSeal(db, seal);
      await storeOnDevice(db, sealed);
    });
  });
}

/** Rows with their secret fields sealed to the device's vault (decision 068), before a write's transaction. */
export async function sealServerRows(seal: VaultSeal, rows: ServerRows): Promise<ServerRows> {
  return { ...rows, orders: await sealRows(seal, 'orders', rows.orders), stocks: await sealRows(seal, 'wiseStocks', rows.stocks) };
}

/** keepOnDevice's write, inside a caller's transaction: the rows are already sealed (sealServerRows). */
export async function storeOnDevice(db: UserDb, rows: ServerRows): Promise<void> {
  const orders = rows.orders ?? [];
  const stocks = rows.stocks ?? [];
  const users = rows.users ?? [];
  if (orders.length === 0 && stocks.length === 0 && users.length === 0) return;
  await db.transaction('rw', [db.orders, db.wiseStocks, db.users, db.outbox], async () => {
    const queued = await queuedRows(db);

    const knownOrders = await db.orders.bulkGet(orders.map((order) => order.id));
    const freshOrders: Order[] = [];
    orders.forEach((order, index) => {
      const local = knownOrders[index];
      if (queued.has(refKey({ table: 'orders', id: order.id })) || (local && local.version >= order.version)) return;
      // Staff are never sent a delivered password; keep the one the device has for its own order.
      const keepPassword = local?.wisePassword !== undefined && local.wiseEmail === order.wiseEmail;
      freshOrders.push(keepPassword ? { ...order, wisePassword: local.wisePassword } : order);
    });
    if (freshOrders.length > 0) await db.orders.bulkPut(freshOrders);

    // The same version again still replaces a stock: its signed image links are fresh.
    const knownStocks = await db.wiseStocks.bulkGet(stocks.map((stock) => stock.id));
    const freshStocks = stocks.filter((stock, index) => {
      const local = knownStocks[index];
      return !queued.has(refKey({ table: 'wiseStocks', id: stock.id })) && (!local || local.version <= stock.version);
    });
    if (freshStocks.length > 0) await db.wiseStocks.bulkPut(freshStocks);

    const knownUsers = await db.users.bulkGet(users.map((user) => user.uid));
    const freshUsers = users.filter((user, index) => (knownUsers[index]?.version ?? -1) <= user.version);
    if (freshUsers.length > 0) await db.users.bulkPut(freshUsers);
  });
}

/**
 * Rows the server deleted (an online-only deletion): gone from the device. A row with a change still
 * waiting keeps showing it until that change is answered; the server's copy it returns to is then none.
 */
export async function forgetOnDevice(db: UserDb, ids: { orders?: readonly string[]; stocks?: readonly string[]; users?: readonly string[] }): Promise<void> {
  await db.transaction('rw', [db.orders, db.wiseStocks, db.users, db.outbox, db.meta], async () => {
    const queued = await queuedRows(db);
    for (const [table, list] of [
      ['orders', ids.orders ?? []],
      ['wiseStocks', ids.stocks ?? []],
    ] as const) {
      for (const id of list) {
        if (queued.has(refKey({ table, id }))) await replaceServerCopy(db, { table, id }, null);
        else await db.table(table).delete(id);
      }
    }
    if (ids.users?.length) await db.users.bulkDelete([...ids.users]);
  });
}

/**
 * The whole users list as the server answered it (GET /api/users): users missing from it were deleted.
 * A row the sync engine already brought in newer is kept.
 */
export async function keepUserList(db: UserDb, users: readonly User[]): Promise<void> {
  await db.transaction('rw', [db.users, db.orders, db.wiseStocks, db.outbox], async () => {
    const listed = new Set(users.map((user) => user.uid));
    const gone = (await db.users.toCollection().primaryKeys()) as string[];
    await db.users.bulkDelete(gone.filter((uid) => !listed.has(uid)));
    await storeOnDevice(db, { users });
  });
}

/** Public rows as the server answered them (an admin's save): kept unless the device has a newer copy. */
export async function keepPublicOnDevice(rows: { services?: readonly Service[]; settings?: SiteSettings }): Promise<void> {
  const db = getPublicDb();
  await db.transaction('rw', [db.services, db.settings], async () => {
    const services = rows.services ?? [];
    const known = await db.services.bulkGet(services.map((service) => service.id));
    const fresh = services.filter((service, index) => (known[index]?.version ?? -1) <= service.version);
    if (fresh.length > 0) await db.services.bulkPut(fresh);
    if (rows.settings) await db.settings.put({ ...rows.settings, id: 'site' });
  });
}

/** Public rows the server deleted. */
export async function forgetPublicOnDevice(ids: { services: readonly string[] }): Promise<void> {
  await getPublicDb().services.bulkDelete([...ids.services]);
}
