import { ticketStatusLabels, type Ticket } from '../../../../edge-api/src/contract/tickets.ts';
import { formatDateTime } from '../../lib/format.ts';

/** Tickets as buttons that open their thread; `unread` is the viewer's side's count. */
export function TicketList({
  tickets,
  selected,
  unread,
  onSelect,
  showCustomer = false,
}: {
  tickets: Ticket[];
  selected: string | null;
  unread: (t: Ticket) => number;
  onSelect: (id: string) => void;
  showCustomer?: boolean;
}) {
  return (
    <ul className="space-y-2" aria-label="Tickets">
      {tickets.map((ticket) => {
        const count = unread(ticket);
        return (
          <li key={ticket.id}>
            <button
              type="button"
              className={`w-full rounded-box border p-3 text-left ${ticket.id === selected ? 'border-primary bg-primary/10' : 'border-base-300 bg-base-100'}`}
              aria-current={ticket.id === selected ? 'true' : undefined}
              onClick={() => onSelect(ticket.id)}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-semibold break-words">{ticket.subject}</span>
                {count > 0 && <span className="badge badge-primary">{count} unread</span>}
              </span>
              <span className="block text-sm text-base-content/80">
                {ticketStatusLabels[ticket.status]}
                {showCustomer && ` · ${ticket.userName || ticket.userEmail}`}
                {ticket.assigneeName && showCustomer && ` · ${ticket.assigneeName}`} · {formatDateTime(ticket.lastMessageAt)}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
