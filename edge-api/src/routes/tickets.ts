import { Hono } from 'hono';
import { idempotencyHeader, idParam } from '../contract/fields.ts';
import { openTicketBody, ticketAssigneeBody, ticketListQuery, ticketReplyBody, type TicketList } from '../contract/tickets.ts';
import { customerUnreadTickets, listTicketsPage, messagesOf, staffUnreadTickets, type TicketFilter } from '../db/tickets.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { isStaff, requireAdmin, requireRole, requireStaff, type AppEnv } from '../middleware/session.ts';
import { answerListPage } from '../operations/list-page.ts';
import { sendWaitingMail } from '../operations/receipts.ts';
import { ticketToWarrantyReport } from '../operations/ticket-warranty.ts';
import { assignTicket, closeTicket, deleteTicket, markTicketRead, openTicket, readTicket, replyToTicket } from '../operations/tickets.ts';
import { presentTicket } from '../presenters/tickets.ts';

/**
 * Support tickets (issue 27, item 1; decision 169). Customers see their own tickets; staff (moderators
 * and admins) see the queue, answer, assign and close; only admins delete. Every answer is private.
 */
export function ticketRoutes(deps: Deps) {
  /** The customer's email a staff answer wrote, sent once the change committed (the local mailbox in development). */
  const sendMail = () => sendWaitingMail(deps);
  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    })
    .get('/', requireRole(), validate('query', ticketListQuery), async (c) => {
      const me = c.get('user');
      const { status, assignee, ...page } = c.req.valid('query');
      const staff = isStaff(me);
      const filter: TicketFilter = staff ? { status } : { userId: me.id, status };
      if (staff && assignee !== undefined) filter.assigneeId = assignee === 'me' ? me.id : assignee === 'none' ? null : assignee;
      // A page, the latest message first; the next page's cursor in X-Next-Cursor (decision 242).
      const views = await answerListPage(c, page, (limit, after) => listTicketsPage(deps.db, filter, limit, after));
      const messages = await messagesOf(
        deps.db,
        views.map((view) => view.id),
      );
      const tickets = await Promise.all(views.map((view) => presentTicket(view, messages, deps.blobs)));
      const unread = staff ? await staffUnreadTickets(deps.db) : await customerUnreadTickets(deps.db, me.id);
      return c.json({ tickets, unread } satisfies TicketList);
    })
    .post('/', requireRole(), validate('header', idempotencyHeader), validate('json', openTicketBody), async (c) => {
      const ticket = await openTicket(deps, c.get('user'), c.req.valid('json'), c.req.valid('header')['idempotency-key']);
      return c.json(ticket, 200);
    })
    .get('/:id', requireRole(), validate('param', idParam), async (c) => c.json(await readTicket(deps, c.get('user'), c.req.valid('param').id)))
    .post('/:id/messages', requireRole(), validate('param', idParam), validate('header', idempotencyHeader), validate('json', ticketReplyBody), async (c) => {
      const ticket = await replyToTicket(deps, c.get('user'), c.req.valid('param').id, c.req.valid('json'), c.req.valid('header')['idempotency-key']);
      await sendMail();
      return c.json(ticket, 200);
    })
    .post('/:id/close', requireRole(), validate('param', idParam), validate('header', idempotencyHeader), async (c) =>
      c.json(await closeTicket(deps, c.get('user'), c.req.valid('param').id, c.req.valid('header')['idempotency-key'])),
    )
    .post('/:id/read', requireRole(), validate('param', idParam), async (c) => c.json(await markTicketRead(deps, c.get('user'), c.req.valid('param').id)))
    .put('/:id/assignee', requireStaff, validate('param', idParam), validate('header', idempotencyHeader), validate('json', ticketAssigneeBody), async (c) =>
      c.json(await assignTicket(deps, c.get('user'), c.req.valid('param').id, c.req.valid('json').assigneeId, c.req.valid('header')['idempotency-key'])),
    )
    .post('/:id/warranty-report', requireStaff, validate('param', idParam), validate('header', idempotencyHeader), async (c) => {
      const ticket = await ticketToWarrantyReport(deps, c.get('user'), c.req.valid('param').id, c.req.valid('header')['idempotency-key']);
      await sendMail();
      return c.json(ticket, 200);
    })
    .delete('/:id', requireAdmin, validate('param', idParam), async (c) => {
      await deleteTicket(deps, c.get('user'), c.req.valid('param').id);
      return c.body(null, 204);
    });
}
