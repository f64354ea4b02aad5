import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// The reveal log (issue 17, item 6; decision 066): every time the customer shows a delivered password
// on the order card, with the time it happened on the device, the device's id and a short label of its
// browser. The order keeps the count and the first one, so the synced order carries them without a join.
export async function up(db: Db): Promise<void> {
  await sql`
    create table credential_reveals (
      id uuid primary key default gen_random_uuid(),
      order_id uuid not null references orders (id) on delete cascade,
      user_id uuid not null,
      device_id text not null,
      device_label text not null,
      revealed_at timestamptz not null,
      recorded_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index credential_reveals_order_idx on credential_reveals (order_id, revealed_at)`.execute(db);
  await sql`alter table orders add column reveal_count integer not null default 0`.execute(db);
  await sql`alter table orders add column first_revealed_at timestamptz`.execute(db);
  await sql`alter table orders add column first_reveal_device text`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table orders drop column first_reveal_device`.execute(db);
  await sql`alter table orders drop column first_revealed_at`.execute(db);
  await sql`alter table orders drop column reveal_count`.execute(db);
  await sql`drop table credential_reveals`.execute(db);
}
