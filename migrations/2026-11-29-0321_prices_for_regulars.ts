import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Prices that reward regulars (issue 32 item 3, decision 178):
// - service_price_tiers: buy `min_quantity` or more of a service at `unit_price` each (cents).
// - customer_prices: an admin's price for one customer: a unit price for one service (`unit_cents`), or a
//   percentage off every service (`service_id` null, `percent_off`).
// - orders: how many were bought, the unit price charged, and which rule set it (kept as placed).
export async function up(db: Db): Promise<void> {
  await sql`
    create table service_price_tiers (
      service_id uuid not null references services(id) on delete cascade,
      min_quantity integer not null check (min_quantity between 2 and 100000),
      unit_cents bigint not null check (unit_cents >= 0),
      primary key (service_id, min_quantity)
    )`.execute(db);
  await sql`
    create table customer_prices (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      service_id uuid references services(id) on delete cascade,
      unit_cents bigint check (unit_cents >= 0),
      percent_off numeric(5,2) check (percent_off > 0 and percent_off <= 100),
      updated_at timestamptz not null default now(),
      check ((service_id is null and percent_off is not null and unit_cents is null) or (service_id is not null and unit_cents is not null and percent_off is null))
    )`.execute(db);
  await sql`create unique index customer_prices_user_service on customer_prices (user_id, coalesce(service_id, '00000000-0000-0000-0000-000000000000'::uuid))`.execute(
    db,
  );
  await sql`alter table orders add column quantity integer not null default 1 check (quantity >= 1), add column unit_price text, add column price_rule text`.execute(
    db,
  );
}

export async function down(db: Db): Promise<void> {
  await sql`alter table orders drop column quantity, drop column unit_price, drop column price_rule`.execute(db);
  await sql`drop table customer_prices`.execute(db);
  await sql`drop table service_price_tiers`.execute(db);
}
