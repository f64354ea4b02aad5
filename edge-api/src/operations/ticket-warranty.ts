/**
 * Staff turn a ticket about a delivered order into a warranty report in one step (decision 171): the
 * order gets the same open report a customer's "Report a problem" makes (decision 063), under the same
 * rules (delivered, within its warranty, no report already open), and the customer is told on the ticket.
 */
import { REPORT_NOTE_MAX } from '../contract/order-requests.ts';
import type { Ticket } from '../contract/tickets.ts';
import { recordAudit } from '../db/audit.ts';
import { lockOrder, updateOrder } from '../db/orders.ts';
import type { Database, UserRow } from '../db/schema.ts';
import type { Transaction } from 'kysely';
import { lockTicket } from '../db/tickets.ts';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { reportRefusal } from './after-sales.ts';
import { notifyProblemReport } from './staff-notices.ts';
import { ticketChange, writeMessage } from './tickets.ts';

/** The report's note: the ticket's subject and the customer's first message, within the report's limit. */
async function reportNote(trx: Transaction<Database>, ticketId: string, subject: string) {
  const first = await trx
    .selectFrom('ticket_messages')
    .select('body')
    .where('ticket_id', '=', ticketId)
    .where('author_side', '=', 'customer')
    .orderBy('created_at')
    .executeTakeFirst();
  const note = `From support ticket "${subject}": ${first?.body ?? ''}`;
  return note.length > REPORT_NOTE_MAX ? `${note.slice(0, REPORT_NOTE_MAX - 1)}…` : note;
}

/** POST /api/tickets/{id}/warranty-report (staff). */
export function ticketToWarrantyReport(deps: Deps, me: UserRow, ticketId: string, key?: string): Promise<Ticket> {
  return ticketChange(deps, me, { name: `POST /tickets/${ticketId}/warranty-report`, ticketId, input: {}, key }, async (write) => {
    const { trx } = write;
    const ticket = await lockTicket(trx, ticketId);
    if (!ticket || ticket.deleted_at) throw notFound('Ticket');
    if (!ticket.order_id) throw conflict('This ticket is not about an order, so it cannot become a warranty report.');
    const order = await lockOrder(trx, ticket.order_id);
    if (!order || order.deleted_at) throw notFound('Order');
    const refusal = reportRefusal(order, deps.clock());
    if (refusal) throw refusal;
    const version = await write.version();
    const note = await reportNote(trx, ticketId, ticket.subject);
    const updated = await updateOrder(
      trx,
      order.id,
      {
        report_status: 'open',
        report_reason: 'other',
        report_note: note,
        report_image: null,
        reported_at: deps.clock(),
        report_reply: '',
        report_resolved_at: null,
      },
      version,
    );
    await notifyProblemReport(trx, version, updated, `Something else (from a support ticket, by ${me.display_name || me.email})`);
    const message = `We opened a warranty report for your order #${order.id.slice(-8)} (${order.title}). You will see the outcome on the order.`;
    await writeMessage(deps, write, me, ticket, 'staff', { id: crypto.randomUUID(), body: message, images: [] });
    await recordAudit(trx, me, {
      action: 'order.report',
      entity: 'order',
      entityId: order.id,
      details: { reason: 'other', fromTicket: ticketId, by: 'staff' },
    });
  });
}
