import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Payments confirmed by the rails themselves (issue 26; decisions 200-203).
// - payment_settings: one row, the shop's payment window and exchange rate.
// - payment_rails: each rail an admin switches on, its settings in clear and its secrets sealed with the
//   credentials key (never sent to a device).
// - payment_intents: what an order asks a customer to pay on one rail: the amount in the rail's currency,
//   where, until when. At most one open per order; an exact USDT amount is told apart by its tail.
// - payment_events: every inbound fact from a rail (a transfer, a webhook, a query's answer), recorded
//   once by its own key before it changes anything (Stripe's event ids).
// - mail_outbox: receipts written in the payment's transaction, sent once it committed.
// - orders.payment_session: what the customer's device shows of the open payment (synced with the order).
export async function up(db: Db): Promise<void> {
  await sql`
    create table payment_settings (
      id text primary key check (id = 'payments'),
      expiry_minutes integer not null default 30 check (expiry_minutes between 5 and 1440),
      bdt_per_usd numeric(12, 4) check (bdt_per_usd > 0),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table payment_rails (
      rail text primary key check (rail in ('usdt_trc20', 'binance_pay', 'bkash')),
      enabled boolean not null default false,
      settings jsonb not null default '{}',
      secrets_enc text,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table payment_intents (
      id uuid primary key,
      order_id uuid not null references orders (id),
      rail text not null,
      currency text not null,
      amount numeric(24, 6) not null check (amount > 0),
      pay_to text,
      tail integer,
      reference text,
      checkout_url text,
      qr_content text,
      status text not null default 'open' check (status in ('open', 'paid', 'held', 'expired', 'replaced', 'refunded')),
      amount_received numeric(24, 6),
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      closed_at timestamptz
    )`.execute(db);
  await sql`create unique index payment_intents_open_order_idx on payment_intents (order_id) where status = 'open'`.execute(db);
  await sql`create index payment_intents_waiting_idx on payment_intents (rail, expires_at) where status = 'open'`.execute(db);
  await sql`create unique index payment_intents_reference_idx on payment_intents (rail, reference) where reference is not null`.execute(db);
  await sql`create index payment_intents_tail_idx on payment_intents (pay_to, tail, created_at) where tail is not null`.execute(db);
  await sql`create index payment_intents_order_idx on payment_intents (order_id, created_at)`.execute(db);
  await sql`
    create table payment_events (
      id uuid primary key,
      event_key text not null unique,
      rail text not null,
      kind text not null,
      order_id uuid,
      intent_id uuid,
      reference text not null default '',
      amount numeric(24, 6),
      currency text not null default '',
      outcome text not null,
      details jsonb not null default '{}',
      seen_count integer not null default 1,
      received_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index payment_events_order_idx on payment_events (order_id, received_at)`.execute(db);
  await sql`
    create table mail_outbox (
      id uuid primary key,
      to_address text not null,
      subject text not null,
      body text not null,
      link text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`alter table orders add column payment_session jsonb`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table orders drop column payment_session`.execute(db);
  await sql`drop table mail_outbox`.execute(db);
  await sql`drop table payment_events`.execute(db);
  await sql`drop table payment_intents`.execute(db);
  await sql`drop table payment_rails`.execute(db);
  await sql`drop table payment_settings`.execute(db);
}
