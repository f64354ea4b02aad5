import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BellIcon } from './icons.tsx';
import { useDismiss } from './use-dismiss.ts';

/** Something staff can act on now, with where to do it. */
export interface AttentionItem {
  id: string;
  /** How many of them; an item with none is not shown. */
  count: number;
  text: string;
  to: string;
}

export interface NotificationBellProps {
  /** Undefined while they are read from the device. */
  items: readonly AttentionItem[] | undefined;
  /** More of the panel below the items (where a notification centre's own list would go). */
  children?: ReactNode;
  /** Unread notifications, counted in the badge with the items. */
  unread?: number;
}

/**
 * The dashboard's bell: a button whose badge counts what waits for staff, opening a panel that lists it
 * with links to where it is done. A disclosure: Escape, a click beside it or a link chosen closes it.
 */
export function NotificationBell({ items, children, unread = 0 }: NotificationBellProps) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const summaryId = useId();
  const { pathname, search } = useLocation();
  useDismiss(open, () => setOpen(false), [containerRef], buttonRef);
  useEffect(() => setOpen(false), [pathname, search]);

  const shown = (items ?? []).filter((item) => item.count > 0);
  const total = shown.reduce((sum, item) => sum + item.count, 0) + unread;
  const summary =
    items === undefined
      ? 'Loading'
      : total === 0
        ? 'Nothing needs your attention'
        : `${total} ${total === 1 ? 'thing needs' : 'things need'} your attention${unread > 0 ? `, ${unread} unread ${unread === 1 ? 'notification' : 'notifications'}` : ''}`;

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-circle"
        aria-label="Notifications"
        aria-describedby={summaryId}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <BellIcon />
      </button>
      {/* Beside the button, not in it: its name stays "Notifications" and the count is read as its description. */}
      {total > 0 && (
        <span aria-hidden="true" className="badge badge-error badge-xs pointer-events-none absolute -top-0.5 -right-0.5 min-w-5 px-1 text-[0.65rem] font-bold">
          {total > 99 ? '99+' : total}
        </span>
      )}
      <span id={summaryId} className="sr-only">
        {summary}
      </span>
      <div
        id={panelId}
        hidden={!open}
        className="fixed inset-x-2 top-16 z-50 rounded-box bg-base-100 p-4 shadow-lg ring-1 ring-base-300 sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-80"
      >
        <h2 className="mb-2 font-bold">Needs your attention</h2>
        {items === undefined ? (
          <p className="text-sm text-base-content/70">Loading…</p>
        ) : shown.length === 0 ? (
          <p className="text-sm text-base-content/70">Nothing waits for you right now.</p>
        ) : (
          <ul className="menu w-full p-0">
            {shown.map((item) => (
              <li key={item.id}>
                <Link to={item.to} onClick={() => setOpen(false)} className="flex items-center justify-between gap-3">
                  <span>{item.text}</span>
                  <span className="badge badge-primary">{item.count}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {children}
      </div>
    </div>
  );
}
