import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Web push retries (decision 067, amendment "retries"). A message is no longer deleted when a sender takes
// it: it is leased (claimed_until) and counted (attempts), deleted once every subscription it goes to has
// had its final answer, and otherwise put back for next_attempt_at. sent_to lists the subscriptions that
// already had theirs, so a retry goes only to the others. Every column has a default: a sender of the
// previous version (deleting what it takes) still works on this table while a deploy rolls out.
export async function up(db: Db): Promise<void> {
  await sql`
    alter table push_outbox
      add column attempts integer not null default 0,
      add column next_attempt_at timestamptz not null default now(),
      add column claimed_until timestamptz,
      add column sent_to uuid[] not null default '{}'`.execute(db);
  await sql`create index push_outbox_due_idx on push_outbox (next_attempt_at)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop index push_outbox_due_idx`.execute(db);
  await sql`
    alter table push_outbox
      drop column sent_to,
      drop column claimed_until,
      drop column next_attempt_at,
      drop column attempts`.execute(db);
}
