import { useState } from 'react';
import { EmptyState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useUserDb } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useStockAccess } from './low-stock-target.ts';
import { NotificationItem } from './notification-item.tsx';
import { kindLabels, markNotificationsRead, unreadOf, useDeviceNotifications } from './notifications-data.ts';

/** /dashboard/notifications: every notification synced to this device, with unread counts per kind. */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const db = useUserDb();
  const notifications = useDeviceNotifications();
  const { online } = useSyncStatus();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stock = useStockAccess();

  const mark = async (ids: readonly string[] | 'all') => {
    if (!db) return;
    setBusy(true);
    setError(null);
    try {
      await markNotificationsRead(db, ids);
    } catch (failure) {
      console.error('Failed to mark notifications read', failure);
      setError('Could not mark them read. Try again.');
    } finally {
      setBusy(false);
    }
  };

  const unread = notifications ? unreadOf(notifications) : [];
  const counts = Object.entries(kindLabels)
    .map(([kind, label]) => ({ kind, label, count: unread.filter((n) => n.kind === kind).length }))
    .filter((entry) => entry.count > 0);

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Notifications</h1>
          <p className="text-base-content/80">New orders, payments to check, problem reports and stock, as last synced to this device.</p>
        </div>
        <button type="button" className="btn btn-primary btn-sm" disabled={!online || busy || unread.length === 0} onClick={() => void mark('all')}>
          Mark all read
        </button>
      </header>
      {!online && <p className="alert alert-info">Offline: these are the notifications synced to this device. Marking them read needs a connection.</p>}
      {error && (
        <p role="alert" className="alert alert-error">
          {error}
        </p>
      )}
      {notifications === undefined ? (
        <LoadingState text="Loading notifications..." />
      ) : (
        <>
          <p data-testid="unread-summary">
            <strong>{unread.length}</strong> unread
            {counts.length > 0 && `: ${counts.map((entry) => `${entry.count} ${entry.label.toLowerCase()}`).join(', ')}`}
          </p>
          {notifications.length === 0 ? (
            <EmptyState title="No notifications yet" text="New orders, payment checks, problem reports and stock warnings appear here." />
          ) : (
            <ul className="space-y-3">
              {notifications.map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  stock={stock}
                  action={
                    notification.readAt === null ? (
                      <button type="button" className="btn btn-ghost btn-xs" disabled={!online || busy} onClick={() => void mark([notification.id])}>
                        Mark read<span className="sr-only">: {notification.title}</span>
                      </button>
                    ) : null
                  }
                />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
