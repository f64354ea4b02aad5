import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Issue 16, item 4, last part (decision 072): stock kept for one service, of that service's kind (an
// account, a server login, lines), apart from the Wise stock pool (wise_stocks stays as it is). What may
// be shown sits in `details` (account: email and name; server: host, port, user; lines: how many); the
// secret is sealed with the credentials key (the password, or the lines joined by newlines) and each
// secret has a blind index for the duplicate checks. An order delivered from it names it in
// orders.service_stock_id (unique: one item, one order).
export async function up(db: Db): Promise<void> {
  await sql`
    create table service_stocks (
      id uuid primary key,
      service_id uuid not null references services (id),
      kind text not null check (kind in ('account', 'server', 'lines')),
      details jsonb not null,
      email text,
      secret_enc text not null,
      secret_indexes text[] not null,
      status text not null default 'available' check (status in ('available', 'sold', 'disabled')),
      sold_to uuid,
      order_id uuid,
      notes text not null default '',
      added_by uuid,
      faulty_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version bigint not null,
      deleted_at timestamptz,
      check (faulty_at is null or status <> 'available'),
      check ((kind = 'account') = (email is not null))
    )`.execute(db);
  await sql`create index service_stocks_version_idx on service_stocks (version)`.execute(db);
  await sql`create index service_stocks_claim_idx on service_stocks (service_id, created_at, id) where status = 'available' and deleted_at is null`.execute(db);
  await sql`create index service_stocks_secret_indexes_idx on service_stocks using gin (secret_indexes) where deleted_at is null`.execute(db);
  await sql`create index service_stocks_email_idx on service_stocks (lower(email)) where deleted_at is null and email is not null`.execute(db);
  await sql`alter table orders add column service_stock_id uuid references service_stocks (id)`.execute(db);
  await sql`create unique index orders_service_stock_key on orders (service_stock_id) where service_stock_id is not null`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table orders drop column service_stock_id`.execute(db);
  await sql`drop table service_stocks`.execute(db);
}
