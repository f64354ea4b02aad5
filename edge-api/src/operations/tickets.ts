/**
 * Support tickets (issue 27, item 1; decision 169): every write in one transaction, once per idempotency
 * key (a queued change replayed from a device answers the first result and changes nothing), with the
 * other side told in the same transaction. Messages carry ids from the device: a reply sent twice is one.
 */
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { openTicketBody, Ticket, TicketSide, ticketReplyBody } from '../contract/tickets.ts';
import { isStaffRole } from '../contract/users.ts';
import { recordAudit } from '../db/audit.ts';
import { KeyReusedError, onceForKey } from '../db/idempotency.ts';
import { findOrder } from '../db/orders.ts';
import type { Database, UserRow } from '../db/schema.ts';
import type { TicketRow } from '../db/ticket-schema.ts';
import { findTicketView, lockTicket, messagesOf } from '../db/tickets.ts';
import { nextVersion, writeTime } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors.ts';
import { presentTicket } from '../presenters/tickets.ts';
import { canonicalJson } from './deliver.ts';
import { settleStaffNotice, tellCustomer, tellStaff } from './ticket-notices.ts';

export type OpenTicketInput = z.infer<typeof openTicketBody>;
export type TicketReplyInput = z.infer<typeof ticketReplyBody>;

/** What a write needs: the change's transaction and the ticket's new version. */
export interface TicketWrite {
  trx: Transaction<Database>;
  version: () => Promise<number>;
}

/** The ticket as it is now, with its messages, for whoever may read it. */
export async function readTicket(deps: Deps, me: UserRow, id: string): Promise<Ticket> {
  const view = await findTicketView(deps.db, id);
  if (!view || (view.user_id !== me.id && !isStaffRole(me.user_role))) throw notFound('Ticket');
  return presentTicket(view, await messagesOf(deps.db, [id]), deps.blobs);
}

/**
 * Runs `effect` once per key in one transaction, then answers the ticket as it is now. Decision 044:
 * the same key with another request answers 422 and changes nothing.
 */
export async function ticketChange(
  deps: Deps,
  me: UserRow,
  request: { name: string; ticketId: string; input: unknown; key?: string },
  effect: (write: TicketWrite) => Promise<void>,
): Promise<Ticket> {
  const { name, ticketId, input, key } = request;
  const requestHash = key ? await deps.secrets.blindIndex(`${name} ${canonicalJson(input)}`) : undefined;
  await deps.db
    .transaction()
    .execute((trx) => {
      let version: number | undefined;
      const write = { trx, version: async () => (version ??= await nextVersion(trx)) };
      return onceForKey(
        trx,
        me.id,
        key && `${name} ${key}`,
        async () => {
          await effect(write);
          return { status: 200, body: { ticketId } };
        },
        requestHash,
      );
    })
    .catch((error: unknown) => {
      if (error instanceof KeyReusedError) {
        throw new ApiError(
          'idempotency_mismatch',
          'This Idempotency-Key was already used with a different request. Nothing was changed: send a new key for a new change.',
        );
      }
      throw error;
    });
  return readTicket(deps, me, ticketId);
}

/** The live ticket, locked, and the side the caller writes on: its customer, or staff. */
async function ticketFor(trx: Transaction<Database>, me: UserRow, id: string): Promise<{ ticket: TicketRow; side: TicketSide }> {
  const ticket = await lockTicket(trx, id);
  if (!ticket || ticket.deleted_at) throw notFound('Ticket');
  if (ticket.user_id === me.id) return { ticket, side: 'customer' };
  if (isStaffRole(me.user_role)) return { ticket, side: 'staff' };
  throw notFound('Ticket');
}

/** A picture must be one its sender uploaded (issue 30): named under their id by POST /api/uploads. */
function assertOwnImages(me: UserRow, images: readonly string[]) {
  images.forEach((image, index) => {
    if (!image.startsWith(`order-proofs/tickets/${me.id}/`)) {
      throw badRequest(`images.${index}: must be a picture you uploaded: upload it again`, [
        { path: `images.${index}`, message: 'must be a picture you uploaded: upload it again' },
      ]);
    }
  });
}

/**
 * Writes one message and moves the ticket on: a customer's message makes it the shop's turn (open), a
 * staff member's the customer's (waiting); either reopens a closed ticket. The other side is told.
 */
export async function writeMessage(
  deps: Deps,
  write: TicketWrite,
  me: UserRow,
  ticket: TicketRow,
  side: TicketSide,
  message: { id: string; body: string; images: string[] },
  opened = false,
) {
  const { trx } = write;
  const existing = await trx.selectFrom('ticket_messages').select(['ticket_id', 'author_id']).where('id', '=', message.id).executeTakeFirst();
  if (existing) {
    if (existing.ticket_id !== ticket.id || existing.author_id !== me.id) throw conflict('This message id is already taken');
    return;
  }
  const version = await write.version();
  await trx
    .insertInto('ticket_messages')
    .values({
      id: message.id,
      ticket_id: ticket.id,
      author_id: me.id,
      author_side: side,
      author_name: me.display_name,
      body: message.body,
      images: message.images,
    })
    .execute();
  const updated = await trx
    .updateTable('tickets')
    .set((eb) => ({
      status: side === 'customer' ? 'open' : 'waiting',
      closed_at: null,
      last_message_at: writeTime(),
      updated_at: writeTime(),
      version,
      ...(side === 'customer'
        ? { unread_by_staff: eb('unread_by_staff', '+', 1) }
        : { unread_by_customer: eb('unread_by_customer', '+', 1), unread_by_staff: 0 }),
    }))
    .where('id', '=', ticket.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (side === 'customer') {
    await tellStaff(trx, version, updated, me.display_name || me.email, message.body, opened);
  } else {
    await settleStaffNotice(trx, version, ticket.id);
    const customer = await trx.selectFrom('users').select(['email', 'display_name']).where('id', '=', ticket.user_id).executeTakeFirst();
    await tellCustomer(trx, deps, updated, { email: customer?.email ?? '', name: customer?.display_name ?? '' }, message.body);
  }
}

/** POST /api/tickets: a customer opens a ticket, about one of their own orders or general. */
export function openTicket(deps: Deps, me: UserRow, input: OpenTicketInput, key?: string): Promise<Ticket> {
  assertOwnImages(me, input.images);
  return ticketChange(deps, me, { name: 'POST /tickets', ticketId: input.id, input, key }, async (write) => {
    const { trx } = write;
    const existing = await lockTicket(trx, input.id);
    if (existing) {
      // A replay without the key (the device lost its answer): the first one stands.
      if (existing.user_id !== me.id) throw conflict('This ticket id is already taken');
      if (existing.deleted_at) throw notFound('Ticket');
      return;
    }
    if (input.orderId) {
      const order = await findOrder(trx, input.orderId);
      if (!order || order.user_id !== me.id)
        throw badRequest('orderId: must be one of your orders', [{ path: 'orderId', message: 'must be one of your orders' }]);
    }
    const version = await write.version();
    const ticket = await trx
      .insertInto('tickets')
      .values({ id: input.id, user_id: me.id, order_id: input.orderId ?? null, subject: input.subject, version })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeMessage(deps, write, me, ticket, 'customer', { id: input.messageId, body: input.body, images: input.images }, true);
    await recordAudit(trx, me, { action: 'ticket.open', entity: 'ticket', entityId: input.id, details: { orderId: input.orderId ?? null } });
  });
}

/** POST /api/tickets/{id}/messages: either side answers; a closed ticket opens again. */
export function replyToTicket(deps: Deps, me: UserRow, ticketId: string, input: TicketReplyInput, key?: string): Promise<Ticket> {
  assertOwnImages(me, input.images);
  return ticketChange(deps, me, { name: `POST /tickets/${ticketId}/messages`, ticketId, input, key }, async (write) => {
    const { ticket, side } = await ticketFor(write.trx, me, ticketId);
    await writeMessage(deps, write, me, ticket, side, input);
  });
}

/** POST /api/tickets/{id}/close: either side; closing a closed ticket changes nothing. */
export function closeTicket(deps: Deps, me: UserRow, ticketId: string, key?: string): Promise<Ticket> {
  return ticketChange(deps, me, { name: `POST /tickets/${ticketId}/close`, ticketId, input: {}, key }, async (write) => {
    const { ticket, side } = await ticketFor(write.trx, me, ticketId);
    if (ticket.status === 'closed') return;
    const version = await write.version();
    await write.trx
      .updateTable('tickets')
      .set({ status: 'closed', closed_at: writeTime(), updated_at: writeTime(), version })
      .where('id', '=', ticketId)
      .execute();
    await settleStaffNotice(write.trx, version, ticketId);
    await recordAudit(write.trx, me, { action: 'ticket.close', entity: 'ticket', entityId: ticketId, details: { by: side } });
  });
}

/** POST /api/tickets/{id}/read: the caller's side has read every message. */
export function markTicketRead(deps: Deps, me: UserRow, ticketId: string): Promise<Ticket> {
  return ticketChange(deps, me, { name: `POST /tickets/${ticketId}/read`, ticketId, input: {} }, async (write) => {
    const { ticket, side } = await ticketFor(write.trx, me, ticketId);
    const column = side === 'customer' ? 'unread_by_customer' : 'unread_by_staff';
    if (ticket[column] === 0) return;
    await write.trx
      .updateTable('tickets')
      .set({ [column]: 0, updated_at: writeTime(), version: await write.version() })
      .where('id', '=', ticketId)
      .execute();
  });
}

/** PUT /api/tickets/{id}/assignee: staff give the ticket to a staff member, or to nobody. */
export function assignTicket(deps: Deps, me: UserRow, ticketId: string, assigneeId: string | null, key?: string): Promise<Ticket> {
  return ticketChange(deps, me, { name: `PUT /tickets/${ticketId}/assignee`, ticketId, input: { assigneeId }, key }, async (write) => {
    const { ticket } = await ticketFor(write.trx, me, ticketId);
    if (assigneeId !== null) {
      const staff = await write.trx.selectFrom('users').select('user_role').where('id', '=', assigneeId).where('deleted_at', 'is', null).executeTakeFirst();
      if (!staff || !isStaffRole(staff.user_role))
        throw badRequest('assigneeId: must be a staff member', [{ path: 'assigneeId', message: 'must be a staff member' }]);
    }
    if (ticket.assignee_id === assigneeId) return;
    await write.trx
      .updateTable('tickets')
      .set({ assignee_id: assigneeId, updated_at: writeTime(), version: await write.version() })
      .where('id', '=', ticketId)
      .execute();
    await recordAudit(write.trx, me, { action: 'ticket.assign', entity: 'ticket', entityId: ticketId, details: { from: ticket.assignee_id, to: assigneeId } });
  });
}

/** DELETE /api/tickets/{id}: admins only; the ticket leaves every device with the next sync. */
export async function deleteTicket(deps: Deps, me: UserRow, ticketId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const ticket = await lockTicket(trx, ticketId);
    if (!ticket || ticket.deleted_at) throw notFound('Ticket');
    const version = await nextVersion(trx);
    await trx.updateTable('tickets').set({ deleted_at: writeTime(), updated_at: writeTime(), version }).where('id', '=', ticketId).execute();
    await settleStaffNotice(trx, version, ticketId);
    await recordAudit(trx, me, { action: 'ticket.delete', entity: 'ticket', entityId: ticketId, details: { subject: ticket.subject, userId: ticket.user_id } });
  });
}
