import { useId, useState, type FormEvent } from 'react';
import { TICKET_IMAGES_MAX, ticketStatusLabels, type Ticket } from '../../../../edge-api/src/contract/tickets.ts';
import { IMAGE_FILE_ACCEPT } from '../../lib/image-upload.ts';
import { closeTicket, replyTicket } from '../../db/mutations.ts';
import { formatDateTime } from '../../lib/format.ts';

function ThreadHeader({ ticket, userId, pending, titleId }: { ticket: Ticket; userId: string; pending: boolean; titleId: string }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-2">
      <div>
        <h2 id={titleId} className="text-lg font-bold">
          {ticket.subject}
        </h2>
        <p className="text-sm text-base-content/80">
          {ticketStatusLabels[ticket.status]}
          {ticket.orderTitle && ` · Order ${ticket.orderTitle} #${ticket.orderId?.slice(-8)}`}
          {pending && <span className="badge badge-warning ml-2">Waiting to send</span>}
        </p>
      </div>
      {ticket.status !== 'closed' && (
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void closeTicket(userId, { ticketId: ticket.id })}>
          Close ticket
        </button>
      )}
    </header>
  );
}

function MessageList({ ticket, mySide }: { ticket: Ticket; mySide: 'customer' | 'staff' }) {
  return (
    <ol className="space-y-2" aria-label="Messages">
      {ticket.messages.map((message) => (
        <li key={message.id} className={`rounded-box p-3 ${message.side === mySide ? 'ml-6 bg-primary/10' : 'mr-6 bg-base-200'}`}>
          <p className="text-xs text-base-content/80">
            {message.side === 'staff' ? `${message.authorName || 'Support'} (shop)` : message.authorName || 'Customer'} · {formatDateTime(message.createdAt)}
          </p>
          <p className="whitespace-pre-wrap break-words">{message.body}</p>
          {message.images.map((image) => (
            <a key={image.path} href={image.url} target="_blank" rel="noreferrer" className="link">
              Attached picture
            </a>
          ))}
        </li>
      ))}
    </ol>
  );
}

/** Where the thread of a ticket is read and answered, by its customer or by staff. */
export function TicketThread({ ticket, userId, pending, children }: { ticket: Ticket; userId: string; pending: boolean; children?: React.ReactNode }) {
  const [body, setBody] = useState('');
  const [pictures, setPictures] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const mySide = ticket.userId === userId ? 'customer' : 'staff';

  const send = (event: FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    if (!text) {
      setError('Write a message first.');
      return;
    }
    setError(null);
    // Saved on this device at once; sent now, or when the connection is back (once).
    const picked = pictures.slice(0, TICKET_IMAGES_MAX);
    void replyTicket(userId, { ticketId: ticket.id, messageId: crypto.randomUUID(), body: text, ...(picked.length ? { pictures: picked } : {}) }).saved.then(
      () => {
        setBody('');
        setPictures([]);
      },
    );
  };

  return (
    <section aria-labelledby={`${fieldId}-title`} className="space-y-3 rounded-box border border-base-300 bg-base-100 p-4" data-testid="ticket-thread">
      <ThreadHeader ticket={ticket} userId={userId} pending={pending} titleId={`${fieldId}-title`} />
      {children}
      <MessageList ticket={ticket} mySide={mySide} />
      <form onSubmit={send} className="space-y-2">
        <label htmlFor={`${fieldId}-reply`} className="mb-1 block font-medium">
          {ticket.status === 'closed' ? 'Reply (reopens the ticket)' : 'Reply'}
        </label>
        <textarea
          id={`${fieldId}-reply`}
          className="textarea textarea-bordered w-full"
          rows={3}
          maxLength={5000}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
        />
        {error && (
          <p id={`${fieldId}-error`} role="alert" className="text-error">
            {error}
          </p>
        )}
        <label htmlFor={`${fieldId}-pictures`} className="mb-1 block text-sm font-medium">
          Pictures (optional, up to {TICKET_IMAGES_MAX})
        </label>
        <input
          id={`${fieldId}-pictures`}
          key={pictures.length === 0 ? 'empty' : 'chosen'}
          type="file"
          multiple
          accept={IMAGE_FILE_ACCEPT}
          className="file-input file-input-bordered file-input-sm w-full"
          onChange={(event) => setPictures([...(event.target.files ?? [])])}
        />
        <button type="submit" className="btn btn-primary">
          Send reply
        </button>
      </form>
    </section>
  );
}
