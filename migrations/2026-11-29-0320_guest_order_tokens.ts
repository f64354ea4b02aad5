import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Ordering with just an email (issue 32 item 1, decision 177): the device that placed such an order may
// read the order's state (never its credentials) for a while with a token only it was given. Only the
// token's SHA-256 is kept, with the time it stops working.
export async function up(db: Db): Promise<void> {
  await sql`alter table orders add column status_token_hash text, add column status_token_expires_at timestamptz`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table orders drop column status_token_hash, drop column status_token_expires_at`.execute(db);
}
