/**
 * Support tickets' offline changes (decision 170): opening a ticket, replying and closing are made on the
 * device first and queued in the outbox like order changes; ids come from the device, so a replay is one.
 */
import type { Ticket, TicketMessage, TicketSide } from '../../../edge-api/src/contract/tickets.ts';
import { unwrap } from '../lib/api-client.ts';
import { AppError } from '../lib/app-error.ts';
import { uploadImage } from '../lib/image-upload.ts';
import type { UserDb } from './local-db.ts';
import type { Mutator } from './mutators.ts';

export interface TicketMutationArgs {
  /** `pictures` wait in the outbox as Blobs and are uploaded (kind ticket) when the change is sent. */
  openTicket: { id: string; messageId: string; orderId?: string; subject: string; body: string; pictures?: Blob[] };
  replyTicket: { ticketId: string; messageId: string; body: string; pictures?: Blob[] };
  closeTicket: { ticketId: string };
}

const now = () => new Date().toISOString();

async function ticketOnDevice(db: UserDb, id: string): Promise<Ticket> {
  const ticket = await db.tickets.get(id);
  if (!ticket) throw new AppError('not_on_device', 'Ticket not found');
  return ticket;
}

async function message(db: UserDb, userId: string, side: TicketSide, id: string, body: string): Promise<TicketMessage> {
  const me = await db.users.get(userId);
  return { id, side, authorId: userId, authorName: me?.displayName ?? '', body, images: [], createdAt: now() };
}

const ref = (id: string) => ({ table: 'tickets' as const, id });

/** Uploads the pictures of a queued message; uploaded again on a retry (an unused file costs less than a lost picture). */
async function uploadPictures(pictures: Blob[] | undefined): Promise<string[]> {
  const paths: string[] = [];
  for (const [index, picture] of (pictures ?? []).entries()) {
    paths.push((await uploadImage(new File([picture], `picture-${index + 1}`, { type: picture.type }), 'ticket')).path);
  }
  return paths;
}

export const ticketMutators: { [N in keyof TicketMutationArgs]: Mutator<TicketMutationArgs[N]> } = {
  openTicket: {
    rows: (args) => [ref(args.id)],
    async apply(db, args, { userId }) {
      if (await db.tickets.get(args.id)) return [];
      const me = await db.users.get(userId);
      const order = args.orderId ? await db.orders.get(args.orderId) : undefined;
      const at = now();
      const ticket: Ticket = {
        id: args.id,
        userId,
        userName: me?.displayName ?? '',
        userEmail: me?.email ?? '',
        orderId: args.orderId ?? null,
        orderTitle: order?.title ?? null,
        subject: args.subject,
        status: 'open',
        assigneeId: null,
        assigneeName: null,
        unreadByCustomer: 0,
        unreadByStaff: 1,
        lastMessageAt: at,
        closedAt: null,
        createdAt: at,
        updatedAt: at,
        version: 0,
        messages: [await message(db, userId, 'customer', args.messageId, args.body)],
      };
      return [{ ref: ref(args.id), row: ticket }];
    },
    async upload(client, args, key) {
      const images = await uploadPictures(args.pictures);
      const json = {
        id: args.id,
        messageId: args.messageId,
        subject: args.subject,
        body: args.body,
        images,
        ...(args.orderId ? { orderId: args.orderId } : {}),
      };
      const answer = await unwrap(client.tickets.$post({ header: { 'idempotency-key': key }, json }));
      return { ref: ref(args.id), row: answer as Ticket };
    },
  },

  replyTicket: {
    rows: (args) => [ref(args.ticketId)],
    async apply(db, args, { userId }) {
      const ticket = await ticketOnDevice(db, args.ticketId);
      if (ticket.messages.some((m) => m.id === args.messageId)) return [];
      const side: TicketSide = ticket.userId === userId ? 'customer' : 'staff';
      const at = now();
      const row: Ticket = {
        ...ticket,
        status: side === 'customer' ? 'open' : 'waiting',
        closedAt: null,
        lastMessageAt: at,
        updatedAt: at,
        messages: [...ticket.messages, await message(db, userId, side, args.messageId, args.body)],
      };
      return [{ ref: ref(ticket.id), row }];
    },
    async upload(client, args, key) {
      const images = await uploadPictures(args.pictures);
      const answer = await unwrap(
        client.tickets[':id'].messages.$post({
          param: { id: args.ticketId },
          header: { 'idempotency-key': key },
          json: { id: args.messageId, body: args.body, images },
        }),
      );
      return { ref: ref(args.ticketId), row: answer as Ticket };
    },
  },

  closeTicket: {
    rows: (args) => [ref(args.ticketId)],
    async apply(db, args) {
      const ticket = await ticketOnDevice(db, args.ticketId);
      if (ticket.status === 'closed') return [];
      const at = now();
      return [{ ref: ref(ticket.id), row: { ...ticket, status: 'closed', closedAt: at, updatedAt: at } }];
    },
    async upload(client, args, key) {
      const answer = await unwrap(client.tickets[':id'].close.$post({ param: { id: args.ticketId }, header: { 'idempotency-key': key } }));
      return { ref: ref(args.ticketId), row: answer as Ticket };
    },
  },
};
