import type { ColumnType, Generated, Selectable } from 'kysely';
import type { TicketSide, TicketStatus } from '../contract/tickets.ts';
import type { NullableTime, Timestamp } from './column-types.ts';

/** A support ticket (decision 169): synced like orders, a new version on every change and message. */
export interface TicketsTable {
  id: string;
  user_id: string;
  order_id: string | null;
  subject: string;
  status: ColumnType<TicketStatus, TicketStatus | undefined, TicketStatus>;
  assignee_id: ColumnType<string | null, string | null | undefined, string | null>;
  unread_by_customer: Generated<number>;
  unread_by_staff: Generated<number>;
  last_message_at: Timestamp;
  closed_at: NullableTime;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTime;
  version: ColumnType<number, number, number>;
}

/** One message of a ticket; its id is the device's, so a replay writes it once. */
export interface TicketMessagesTable {
  id: string;
  ticket_id: string;
  author_id: string;
  author_side: TicketSide;
  author_name: ColumnType<string, string | undefined, string>;
  body: string;
  images: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
}

export type TicketRow = Selectable<TicketsTable>;
export type TicketMessageRow = Selectable<TicketMessagesTable>;
