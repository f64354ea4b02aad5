/**
 * Support tickets (issue 27, item 1; decision 169): a customer's conversation with the shop, about one of
 * their orders or general. The API's requests and the shape the API answers and the sync carries.
 */
import * as z from 'zod';
import { oneOf, queryText, requiredText, text, uuid } from './fields.ts';
import { listPageQuery } from './list-pages.ts';

/** open: the shop's turn; waiting: waiting for the customer; closed: done (a new message reopens it). */
export const ticketStatuses = ['open', 'waiting', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
export const ticketStatusLabels: Record<TicketStatus, string> = { open: 'Open', waiting: 'Waiting for customer', closed: 'Closed' };

/** Who wrote a message: the ticket's customer, or a staff member. */
export type TicketSide = 'customer' | 'staff';

export interface TicketImage {
  /** The stored reference (bucket/path). */
  path: string;
  /** A URL the browser can show now. */
  url: string;
}

export interface TicketMessage {
  id: string;
  side: TicketSide;
  authorId: string;
  authorName: string;
  body: string;
  images: TicketImage[];
  createdAt: string;
}

export interface Ticket {
  id: string;
  userId: string;
  userName: string;
  userEmail: string;
  orderId: string | null;
  /** The order's service title, when the ticket is about an order. */
  orderTitle: string | null;
  subject: string;
  status: TicketStatus;
  assigneeId: string | null;
  assigneeName: string | null;
  /** Staff messages the customer has not read yet. */
  unreadByCustomer: number;
  /** Customer messages no staff member has read yet. */
  unreadByStaff: number;
  lastMessageAt: string;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  messages: TicketMessage[];
}

export const TICKET_SUBJECT_MAX = 200;
export const TICKET_MESSAGE_MAX = 5000;
export const TICKET_IMAGES_MAX = 4;

/** A picture uploaded through POST /api/uploads (kind ticket), by the sender (the route checks the folder). */
export const ticketImage = text(300).refine((value) => /^order-proofs\/tickets\/[0-9a-f-]{36}\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/.test(value), {
  message: 'must be a picture uploaded for a ticket (order-proofs/tickets/...)',
});

const images = z.array(ticketImage).max(TICKET_IMAGES_MAX, `must have at most ${TICKET_IMAGES_MAX} pictures`).default([]);

/** POST /api/tickets: the ids come from the device, so a replay opens the ticket once. */
export const openTicketBody = z.object({
  id: uuid,
  messageId: uuid,
  orderId: uuid.nullish(),
  subject: requiredText(TICKET_SUBJECT_MAX),
  body: requiredText(TICKET_MESSAGE_MAX),
  images,
});

/** POST /api/tickets/{id}/messages */
export const ticketReplyBody = z.object({
  id: uuid,
  body: requiredText(TICKET_MESSAGE_MAX),
  images,
});

/** PUT /api/tickets/{id}/assignee: a staff member, or null for nobody. */
export const ticketAssigneeBody = z.object({ assigneeId: uuid.nullable() });

/** GET /api/tickets: a page (decision 242); staff filter the queue by status and by whom it is assigned to. */
export const ticketListQuery = z.object({
  status: oneOf(ticketStatuses).optional(),
  assignee: queryText(40)
    .pipe(z.union([z.literal('me'), z.literal('none'), uuid], { error: 'must be me, none or a staff member id' }))
    .optional(),
  ...listPageQuery.shape,
});

/** GET /api/tickets: the tickets and, for staff, how many have unread customer messages. */
export interface TicketList {
  tickets: Ticket[];
  unread: number;
}
