import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { EmptyState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useAuth, type SignedInUser } from '../../lib/auth.tsx';
import { NewTicketForm } from './new-ticket-form.tsx';
import { markRead, ticketFromHash, useDeviceTickets } from './support-data.ts';
import { TicketList } from './ticket-list.tsx';
import { TicketThread } from './ticket-thread.tsx';

/** /support: the customer's tickets, readable offline, answered offline too (decision 170). */
export function SupportPage() {
  usePageTitle('Support');
  const auth = useAuth();
  const location = useLocation();
  if (auth.status !== 'signedIn') {
    return <Navigate to="/register" replace state={{ from: location, reason: 'Create an account, or sign in, to contact support.' }} />;
  }
  return <Support user={auth.user} />;
}

function Support({ user }: { user: SignedInUser }) {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const db = useUserDb();
  const { online } = useSyncStatus();
  const pendingIds = usePendingIds();
  const all = useDeviceTickets();
  const tickets = all?.filter((ticket) => ticket.userId === user.id);
  const orderId = params.get('order') ?? undefined;
  const order = useLiveQuery(async () => (orderId && db ? db.orders.get(orderId) : undefined), [db, orderId]);
  const [creating, setCreating] = useState(Boolean(orderId));
  const selected = ticketFromHash(hash);
  const ticket = tickets?.find((t) => t.id === selected) ?? null;
  const threadRef = useRef<HTMLDivElement>(null);

  // Opening a thread reads it: the unread count goes once the server knows (online only).
  const unread = ticket?.unreadByCustomer ?? 0;
  useEffect(() => {
    if (ticket && unread > 0 && online) markRead(ticket.id).catch(() => {});
  }, [ticket?.id, unread, online]); // eslint-disable-line react-hooks/exhaustive-deps -- the ticket's id and count say when

  const open = (id: string) => {
    setCreating(false);
    void navigate({ pathname: '/support', hash: `ticket-${id}` });
    requestAnimationFrame(() => threadRef.current?.querySelector('h2')?.focus());
  };

  return (
    <div className="container mx-auto max-w-5xl space-y-4 px-4 py-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Support</h1>
          <p className="text-base-content/80">Ask about an order or anything else. Replies stay here, also offline.</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New ticket
        </button>
      </header>
      {!online && <p className="alert alert-info">Offline: your tickets are as last synced. A reply you write now is sent when you are back online.</p>}
      {creating && (
        <NewTicketForm userId={user.id} orderId={order?.id} orderLabel={order ? `#${order.id.slice(-8)} (${order.title})` : undefined} onOpened={open} />
      )}
      {tickets === undefined ? (
        <LoadingState text="Loading tickets..." />
      ) : tickets.length === 0 && !creating ? (
        <EmptyState title="No tickets yet" text="Open a ticket and the shop answers here." />
      ) : (
        <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <TicketList tickets={tickets} selected={selected} unread={(t) => t.unreadByCustomer} onSelect={open} />
          <div ref={threadRef}>{ticket && <TicketThread ticket={ticket} userId={user.id} pending={pendingIds.has(ticket.id)} />}</div>
        </div>
      )}
    </div>
  );
}
