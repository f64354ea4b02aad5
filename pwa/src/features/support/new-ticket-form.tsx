import { useId, useState, type FormEvent } from 'react';
import { TICKET_IMAGES_MAX } from '../../../../edge-api/src/contract/tickets.ts';
import { openTicket } from '../../db/mutations.ts';
import { IMAGE_FILE_ACCEPT } from '../../lib/image-upload.ts';

/** The new ticket's fields, their faults, and its sending. */
function useNewTicket(userId: string, orderId: string | undefined, orderLabel: string | undefined, onOpened: (id: string) => void) {
  const [subject, setSubject] = useState(orderLabel ? `About order ${orderLabel}` : '');
  const [body, setBody] = useState('');
  const [pictures, setPictures] = useState<File[]>([]);
  const [errors, setErrors] = useState<{ subject?: string; body?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { ...(subject.trim() ? {} : { subject: 'Subject is required' }), ...(body.trim() ? {} : { body: 'Message is required' }) };
    setErrors(found);
    if (found.subject || found.body) return;
    const ticketId = crypto.randomUUID();
    void openTicket(userId, {
      id: ticketId,
      messageId: crypto.randomUUID(),
      subject: subject.trim(),
      body: body.trim(),
      ...(orderId ? { orderId } : {}),
      ...(pictures.length ? { pictures: pictures.slice(0, TICKET_IMAGES_MAX) } : {}),
    }).saved.then(() => onOpened(ticketId));
  };
  return { subject, setSubject, body, setBody, setPictures, errors, submit };
}

/** A new ticket: general, or about the order the page was opened from (?order=<id>). */
export function NewTicketForm({
  userId,
  orderId,
  orderLabel,
  onOpened,
}: {
  userId: string;
  orderId?: string;
  orderLabel?: string;
  onOpened: (id: string) => void;
}) {
  const { subject, setSubject, body, setBody, setPictures, errors, submit } = useNewTicket(userId, orderId, orderLabel, onOpened);
  const id = useId();

  return (
    <form onSubmit={submit} className="space-y-3 rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        New ticket
      </h2>
      {orderLabel && <p className="text-sm">About order {orderLabel}</p>}
      <div>
        <label htmlFor={`${id}-subject`} className="mb-1 block font-medium">
          Subject
        </label>
        <input
          id={`${id}-subject`}
          className="input input-bordered w-full"
          maxLength={200}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={errors.subject ? `${id}-subject-error` : undefined}
        />
        {errors.subject && (
          <p id={`${id}-subject-error`} className="text-error">
            {errors.subject}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-body`} className="mb-1 block font-medium">
          Message
        </label>
        <textarea
          id={`${id}-body`}
          className="textarea textarea-bordered w-full"
          rows={4}
          maxLength={5000}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${id}-body-error` : undefined}
        />
        {errors.body && (
          <p id={`${id}-body-error`} className="text-error">
            {errors.body}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-pictures`} className="mb-1 block font-medium">
          Pictures (optional, up to {TICKET_IMAGES_MAX})
        </label>
        <input
          id={`${id}-pictures`}
          type="file"
          multiple
          accept={IMAGE_FILE_ACCEPT}
          className="file-input file-input-bordered w-full"
          onChange={(event) => setPictures([...(event.target.files ?? [])])}
        />
      </div>
      <button type="submit" className="btn btn-primary">
        Open ticket
      </button>
    </form>
  );
}
