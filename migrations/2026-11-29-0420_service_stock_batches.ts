import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Issue 33 item 1 (decision 228): a service's own stock imported together is one batch, as Wise stock
// (stock_batches): label, who, when, how many, of which service; its still-available items can be withdrawn
// in one action. The batch id is the import's id.
export async function up(db: Db): Promise<void> {
  await sql`
    create table service_stock_batches (
      id uuid primary key,
      service_id uuid not null references services (id),
      kind text not null check (kind in ('account', 'server', 'lines')),
      label text not null,
      added_by uuid not null references users (id),
      user_name text not null,
      user_email text not null,
      item_count integer not null,
      withdrawn_count integer not null default 0,
      withdrawn_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index service_stock_batches_service_idx on service_stock_batches (service_id, created_at desc)`.execute(db);
  await sql`alter table service_stocks add column batch_id uuid references service_stock_batches (id)`.execute(db);
  await sql`create index service_stocks_batch_idx on service_stocks (batch_id) where batch_id is not null`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table service_stocks drop column batch_id`.execute(db);
  await sql`drop table service_stock_batches`.execute(db);
}
