import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Stock imported together is one batch (label, who, when, how many); a batch's still-available items can
// be withdrawn in one action.
export async function up(db: Db): Promise<void> {
  await sql`
    create table stock_batches (
      id uuid primary key,
      label text not null,
      added_by uuid not null references users (id),
      user_name text not null,
      user_email text not null,
      item_count integer not null,
      withdrawn_count integer not null default 0,
      withdrawn_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index stock_batches_created_idx on stock_batches (created_at desc)`.execute(db);
  await sql`alter table wise_stocks add column batch_id uuid references stock_batches (id)`.execute(db);
  await sql`create index wise_stocks_batch_idx on wise_stocks (batch_id) where batch_id is not null`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table wise_stocks drop column batch_id`.execute(db);
  await sql`drop table stock_batches`.execute(db);
}
