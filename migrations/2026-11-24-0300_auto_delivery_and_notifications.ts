import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Issue 16, items 5-7 (decisions 061, 062): a service may deliver automatically from stock when its order
// is marked paid, and may warn below a stock threshold of its own; staff get notifications (new orders,
// payment checks, problem reports, low stock, paid orders with no stock to deliver), each read or unread
// per staff member.
export async function up(db: Db): Promise<void> {
  await sql`alter table services add column auto_deliver boolean not null default false`.execute(db);
  await sql`alter table services add column low_stock_threshold integer`.execute(db);
  await sql`
    create table notifications (
      id uuid primary key,
      kind text not null,
      title text not null,
      body text not null default '',
      order_id uuid,
      service_id uuid,
      dedupe_key text,
      resolved_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version bigint not null,
      deleted_at timestamptz
    )`.execute(db);
  await sql`create index notifications_version_idx on notifications (version)`.execute(db);
  await sql`create index notifications_created_idx on notifications (created_at desc)`.execute(db);
  // One open notification per condition (low stock of a scope, a paid order waiting for stock).
  await sql`create unique index notifications_open_key on notifications (dedupe_key) where resolved_at is null and dedupe_key is not null`.execute(db);
  await sql`
    create table notification_reads (
      notification_id uuid not null references notifications (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      read_at timestamptz not null default now(),
      version bigint not null,
      primary key (notification_id, user_id)
    )`.execute(db);
  await sql`create index notification_reads_user_version_idx on notification_reads (user_id, version)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table notification_reads`.execute(db);
  await sql`drop table notifications`.execute(db);
  await sql`alter table services drop column low_stock_threshold`.execute(db);
  await sql`alter table services drop column auto_deliver`.execute(db);
}
