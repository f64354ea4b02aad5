import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// When a refresh token was rotated: a reuse within a short grace interval (two tabs refreshing at once)
// is not treated as theft.
export async function up(db: Db): Promise<void> {
  await sql`alter table auth_refresh_tokens add column revoked_at timestamptz`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table auth_refresh_tokens drop column revoked_at`.execute(db);
}
