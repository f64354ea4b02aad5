import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// When an account's email address was confirmed (null: never). The embedded auth has no mail server, so
// it no longer confirms an address that ADMIN_EMAILS lists; only the owner's `npm run admin` does.
// Accounts made before keep the confirmation they were answered with.
// A rotated refresh token keeps its successor sealed with itself, so a reuse within the grace interval
// gets the session's active token back instead of a new one.
export async function up(db: Db): Promise<void> {
  await sql`alter table auth_users add column email_confirmed_at timestamptz`.execute(db);
  await sql`update auth_users set email_confirmed_at = created_at`.execute(db);
  await sql`alter table auth_refresh_tokens add column successor_sealed text`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table auth_refresh_tokens drop column successor_sealed`.execute(db);
  await sql`alter table auth_users drop column email_confirmed_at`.execute(db);
}
