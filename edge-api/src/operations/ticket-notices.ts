import type { Transaction } from 'kysely';
import { notifyStaff, resolveNotification } from '../db/notifications.ts';
import { queuePush } from '../db/push.ts';
import type { Database } from '../db/schema.ts';
import type { TicketRow } from '../db/ticket-schema.ts';
import type { Deps } from '../deps.ts';

/** The page a customer's notice opens: the ticket on Support. */
export const ticketPage = (ticketId: string) => `/support#ticket-${ticketId}`;
/** Staff's queue. */
export const STAFF_TICKETS_PAGE = '/dashboard/tickets';

/** One open bell notification per ticket while a customer message waits for staff. */
export const ticketNoticeKey = (ticketId: string) => `ticket:${ticketId}`;

const excerpt = (body: string, max = 140) => (body.length > max ? `${body.slice(0, max - 1)}…` : body);

/** A customer wrote (a new ticket or a reply): staff are told by the bell, and by push where they allowed it. */
export async function tellStaff(trx: Transaction<Database>, version: number, ticket: TicketRow, customerName: string, body: string, opened: boolean) {
  const title = opened ? 'New support ticket' : 'Support ticket answered by the customer';
  const text = `${customerName}: ${ticket.subject} (${excerpt(body, 80)})`;
  const written = await notifyStaff(trx, version, { kind: 'ticket', title, body: text, orderId: ticket.order_id, dedupeKey: ticketNoticeKey(ticket.id) });
  if (written) await queuePush(trx, 'staff', { title, body: text, url: STAFF_TICKETS_PAGE, tag: `ticket-${ticket.id}` });
}

/** Staff answered or closed: the bell notification about the ticket is over. */
export const settleStaffNotice = (trx: Transaction<Database>, version: number, ticketId: string) =>
  resolveNotification(trx, version, ticketNoticeKey(ticketId));

/**
 * Staff wrote to the customer: a push message where they allowed it, and an email (the shop's mail, or
 * the local mailbox in development), written in the change's transaction and sent once it commits.
 */
export async function tellCustomer(
  trx: Transaction<Database>,
  deps: Pick<Deps, 'mailer' | 'config'>,
  ticket: TicketRow,
  to: { email: string; name: string },
  body: string,
): Promise<void> {
  await queuePush(
    trx,
    { userId: ticket.user_id },
    { title: 'Support replied', body: `${ticket.subject}: ${excerpt(body)}`, url: ticketPage(ticket.id), tag: `ticket-${ticket.id}` },
  );
  if (!deps.mailer || !to.email) return;
  const link = `${(deps.config.payments?.siteUrl ?? '').replace(/\/+$/, '')}${ticketPage(ticket.id)}`;
  await trx
    .insertInto('mail_outbox')
    .values({
      id: crypto.randomUUID(),
      to_address: to.email,
      subject: `Reply to your support ticket: ${ticket.subject}`,
      body: `Hello ${to.name || to.email},\n\nThe shop answered your support ticket "${ticket.subject}":\n\n${body}\n\nReply or read the whole conversation: ${link}\n`,
      link,
    })
    .execute();
}
