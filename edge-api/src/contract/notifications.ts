/**
 * Staff notifications: the dashboard bell (issue 16, item 7; decision 062). One row per event, shared by
 * all staff; each staff member reads it or not on their own.
 */
export const notificationKinds = [
  'new_order',
  'payment_check',
  'problem_report',
  'low_stock',
  'no_stock',
  'payment_problem',
  'refund',
  'reveal_budget',
  'ticket',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/**
 * Kinds only admins get (list, unread counts, sync): `reveal_budget` names a staff member reading many
 * stock passwords (decision 160), which the moderator concerned, or whoever holds their session, should
 * not be told.
 */
export const adminOnlyNotificationKinds: readonly NotificationKind[] = ['reveal_budget'];

export interface StaffNotification {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  orderId: string | null;
  serviceId: string | null;
  /** The condition is over (stock was added, the waiting order was delivered): shown, but no longer a warning. */
  resolved: boolean;
  createdAt: string;
  /** When the signed-in staff member read it; null: unread. */
  readAt: string | null;
  version: number;
}

/** GET /api/notifications: the newest notifications with the caller's read state and unread counts. */
export interface NotificationList {
  notifications: StaffNotification[];
  unread: number;
  unreadByKind: Partial<Record<NotificationKind, number>>;
}

/** POST /api/notifications/read: how many became read now. */
export interface NotificationsRead {
  read: number;
}

/** The most notifications GET /api/notifications answers. */
export const NOTIFICATION_LIST_MAX = 200;
