import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Web push (issue 17, item 4; decision 067). A subscription per device that allowed notifications: the
// push service's endpoint (unique: one browser profile, one row, whoever subscribed it last), the keys the
// message is encrypted to, the user, and the device. push_outbox holds the messages a change decided to
// send, written in the change's transaction and sent (then deleted) once it has committed.
export async function up(db: Db): Promise<void> {
  await sql`
    create table push_subscriptions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      endpoint text not null unique,
      p256dh text not null,
      auth text not null,
      device_id text not null,
      device_label text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index push_subscriptions_user_idx on push_subscriptions (user_id)`.execute(db);
  await sql`
    create table push_outbox (
      id bigserial primary key,
      user_id uuid,
      to_staff boolean not null default false,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      check ((user_id is null) = to_staff)
    )`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table push_outbox`.execute(db);
  await sql`drop table push_subscriptions`.execute(db);
}
