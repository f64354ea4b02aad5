import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// A staff device's working set (decision 187) takes the orders changed in the last days, newest first and
// at most a few thousand: this index reads them without walking the table.
export async function up(db: Db): Promise<void> {
  await sql`create index orders_updated_idx on orders (updated_at desc) where deleted_at is null`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop index orders_updated_idx`.execute(db);
}
