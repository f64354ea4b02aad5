import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// The staff lists of users, Wise stocks and import batches page by key (decision 234): newest first, the
// id breaking ties. These indexes enter each list at a cursor without walking the rows before it.
export async function up(db: Db): Promise<void> {
  await sql`create index users_list_idx on users (created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index wise_stocks_list_idx on wise_stocks (created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index stock_batches_list_idx on stock_batches (created_at desc, id)`.execute(db);
  await sql`drop index stock_batches_created_idx`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`create index stock_batches_created_idx on stock_batches (created_at desc)`.execute(db);
  await sql`drop index stock_batches_list_idx`.execute(db);
  await sql`drop index wise_stocks_list_idx`.execute(db);
  await sql`drop index users_list_idx`.execute(db);
}
