import { resolveImageUrl, type BlobStore } from '../blobs/blob-store.ts';
import type { Ticket, TicketMessage } from '../contract/tickets.ts';
import type { TicketMessageRow } from '../db/ticket-schema.ts';
import type { TicketView } from '../db/tickets.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

async function presentMessage(row: TicketMessageRow, blobs: BlobStore): Promise<TicketMessage> {
  return {
    id: row.id,
    side: row.author_side,
    authorId: row.author_id,
    authorName: row.author_name,
    body: row.body,
    images: await Promise.all(row.images.map(async (path) => ({ path, url: await resolveImageUrl(blobs, path) }))),
    createdAt: iso(row.created_at),
  };
}

/** A ticket with its messages, as its customer and staff both see it (nothing in it is secret from either). */
export async function presentTicket(view: TicketView, messages: readonly TicketMessageRow[], blobs: BlobStore): Promise<Ticket> {
  return {
    id: view.id,
    userId: view.user_id,
    userName: view.user_name,
    userEmail: view.user_email,
    orderId: view.order_id,
    orderTitle: view.order_title,
    subject: view.subject,
    status: view.status,
    assigneeId: view.assignee_id,
    assigneeName: view.assignee_name,
    unreadByCustomer: view.unread_by_customer,
    unreadByStaff: view.unread_by_staff,
    lastMessageAt: iso(view.last_message_at),
    closedAt: view.closed_at ? iso(view.closed_at) : null,
    createdAt: iso(view.created_at),
    updatedAt: iso(view.updated_at),
    version: Number(view.version),
    messages: await Promise.all(messages.filter((m) => m.ticket_id === view.id).map((m) => presentMessage(m, blobs))),
  };
}
