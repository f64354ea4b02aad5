import type { StaffNotification } from '../../../../edge-api/src/contract/notifications.ts';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { dateFormat } from '../../lib/format.ts';
import type { StockAccess } from './low-stock-target.ts';
import { kindLabel, notificationLink } from './notifications-data.ts';

const when = (iso: string) => dateFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** One notification: its kind, title, text and time, unread marked in words as well as colour. */
export function NotificationItem({
  notification,
  stock,
  compact = false,
  action,
}: {
  notification: StaffNotification;
  stock: StockAccess;
  compact?: boolean;
  action?: ReactNode;
}) {
  const unread = notification.readAt === null;
  const link = notificationLink(notification, stock);
  return (
    <li className={`rounded-box border p-3 ${unread ? 'border-primary bg-primary/5' : 'border-base-300'}`} data-testid="notification">
      <div className="flex flex-wrap items-center gap-2">
        <span className="badge badge-outline badge-sm">{kindLabel(notification.kind)}</span>
        {unread && <span className="badge badge-primary badge-sm">Unread</span>}
        {notification.resolved && <span className="badge badge-ghost badge-sm">Resolved</span>}
      </div>
      <p className="mt-1 font-semibold">
        {link ? (
          <Link to={link} className="link link-hover inline-flex min-h-6 items-center">
            {notification.title}
          </Link>
        ) : (
          notification.title
        )}
      </p>
      {!compact && notification.body && <p className="text-sm text-base-content/80">{notification.body}</p>}
      {compact && notification.body && <p className="line-clamp-2 text-sm text-base-content/80">{notification.body}</p>}
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
        <time dateTime={notification.createdAt} className="text-xs text-base-content/70">
          {when(notification.createdAt)}
        </time>
        {action}
      </div>
    </li>
  );
}
