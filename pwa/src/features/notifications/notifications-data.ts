import { useLiveQuery } from 'dexie-react-hooks';
import type { NotificationKind, StaffNotification } from '../../../../edge-api/src/contract/notifications.ts';
import { useUserDb } from '../../db/hooks.ts';
import type { UserDb } from '../../db/local-db.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { lowStockLink, type StockAccess } from './low-stock-target.ts';

/** How each kind of notification is named in the centre. */
export const kindLabels: Record<NotificationKind, string> = {
  new_order: 'New order',
  payment_check: 'Payment check',
  problem_report: 'Problem report',
  low_stock: 'Low stock',
  no_stock: 'No stock to deliver',
  payment_problem: 'Payment to decide',
  refund: 'Refund',
  reveal_budget: 'Password reveals',
  ticket: 'Support ticket',
};

export const kindLabel = (kind: string) => kindLabels[kind as NotificationKind] ?? kind;

/** Where staff act on a notification; a low-stock one by who they are and which stock ran low (decision 197). */
export function notificationLink(notification: Pick<StaffNotification, 'kind' | 'orderId' | 'serviceId'>, stock: StockAccess): string | null {
  if (notification.kind === 'low_stock') return lowStockLink(notification, stock);
  // A staff member reading many stock passwords (decision 160): their role is changed in Users.
  if (notification.kind === 'reveal_budget') return '/dashboard/admin-users';
  if (notification.orderId) return `/dashboard?search=${notification.orderId.slice(-8)}`;
  return null;
}

/** The notifications synced to this device, newest first; undefined while read. */
export function useDeviceNotifications(): StaffNotification[] | undefined {
  const db = useUserDb();
  return useLiveQuery(async () => (db ? db.notifications.orderBy('createdAt').reverse().limit(200).toArray() : []), [db]);
}

/** Unread notifications on this device. */
export const unreadOf = (notifications: readonly StaffNotification[]) => notifications.filter((n) => n.readAt === null);

/** Open low-stock warnings: the dashboard's banner. */
export const openLowStock = (notifications: readonly StaffNotification[]) => notifications.filter((n) => n.kind === 'low_stock' && !n.resolved);

/**
 * Marks notifications read on the server (online only), then on this device at once; the next pull
 * brings the server's rows, with their versions.
 */
export async function markNotificationsRead(db: UserDb, ids: readonly string[] | 'all'): Promise<void> {
  await unwrap(api.notifications.read.$post({ json: ids === 'all' ? { all: true } : { ids: [...ids] } }));
  const at = new Date().toISOString();
  await db.transaction('rw', db.notifications, async () => {
    const rows =
      ids === 'all'
        ? await db.notifications.filter((n) => n.readAt === null).toArray()
        : ((await db.notifications.bulkGet([...ids])).filter(Boolean) as StaffNotification[]);
    await db.notifications.bulkPut(rows.filter((n) => n.readAt === null).map((n) => ({ ...n, readAt: at })));
  });
  requestSync().catch((error: unknown) => console.warn('Sync after marking notifications read failed', error));
}
