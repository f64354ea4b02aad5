import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// A customer's problem report (POST /orders/{id}/report) stored its answer for replays as the owner's
// view of the delivered order: its password in plain JSON, outside the sealed columns. The API no
// longer stores that view (a replay reads the order again); the answers stored before are made the same.
export async function up(db: Db): Promise<void> {
  await sql`
    update idempotency_keys set response = '{"reported": true}'::jsonb
    where key like 'POST /orders/%/report %' and response <> '{"reported": true}'::jsonb`.execute(db);
}

// Nothing to put back: the removed answers are not needed (the order is read again) and must not return.
export async function down(): Promise<void> {}
