import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// More lists page by key (decision 242): coupons, API keys, a service's stock and its import batches newest
// first, tickets the latest message first, the id breaking ties. These indexes enter each list at a cursor
// (within its service, customer, status or assignee) without walking the rows before it.
export async function up(db: Db): Promise<void> {
  await sql`create index coupons_list_idx on coupons (created_at desc, id)`.execute(db);
  await sql`create index api_keys_list_idx on api_keys (created_at desc, id)`.execute(db);
  await sql`create index service_stocks_list_idx on service_stocks (service_id, created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index service_stock_batches_list_idx on service_stock_batches (service_id, created_at desc, id)`.execute(db);
  await sql`drop index service_stock_batches_service_idx`.execute(db);
  await sql`create index tickets_list_idx on tickets (last_message_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index tickets_customer_list_idx on tickets (user_id, last_message_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index tickets_assignee_list_idx on tickets (assignee_id, last_message_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index tickets_status_list_idx on tickets (status, last_message_at desc, id) where deleted_at is null`.execute(db);
  await sql`drop index tickets_queue_idx`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`create index tickets_queue_idx on tickets (status, last_message_at desc) where deleted_at is null`.execute(db);
  await sql`drop index tickets_status_list_idx`.execute(db);
  await sql`drop index tickets_assignee_list_idx`.execute(db);
  await sql`drop index tickets_customer_list_idx`.execute(db);
  await sql`drop index tickets_list_idx`.execute(db);
  await sql`create index service_stock_batches_service_idx on service_stock_batches (service_id, created_at desc)`.execute(db);
  await sql`drop index service_stock_batches_list_idx`.execute(db);
  await sql`drop index service_stocks_list_idx`.execute(db);
  await sql`drop index api_keys_list_idx`.execute(db);
  await sql`drop index coupons_list_idx`.execute(db);
}
