import { Dexie, type EntityTable } from 'dexie';
import type { StaffNotification } from '../../../edge-api/src/contract/notifications.ts';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../../../edge-api/src/contract/settings.ts';
import type { User } from '../../../edge-api/src/contract/users.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import type { ServiceStock } from '../../../edge-api/src/contract/service-stocks.ts';
import type { Ticket } from '../../../edge-api/src/contract/tickets.ts';
import { deleteCompactionSpare, restoreCompaction } from './vault-compact.ts';
import { deleteDeviceKeyFiles } from './device-seal.ts';
import { sealDeliveredOnce } from './device-seal-start.ts';

/** A change made on this device that the server has not confirmed yet. */
export interface OutboxEntry {
  /** Also the idempotency key the server sees: a replay returns the first answer. */
  id: string;
  name: MutationName;
  args: Record<string, unknown>;
  createdAt: string;
  status: 'pending' | 'failed';
  attempts: number;
  /** Why the server refused it, for the person who made it. */
  error?: string;
  /** The row the change is about, so screens can show it as pending. */
  target?: RowRef;
}

/** The user-database tables that outbox changes write to optimistically. */
export type SyncedTable = 'orders' | 'wiseStocks' | 'tickets';

/** One row of those tables. */
export interface RowRef {
  table: SyncedTable;
  id: string;
}

export type MutationName =
  | 'placeOrder'
  | 'setOrderStatus'
  | 'setPaymentStatus'
  | 'deliverOrder'
  | 'setStockStatus'
  | 'cancelOrder'
  | 'sendPaymentProof'
  | 'reportProblem'
  | 'declineReport'
  | 'logReveal'
  | 'openTicket'
  | 'replyTicket'
  | 'closeTicket';

export interface MetaEntry {
  key: string;
  value: unknown;
}

/** Where the last pull of a database ended (meta key). */
export const CURSOR_KEY = 'cursor';

export async function readMeta<T>(db: PublicDb | UserDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

/** A file delivered to one of the user's own orders, kept for offline reading (decision 069). */
export interface DeliveredFile {
  orderId: string;
  name: string;
  size: number;
  type: string;
  /** The file's bytes; sealed (a string) while the device's vault is on (decision 183). */
  bytes: ArrayBuffer | string;
  savedAt: string;
}

/** Public data anyone may see: the only database a signed-out visitor has. */
export class PublicDb extends Dexie {
  services!: EntityTable<Service, 'id'>;
  settings!: EntityTable<SiteSettings & { id: string }, 'id'>;
  meta!: EntityTable<MetaEntry, 'key'>;

  constructor(name = 'storefront-public') {
    super(name);
    this.version(1).stores({
      services: 'id, category, title',
      settings: 'id',
      meta: 'key',
    });
  }
}

/**
 * One signed-in user's data: profile, own orders with delivered credentials, and for staff the working
 * set (orders, stock, users). Deleted whole at logout.
 */
export class UserDb extends Dexie {
  users!: EntityTable<User, 'uid'>;
  orders!: EntityTable<Order, 'id'>;
  wiseStocks!: EntityTable<WiseStock, 'id'>;
  /** Staff only: the notification centre as last synced, with this user's read state (decision 062). */
  notifications!: EntityTable<StaffNotification, 'id'>;
  /** Files delivered to this user's own orders, fetched after the sync that brought them (decision 069). */
  deliveredFiles!: EntityTable<DeliveredFile, 'orderId'>;
  /** Staff only: stock kept for a service (decision 072), as last synced; changed on the server only. */
  serviceStocks!: EntityTable<ServiceStock, 'id'>;
  /** Support tickets with their messages (decision 170): the customer's own, every live one for staff. */
  tickets!: EntityTable<Ticket, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  meta!: EntityTable<MetaEntry, 'key'>;

  constructor(userId: string) {
    super(userDbName(userId));
    this.version(1).stores({
      users: 'uid, email, userRole',
      orders: 'id, userId, createdAt, orderStatus, paymentStatus',
      wiseStocks: 'id, status, wiseEmail',
      outbox: 'id, createdAt, status',
      meta: 'key',
    });
    // My Orders reads one page of a user's orders newest first from this index instead of reading every
    // order and sorting it: 5,000 orders open offline as fast as 30 (issue 11, item 6).
    this.version(2).stores({
      orders: 'id, userId, createdAt, orderStatus, paymentStatus, [userId+createdAt]',
    });
    this.version(3).stores({
      notifications: 'id, createdAt, kind',
    });
    this.version(4).stores({
      deliveredFiles: 'orderId',
    });
    this.version(5).stores({
      serviceStocks: 'id, serviceId, status',
    });

    // ---- Support tickets (issue 27, item 1; decision 170): helper "tickets". The lead renumbers at merge. ----
    this.version(6).stores({
      tickets: 'id, userId, status, lastMessageAt',
    });
    // ---- end of support tickets ----
    // A vault switch's rewrite of this database (decision 184) interrupted by a reload is finished first.
    this.on('ready', (vip) => restoreCompaction(vip), true);
  }
}

/**
 * The newest `limit` orders of one user, read newest first from the `[userId+createdAt]` index; rows
 * with the same creation time come in descending id order.
 */
export function newestOrdersOf(db: UserDb, userId: string, limit: number): Promise<Order[]> {
  return db.orders.where('[userId+createdAt]').between([userId, Dexie.minKey], [userId, Dexie.maxKey]).reverse().limit(limit).toArray();
}

export const userDbName = (userId: string) => `storefront-user-${userId}`;

let publicDb: PublicDb | undefined;
export const getPublicDb = () => (publicDb ??= new PublicDb());

const userDbs = new Map<string, UserDb>();
export function getUserDb(userId: string): UserDb {
  let db = userDbs.get(userId);
  if (!db) {
    db = new UserDb(userId);
    userDbs.set(userId, db);
    // Delivered secrets an older version kept in clear are sealed with the device key (decision 254).
    sealDeliveredOnce(db);
  }
  return db;
}

/** Logout: the user's whole database goes, credentials and queued changes included. */
export async function deleteUserDb(userId: string): Promise<void> {
  const db = userDbs.get(userId);
  userDbs.delete(userId);
  db?.close();
  // With the vault rewrite's spare (decision 184), if a rewrite was cut off: it holds the same rows.
  await Promise.all([Dexie.delete(userDbName(userId)), deleteCompactionSpare(userDbName(userId)), deleteDeviceKeyFiles(userDbName(userId))]);
}
