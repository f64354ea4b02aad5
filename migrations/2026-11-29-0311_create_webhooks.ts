import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Outbound webhooks (issue 27, decision 174).
// - webhook_endpoints: an account's HTTPS endpoint for some order events; its signing secret is sealed
//   with the data key (it must be read to sign, so it cannot be hashed).
// - webhook_deliveries: the outbox. One row per event and endpoint, written in the transaction that changed
//   the order, so it exists exactly when the change commits; its id is the webhook-id the receiver sees on
//   every attempt. Leased and retried like push_outbox, kept after the end (delivered or given up) to be read.
// - webhook_attempts: each post, with the answer's status or the error, for the account to read.
export async function up(db: Db): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id uuid primary key,
      user_id uuid not null references users (id),
      url text not null,
      events text[] not null check (cardinality(events) > 0),
      secret_enc text not null,
      created_at timestamptz not null default now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`create index webhook_endpoints_user_idx on webhook_endpoints (user_id) where deleted_at is null`.execute(db);
  await sql`
    create table webhook_deliveries (
      id uuid primary key,
      endpoint_id uuid not null references webhook_endpoints (id),
      event text not null,
      order_id uuid not null,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      claimed_until timestamptz,
      state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc)`.execute(db);
  await sql`
    create table webhook_attempts (
      id uuid primary key,
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      at timestamptz not null default now(),
      status integer,
      error text,
      duration_ms integer not null
    )`.execute(db);
  await sql`create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table webhook_attempts`.execute(db);
  await sql`drop table webhook_deliveries`.execute(db);
  await sql`drop table webhook_endpoints`.execute(db);
}
