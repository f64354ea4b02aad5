import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Coupons (issue 32, decision 220).
// - coupons: a code (kept upper case, unique) worth a percentage or a fixed amount, with optional limits.
//   `uses` counts redemptions; the order that takes a coupon locks its row, so the last use goes once.
// - coupon_uses: one row per order that used a coupon (the per-customer limit counts these).
// - orders: what the order was listed at, the coupon it used and the discount; `price` stays what is due.
export async function up(db: Db): Promise<void> {
  await sql`
    create table coupons (
      id uuid primary key,
      code text not null unique check (code ~ '^[A-Z0-9_-]{3,32}$'),
      kind text not null check (kind in ('percent', 'fixed')),
      amount numeric(12, 2) not null check (amount > 0 and (kind <> 'percent' or amount <= 100)),
      service_ids uuid[] not null default '{}',
      first_order_only boolean not null default false,
      min_total numeric(12, 2) check (min_total >= 0),
      max_uses integer check (max_uses > 0),
      max_uses_per_customer integer check (max_uses_per_customer > 0),
      starts_at timestamptz,
      ends_at timestamptz check (ends_at is null or starts_at is null or ends_at > starts_at),
      enabled boolean not null default true,
      uses integer not null default 0 check (uses >= 0 and (max_uses is null or uses <= max_uses)),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table coupon_uses (
      order_id uuid primary key references orders (id),
      coupon_id uuid not null references coupons (id),
      user_id uuid not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index coupon_uses_coupon_user_idx on coupon_uses (coupon_id, user_id)`.execute(db);
  await sql`alter table orders add column list_price text, add column coupon_code text, add column discount text`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table orders drop column list_price, drop column coupon_code, drop column discount`.execute(db);
  await sql`drop table coupon_uses`.execute(db);
  await sql`drop table coupons`.execute(db);
}
