import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Sign-in by mail (Supabase's signInWithOtp, decision 168): a mailed link (purpose 'magiclink') that also
// carries a six-digit code. Only hashes are kept; a code allows a few wrong tries, counted on its row.
export async function up(db: Db): Promise<void> {
  await sql`alter table auth_one_time_tokens drop constraint auth_one_time_tokens_purpose_check`.execute(db);
  await sql`alter table auth_one_time_tokens add constraint auth_one_time_tokens_purpose_check check (purpose in ('recovery', 'email_change', 'magiclink'))`.execute(
    db,
  );
  await sql`alter table auth_one_time_tokens add column code_hash text`.execute(db);
  await sql`alter table auth_one_time_tokens add column code_failures integer not null default 0`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`delete from auth_one_time_tokens where purpose = 'magiclink'`.execute(db);
  await sql`alter table auth_one_time_tokens drop column code_failures`.execute(db);
  await sql`alter table auth_one_time_tokens drop column code_hash`.execute(db);
  await sql`alter table auth_one_time_tokens drop constraint auth_one_time_tokens_purpose_check`.execute(db);
  await sql`alter table auth_one_time_tokens add constraint auth_one_time_tokens_purpose_check check (purpose in ('recovery', 'email_change'))`.execute(db);
}
