import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Support tickets (issue 27, item 1; decision 169).
// - tickets: one conversation of a customer with the shop, about one of their orders or general. `status`
//   is open (the shop's turn), waiting (the customer's turn) or closed; a new message reopens it. Each side
//   has its own unread count. Synced like orders: every change (a message too) takes a new version.
// - ticket_messages: the messages, oldest first; `images` are blob references (bucket/path) of pictures
//   their author uploaded with POST /api/uploads (kind ticket). A message's id comes from the device that
//   wrote it, so a replayed reply is written once.
export async function up(db: Db): Promise<void> {
  await sql`
    create table tickets (
      id uuid primary key,
      user_id uuid not null references users (id),
      order_id uuid references orders (id),
      subject text not null check (char_length(subject) between 1 and 200),
      status text not null default 'open' check (status in ('open', 'waiting', 'closed')),
      assignee_id uuid references users (id),
      unread_by_customer integer not null default 0 check (unread_by_customer >= 0),
      unread_by_staff integer not null default 0 check (unread_by_staff >= 0),
      last_message_at timestamptz not null default now(),
      closed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      version bigint not null
    )`.execute(db);
  await sql`create index tickets_version_idx on tickets (version)`.execute(db);
  await sql`create index tickets_user_idx on tickets (user_id, version)`.execute(db);
  await sql`create index tickets_queue_idx on tickets (status, last_message_at desc) where deleted_at is null`.execute(db);
  await sql`
    create table ticket_messages (
      id uuid primary key,
      ticket_id uuid not null references tickets (id) on delete cascade,
      author_id uuid not null references users (id),
      author_side text not null check (author_side in ('customer', 'staff')),
      author_name text not null default '',
      body text not null check (char_length(body) between 1 and 5000),
      images text[] not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index ticket_messages_ticket_idx on ticket_messages (ticket_id, created_at)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table ticket_messages`.execute(db);
  await sql`drop table tickets`.execute(db);
}
