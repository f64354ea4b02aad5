import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// The links the embedded auth mails (password recovery, email change): only a hash of each link's
// secret is kept, one live link per account and purpose, used once. A session remembers how it began
// (`password`, `recovery`, `email_change`): a recovery session may set a new password without the old one.
export async function up(db: Db): Promise<void> {
  await sql`
    create table auth_one_time_tokens (
      token_hash text primary key,
      user_id uuid not null references auth_users (id) on delete cascade,
      purpose text not null check (purpose in ('recovery', 'email_change')),
      new_email text,
      created_at timestamptz not null default now(),
      unique (user_id, purpose)
    )`.execute(db);
  await sql`alter table auth_sessions add column method text not null default 'password'`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table auth_sessions drop column method`.execute(db);
  await sql`drop table auth_one_time_tokens`.execute(db);
}
