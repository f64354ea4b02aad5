import { sql, type Transaction } from 'kysely';
import { adminOnlyNotificationKinds, type NotificationKind } from '../contract/notifications.ts';
import type { Database, UserRow } from './schema.ts';
import type { VersionWindow } from './sync.ts';
import { writeTime } from './versions.ts';
import type { Db } from './handle.ts';

export interface NewNotification {
  kind: NotificationKind;
  title: string;
  body?: string;
  orderId?: string | null;
  serviceId?: string | null;
  /** At most one open notification per key: a second one while the first is open is not written. */
  dedupeKey?: string;
}

/**
 * Tells every staff member, in the caller's transaction (with its version): the notification exists
 * exactly when the change that caused it commits. With a dedupe key, nothing is written while a
 * notification of that key is still open; answers whether one was written.
 */
export async function notifyStaff(trx: Transaction<Database>, version: number, notice: NewNotification): Promise<boolean> {
  const id = crypto.randomUUID();
  const result = await sql<{ id: string }>`
    insert into notifications (id, kind, title, body, order_id, service_id, dedupe_key, version)
    values (${id}, ${notice.kind}, ${notice.title}, ${notice.body ?? ''}, ${notice.orderId ?? null}, ${notice.serviceId ?? null}, ${notice.dedupeKey ?? null}, ${version})
    on conflict (dedupe_key) where resolved_at is null and dedupe_key is not null do nothing
    returning id`.execute(trx);
  return result.rows.length > 0;
}

/** Closes the open notification of a key (the condition is over); answers whether there was one. */
export async function resolveNotification(trx: Transaction<Database>, version: number, dedupeKey: string): Promise<boolean> {
  const row = await trx
    .updateTable('notifications')
    .set({ resolved_at: writeTime(), updated_at: writeTime(), version })
    .where('dedupe_key', '=', dedupeKey)
    .where('resolved_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Who reads notifications: a moderator never gets the kinds meant for admins (decision 160). */
export type NotificationReader = Pick<UserRow, 'id' | 'user_role'>;

const hiddenFrom = (reader: NotificationReader) => (reader.user_role === 'admin' ? [] : [...adminOnlyNotificationKinds]);

/** The notifications one staff member may see, joined to their reading of each. */
function seenBy(db: Db, reader: NotificationReader) {
  const hidden = hiddenFrom(reader);
  return db
    .selectFrom('notifications as n')
    .leftJoin('notification_reads as r', (join) => join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', reader.id))
    .$if(hidden.length > 0, (qb) => qb.where('n.kind', 'not in', hidden));
}

/** Notifications one staff member may see, with their read time; `version` is the later of the two rows' versions. */
function withReadsOf(db: Db, reader: NotificationReader) {
  return seenBy(db, reader).select([
    'n.id',
    'n.kind',
    'n.title',
    'n.body',
    'n.order_id',
    'n.service_id',
    'n.resolved_at',
    'n.created_at',
    'n.deleted_at',
    'r.read_at',
    sql<number>`greatest(n.version, coalesce(r.version, 0))`.as('version'),
  ]);
}

export type NotificationView = Awaited<ReturnType<typeof listNotifications>>[number];

/** The newest live notifications for one staff member. */
export function listNotifications(db: Db, reader: NotificationReader, limit: number) {
  return withReadsOf(db, reader).where('n.deleted_at', 'is', null).orderBy('n.created_at', 'desc').orderBy('n.id').limit(limit).execute();
}

/** Unread live notifications of one staff member, by kind. */
export async function unreadCounts(db: Db, reader: NotificationReader): Promise<Map<string, number>> {
  const rows = await seenBy(db, reader)
    .select(['n.kind', sql<number>`count(*)::int`.as('count')])
    .where('n.deleted_at', 'is', null)
    .where('r.read_at', 'is', null)
    .groupBy('n.kind')
    .execute();
  return new Map(rows.map((row) => [row.kind, Number(row.count)]));
}

/** What changed for one staff member in a sync window: a notification, or their reading of it. */
export function changedNotifications(db: Db, window: VersionWindow, reader: NotificationReader) {
  const changed = sql<number>`greatest(n.version, coalesce(r.version, 0))`;
  return withReadsOf(db, reader)
    .where(changed, '>', window.after)
    .where(changed, '<=', window.upTo)
    .$if(window.after === 0, (qb) => qb.where('n.deleted_at', 'is', null))
    .orderBy(changed)
    .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
    .execute();
}

/** Marks notifications read for one staff member (all live ones when `ids` is null); answers how many became read. */
export async function markRead(trx: Transaction<Database>, reader: NotificationReader, ids: readonly string[] | null, version: number): Promise<number> {
  const hidden = hiddenFrom(reader);
  const result = await sql`
    insert into notification_reads (notification_id, user_id, version)
    select n.id, ${reader.id}, ${version} from notifications n
    where n.deleted_at is null ${ids === null ? sql`` : sql`and n.id = any(${sql.val([...ids])}::uuid[])`}
    ${hidden.length > 0 ? sql`and n.kind <> all(${sql.val(hidden)}::text[])` : sql``}
    on conflict (notification_id, user_id) do nothing`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}
