import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ticketStatuses, ticketStatusLabels, type Ticket, type TicketStatus } from '../../../../edge-api/src/contract/tickets.ts';
import { isStaffRole } from '../../../../edge-api/src/contract/users.ts';
import { EmptyState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { assign, makeWarrantyReport, markRead, removeTicket, ticketFromHash, useDeviceTickets } from './support-data.ts';
import { TicketList } from './ticket-list.tsx';
import { TicketThread } from './ticket-thread.tsx';

/** /dashboard/tickets: staff's queue of support tickets (decision 169), as synced to this device. */
export function StaffTicketsPage() {
  usePageTitle('Support Tickets');
  const auth = useAuth();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const { online } = useSyncStatus();
  const pendingIds = usePendingIds();
  const [filter, setFilter] = useState<TicketStatus | 'all'>('open');
  const all = useDeviceTickets();
  const selected = ticketFromHash(hash);
  const ticket = all?.find((t) => t.id === selected) ?? null;
  const unread = ticket?.unreadByStaff ?? 0;
  useEffect(() => {
    if (ticket && unread > 0 && online) markRead(ticket.id).catch(() => {});
  }, [ticket?.id, unread, online]); // eslint-disable-line react-hooks/exhaustive-deps -- the ticket's id and count say when

  if (auth.status !== 'signedIn') return null;
  const shown = all?.filter((t) => filter === 'all' || t.status === filter);
  const count = (status: TicketStatus) => all?.filter((t) => t.status === status).length ?? 0;
  const unreadTotal = all?.filter((t) => t.unreadByStaff > 0).length ?? 0;

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <header>
        <h1 className="text-2xl font-bold">Support Tickets</h1>
        <p className="text-base-content/80" data-testid="tickets-unread">
          <strong>{unreadTotal}</strong> with unread customer messages
        </p>
      </header>
      {!online && (
        <p className="alert alert-info">
          Offline: tickets as last synced. Replies are sent when the connection is back; assigning and warranty reports need a connection.
        </p>
      )}
      <div role="group" aria-label="Filter tickets" className="flex flex-wrap gap-2">
        {(['all', ...ticketStatuses] as const).map((status) => (
          <button
            key={status}
            type="button"
            aria-pressed={filter === status}
            className={`btn btn-sm ${filter === status ? 'btn-primary' : 'btn-outline'}`}
            onClick={() => setFilter(status)}
          >
            {status === 'all' ? `All (${all?.length ?? 0})` : `${ticketStatusLabels[status]} (${count(status)})`}
          </button>
        ))}
      </div>
      {shown === undefined ? (
        <LoadingState text="Loading tickets..." />
      ) : shown.length === 0 ? (
        <EmptyState title="No tickets here" text="Tickets customers open appear here." />
      ) : (
        <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <TicketList
            tickets={shown}
            selected={selected}
            unread={(t) => t.unreadByStaff}
            onSelect={(id) => void navigate({ hash: `ticket-${id}` })}
            showCustomer
          />
          <div>
            {ticket && (
              <TicketThread ticket={ticket} userId={auth.user.id} pending={pendingIds.has(ticket.id)}>
                <StaffActions ticket={ticket} online={online} onDeleted={() => void navigate({ hash: '' })} />
              </TicketThread>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** Assign, make a warranty report, delete (admins): each needs the server, so each needs a connection. */
function StaffActions({ ticket, online, onDeleted }: { ticket: Ticket; online: boolean; onDeleted: () => void }) {
  const db = useUserDb();
  const { can } = useAuthorization();
  const id = useId();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const staff = useLiveQuery(async () => (db ? (await db.users.toArray()).filter((u) => isStaffRole(u.userRole)) : []), [db]) ?? [];
  const run = (work: () => Promise<void>, done: string) => {
    setMessage(null);
    work()
      .then(() => setMessage({ ok: true, text: done }))
      .catch((error: unknown) => setMessage({ ok: false, text: error instanceof Error ? error.message : 'That did not work. Try again.' }));
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${id}-assignee`} className="mb-1 block text-sm font-medium">
          Assigned to
        </label>
        <select
          id={`${id}-assignee`}
          className="select select-bordered select-sm"
          disabled={!online}
          value={ticket.assigneeId ?? ''}
          onChange={(event) => run(() => assign(ticket.id, event.target.value || null), 'Assigned.')}
        >
          <option value="">Nobody</option>
          {staff.map((user) => (
            <option key={user.uid} value={user.uid}>
              {user.displayName || user.email}
            </option>
          ))}
        </select>
      </div>
      {ticket.orderId && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={!online}
          onClick={() => run(() => makeWarrantyReport(ticket.id), 'Warranty report made; the customer is told.')}
        >
          Make warranty report
        </button>
      )}
      {can('users:manage') && (
        <button
          type="button"
          className="btn btn-error btn-outline btn-sm"
          disabled={!online}
          onClick={() => window.confirm('Delete this ticket for everyone?') && run(() => removeTicket(ticket.id).then(onDeleted), 'Deleted.')}
        >
          Delete ticket
        </button>
      )}
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={`w-full ${message.ok ? 'text-success' : 'text-error'}`}>
          {message.text}
        </p>
      )}
    </div>
  );
}
