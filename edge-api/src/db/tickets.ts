import type { Transaction } from 'kysely';
import type { TicketStatus } from '../contract/tickets.ts';
import type { Database } from './schema.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import type { VersionWindow } from './sync.ts';
import type { TicketMessageRow, TicketRow } from './ticket-schema.ts';
import type { Db } from './handle.ts';

/** A ticket with what is shown beside it: its customer, its assignee and its order's title. */
export type TicketView = TicketRow & { user_name: string; user_email: string; assignee_name: string | null; order_title: string | null };

/** Tickets joined to the names shown with them. */
function ticketViews(db: Db) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as a', 'a.id', 't.assignee_id')
    .leftJoin('orders as o', 'o.id', 't.order_id')
    .selectAll('t')
    .select(['u.display_name as user_name', 'u.email as user_email', 'a.display_name as assignee_name', 'o.title as order_title']);
}

export function findTicketView(db: Db, id: string): Promise<TicketView | undefined> {
  return ticketViews(db).where('t.id', '=', id).where('t.deleted_at', 'is', null).executeTakeFirst();
}

/** The ticket row, locked for the rest of the transaction (deleted ones too: an id is never reused). */
export function lockTicket(trx: Transaction<Database>, id: string): Promise<TicketRow | undefined> {
  return trx.selectFrom('tickets').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface TicketFilter {
  userId?: string;
  status?: TicketStatus;
  /** A staff member's id, or null for tickets nobody is assigned to. */
  assigneeId?: string | null;
}

/**
 * One page of the live tickets, the latest message first (last_message_at desc, id asc), `limit` rows
 * after `after` (decision 242): a customer's own, or staff's queue. Read `limit + 1` to know a next page follows.
 */
export function listTicketsPage(db: Db, filter: TicketFilter, limit: number, after?: ListKey): Promise<(TicketView & { cursor_at: string })[]> {
  return ticketViews(db)
    .select(listCursorAt('t', 'last_message_at').as('cursor_at'))
    .where('t.deleted_at', 'is', null)
    .$if(after !== undefined, (qb) => qb.where(afterKey(after!, 't', 'last_message_at')))
    .$if(filter.userId !== undefined, (qb) => qb.where('t.user_id', '=', filter.userId!))
    .$if(filter.status !== undefined, (qb) => qb.where('t.status', '=', filter.status!))
    .$if(filter.assigneeId !== undefined, (qb) =>
      filter.assigneeId === null ? qb.where('t.assignee_id', 'is', null) : qb.where('t.assignee_id', '=', filter.assigneeId!),
    )
    .orderBy('t.last_message_at', 'desc')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** How many of the customer's live tickets have staff messages they have not read. */
export async function customerUnreadTickets(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('unread_by_customer', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many live tickets wait with customer messages no staff member has read. */
export async function staffUnreadTickets(db: Db): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('deleted_at', 'is', null)
    .where('unread_by_staff', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The messages of some tickets, oldest first. */
export function messagesOf(db: Db, ticketIds: readonly string[]): Promise<TicketMessageRow[]> {
  if (ticketIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ticket_messages')
    .selectAll()
    .where('ticket_id', 'in', [...ticketIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Tickets changed in a sync window, tombstones included: a customer's own, or (no `userId`) all of them for staff. */
export function changedTickets(db: Db, window: VersionWindow, userId?: string): Promise<TicketView[]> {
  return (
    ticketViews(db)
      .where('t.version', '>', window.after)
      .where('t.version', '<=', window.upTo)
      // A full pull starts from nothing: it needs no tombstones.
      .$if(window.after === 0, (qb) => qb.where('t.deleted_at', 'is', null))
      .$if(userId !== undefined, (qb) => qb.where('t.user_id', '=', userId!))
      .orderBy('t.version')
      .$if(window.limit !== undefined, (qb) => qb.limit(window.limit!))
      .execute()
  );
}
