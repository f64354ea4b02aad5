import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useUserDb } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useStockAccess } from './low-stock-target.ts';
import { NotificationItem } from './notification-item.tsx';
import { markNotificationsRead, unreadOf, useDeviceNotifications } from './notifications-data.ts';

/** The newest notifications in the bell's panel, under what needs attention now. */
export function NotificationPanel() {
  const db = useUserDb();
  const notifications = useDeviceNotifications();
  const { online } = useSyncStatus();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const stock = useStockAccess();
  if (notifications === undefined) return null;
  const unread = unreadOf(notifications).length;

  const markAll = async () => {
    if (!db) return;
    setBusy(true);
    setFailed(false);
    try {
      await markNotificationsRead(db, 'all');
    } catch (error) {
      console.error('Failed to mark notifications read', error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Notifications" className="mt-4 border-t border-base-300 pt-3">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="font-bold">
          Notifications <span className="font-normal text-base-content/70">({unread} unread)</span>
        </h2>
        {unread > 0 && (
          <button type="button" className="btn btn-ghost btn-xs" disabled={!online || busy} onClick={() => void markAll()}>
            Mark all read
          </button>
        )}
      </div>
      {failed && (
        <p role="alert" className="text-sm text-error">
          Could not mark them read. Try again.
        </p>
      )}
      {notifications.length === 0 ? (
        <p className="text-sm text-base-content/70">No notifications yet.</p>
      ) : (
        <ul className="space-y-2">
          {notifications.slice(0, 5).map((notification) => (
            <NotificationItem key={notification.id} notification={notification} stock={stock} compact />
          ))}
        </ul>
      )}
      <Link to="/dashboard/notifications" className="link link-primary mt-3 inline-flex min-h-11 items-center text-sm">
        All notifications
      </Link>
    </section>
  );
}
