import type { NotificationKind, StaffNotification } from '../contract/notifications.ts';
import type { NotificationView } from '../db/notifications.ts';

export const toStaffNotification = (row: NotificationView): StaffNotification => ({
  id: row.id,
  kind: row.kind as NotificationKind,
  title: row.title,
  body: row.body,
  orderId: row.order_id,
  serviceId: row.service_id,
  resolved: row.resolved_at !== null,
  createdAt: new Date(row.created_at).toISOString(),
  readAt: row.read_at === null ? null : new Date(row.read_at).toISOString(),
  version: Number(row.version),
});
