import { Hono } from 'hono';
import { markNotificationsReadBody } from '../contract/notification-requests.ts';
import { NOTIFICATION_LIST_MAX, type NotificationKind, type NotificationList, type NotificationsRead } from '../contract/notifications.ts';
import { listNotifications, markRead, unreadCounts } from '../db/notifications.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { requireStaff, type AppEnv } from '../middleware/session.ts';
import { toStaffNotification } from '../presenters/notifications.ts';

/** /api/notifications: the staff's notification centre (decision 062). Devices get the same rows by sync. */
export function notificationRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get('/', requireStaff, async (c) => {
      const me = c.get('user');
      const [rows, counts] = await Promise.all([listNotifications(deps.db, me, NOTIFICATION_LIST_MAX), unreadCounts(deps.db, me)]);
      const unreadByKind = Object.fromEntries(counts) as Partial<Record<NotificationKind, number>>;
      const answer: NotificationList = {
        notifications: rows.map(toStaffNotification),
        unread: [...counts.values()].reduce((sum, n) => sum + n, 0),
        unreadByKind,
      };
      c.header('Cache-Control', 'no-store');
      return c.json(answer);
    })
    .post('/read', requireStaff, validate('json', markNotificationsReadBody), async (c) => {
      const me = c.get('user');
      const body = c.req.valid('json');
      const read = await deps.db.transaction().execute(async (trx) => markRead(trx, me, 'ids' in body ? body.ids : null, await nextVersion(trx)));
      return c.json<NotificationsRead>({ read });
    });
}
