import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Rate limits shared by every process and isolate (decision 049): one row per limited key. Times are
// milliseconds since the epoch from the app's clock. Unlogged: a count lost in a crash costs nothing, and
// the writes skip the WAL.
export async function up(db: Db): Promise<void> {
  await sql`
    create unlogged table rate_limits (
      key text primary key,
      window_start bigint not null,
      hits integer not null,
      locked_until bigint not null default 0,
      expires_at bigint not null
    )`.execute(db);
  await sql`create index rate_limits_expires_idx on rate_limits (expires_at)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table rate_limits`.execute(db);
}
