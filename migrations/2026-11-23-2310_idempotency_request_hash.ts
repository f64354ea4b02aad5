import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// What request an idempotency key was first used with (a keyed hash of its body): the same key with
// another body is refused (422, as Stripe does) instead of answering the first answer. Keys stored
// before this column existed have none and are not checked.
export async function up(db: Db): Promise<void> {
  await sql`alter table idempotency_keys add column request_hash text`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table idempotency_keys drop column request_hash`.execute(db);
}
