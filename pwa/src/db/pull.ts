/**
 * Pulls: GET /api/sync page by page into the local databases, each page in one transaction, never over a
 * row with changes still waiting in the outbox (its server copy is kept aside for when they are done).
 */
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { SyncResponse } from '../../../edge-api/src/contract/sync.ts';
import { isStaffRole, type Role } from '../../../edge-api/src/contract/users.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import type { Ticket } from '../../../edge-api/src/contract/tickets.ts';
import { hasCode } from '../lib/app-error.ts';
import { CURSOR_KEY, getPublicDb, readMeta, type SyncedTable, type UserDb } from './local-db.ts';
import { baseKey, entryTargets, replaceServerCopy } from './outbox.ts';
import { fetchChanges, type SyncTransport } from './sync-transport.ts';
import { checkVaultSeal, keepWithheldSecrets, sealRows, withVaultSeal } from './vault-seal.ts';
import { readVault } from './vault-session.ts';

/** The user's role as last pulled (meta key): a move between customer and staff replaces the copy. */
const ROLE_KEY = 'role';

/** The cursor of the next page, or null when this answer was the last one. */
function nextCursor(answer: SyncResponse, cursor: number): number | null {
  if (!answer.hasMore) return null;
  // A server that promises more without moving on would keep this loop going for ever.
  if (!answer.reset && answer.cursor <= cursor) throw new Error(`Sync did not move past ${cursor}`);
  return answer.cursor;
}

/** Services and settings, for anyone. */
export async function pullPublic(transport: SyncTransport): Promise<void> {
  const db = getPublicDb();
  let cursor: number | null = (await readMeta<number>(db, CURSOR_KEY)) ?? 0;
  // Page by page, each in its own transaction: an interrupted first pull resumes where it stopped.
  while (cursor !== null) {
    const answer = await fetchChanges(transport, 'public', cursor);
    await db.transaction('rw', [db.services, db.settings, db.meta], async () => {
      if (answer.reset) await db.services.clear();
      if (answer.changes.services?.length) await db.services.bulkPut(answer.changes.services);
      if (answer.deleted.services?.length) await db.services.bulkDelete(answer.deleted.services);
      const settings = answer.changes.settings?.[0];
      if (settings) await db.settings.put({ ...settings, id: 'site' });
      await db.meta.put({ key: CURSOR_KEY, value: answer.cursor });
    });
    cursor = nextCursor(answer, cursor);
  }
}

/**
 * The signed-in user's own rows (staff: the working set). `onOwnOrders` sees each page's orders of this
 * user, so the engine can keep their proof images for offline use.
 */
export async function pullPrivate(
  transport: SyncTransport,
  userId: string,
  db: UserDb,
  onOwnOrders: (orders: Order[]) => void,
  betweenPages: () => Promise<void> = async () => {},
): Promise<void> {
  let cursor: number | null = (await readMeta<number>(db, CURSOR_KEY)) ?? 0;
  // A role change between customer and staff changes what this user may hold, so the copy is then
  // replaced whole, once.
  let wipeNext = false;
  let restarted = false;
  while (cursor !== null) {
    // Another account signed in meanwhile: its rows must never land in this user's database.
    if ((await transport.sessionUserId()) !== userId) return;
    let answer: SyncResponse;
    // Names this device's vault to the server (decision 182): its delivered secrets come sealed to it.
    await readVault(db);
    try {
      answer = await fetchChanges(transport, 'private', cursor);
    } catch (error) {
      // Signed up a moment ago: the user record is being saved; nothing private to hold yet.
      if (hasCode(error, 'forbidden')) return;
      throw error;
    }
    if ((await transport.sessionUserId()) !== userId) return;
    const roleChanged = await applyPrivate(db, userId, answer, answer.reset || wipeNext);
    onOwnOrders((answer.changes.orders ?? []).filter((order) => order.userId === userId));
    wipeNext = false;
    if (roleChanged) {
      if (restarted) return;
      restarted = true;
      wipeNext = true;
      cursor = 0;
      continue;
    }
    cursor = nextCursor(answer, cursor);
    // A first pull of a large shop takes many pages: a change made meanwhile goes out between them
    // instead of waiting for the last one.
    if (cursor !== null) await betweenPages();
  }
}

/**
 * Applies one pull in one transaction; answers whether the user moved between customer and staff. Its
 * secret fields are sealed first when the device's vault is on (decision 068).
 */
function applyPrivate(db: UserDb, userId: string, received: SyncResponse, wipe: boolean): Promise<boolean> {
  return withVaultSeal(db, async (seal) => {
    const changes = {
      ...received.changes,
      orders: await sealRows(seal, 'orders', received.changes.orders),
      wiseStocks: await sealRows(seal, 'wiseStocks', received.changes.wiseStocks),
      serviceStocks: await sealRows(seal, 'serviceStocks', received.changes.serviceStocks),
    };
    return applySealed(db, userId, { ...received, changes }, wipe, () => checkVaultSeal(db, seal));
  });
}

async function applySealed(db: UserDb, userId: string, answer: SyncResponse, wipe: boolean, checkSeal: () => Promise<void>): Promise<boolean> {
  return db.transaction('rw', [db.users, db.orders, db.wiseStocks, db.notifications, db.serviceStocks, db.tickets, db.outbox, db.meta], async () => {
    await checkSeal();
    const pending = await db.outbox.where('status').equals('pending').toArray();
    const queued = new Set(pending.flatMap(entryTargets).map(baseKey));
    if (wipe) {
      await db.users.clear();
      await db.notifications.clear();
      await db.serviceStocks.clear();
      for (const table of [db.orders, db.wiseStocks, db.tickets] as const) {
        const name = table === db.orders ? 'orders' : table === db.wiseStocks ? 'wiseStocks' : 'tickets';
        const ids = (await table.toCollection().primaryKeys()) as string[];
        await table.bulkDelete(ids.filter((id) => !queued.has(baseKey({ table: name, id }))));
      }
    }
    if (answer.changes.users?.length) await db.users.bulkPut(answer.changes.users);
    if (answer.deleted.users?.length) await db.users.bulkDelete(answer.deleted.users);
    await applyRows(db, 'orders', await keepWithheldSecrets(db, answer.changes.orders), answer.deleted.orders, queued);
    await applyRows(db, 'wiseStocks', answer.changes.wiseStocks, answer.deleted.wiseStocks, queued);
    // Support tickets (decision 170): a ticket with a reply still queued keeps its pending message until it is sent.
    await applyRows(db, 'tickets', answer.changes.tickets, answer.deleted.tickets, queued);
    // Notifications change only on the server (marking read answers the rows): no outbox to respect.
    if (answer.changes.notifications?.length) await db.notifications.bulkPut(answer.changes.notifications);
    if (answer.deleted.notifications?.length) await db.notifications.bulkDelete(answer.deleted.notifications);
    // A service's own stock (decision 072) changes on the server only, as notifications.
    if (answer.changes.serviceStocks?.length) await db.serviceStocks.bulkPut(answer.changes.serviceStocks);
    if (answer.deleted.serviceStocks?.length) await db.serviceStocks.bulkDelete(answer.deleted.serviceStocks);

    const me = answer.changes.users?.find((user) => user.uid === userId);
    const knownRole = await readMeta<Role>(db, ROLE_KEY);
    if (me) await db.meta.put({ key: ROLE_KEY, value: me.userRole });
    await db.meta.put({ key: CURSOR_KEY, value: answer.cursor });
    return !wipe && !!me && knownRole !== undefined && isStaffRole(knownRole) !== isStaffRole(me.userRole);
  });
}

async function applyRows(db: UserDb, table: SyncedTable, rows: (Order | WiseStock | Ticket)[] | undefined, deleted: string[] | undefined, queued: Set<string>) {
  const store = db.table(table);
  const isQueued = (id: string) => queued.has(baseKey({ table, id }));
  // Never over a row with changes still waiting: the server's copy is kept for when they are done.
  for (const row of rows ?? []) if (isQueued(row.id)) await replaceServerCopy(db, { table, id: row.id }, row);
  for (const id of deleted ?? []) if (isQueued(id)) await replaceServerCopy(db, { table, id }, null);
  await store.bulkPut((rows ?? []).filter((row) => !isQueued(row.id)));
  await store.bulkDelete((deleted ?? []).filter((id) => !isQueued(id)));
}
