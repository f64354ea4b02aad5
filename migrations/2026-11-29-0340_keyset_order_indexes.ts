import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Keyset paging (decision 185): every list of orders is read in the order created_at desc, id asc, from
// a cursor. Each filter the admin list offers gets an index in exactly that order behind its equality
// columns, so a page past a cursor is read from the index where the cursor stands, however deep. The
// indexes on (status, created_at) and (payment, created_at) and the user's (user_id, created_at) lacked
// the id that settles ties; they give way to the same columns with it. The open orders (pending,
// processing) are what staff act on and what a staff device's first sync reads (decision 187).
export async function up(db: Db): Promise<void> {
  await sql`create index orders_status_keyset_idx on orders (order_status, created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index orders_payment_keyset_idx on orders (payment_status, created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index orders_status_payment_idx on orders (order_status, payment_status, created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index orders_user_keyset_idx on orders (user_id, created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index orders_open_idx on orders (created_at desc, id) where deleted_at is null and order_status in ('pending', 'processing')`.execute(db);
  await sql`drop index orders_status_idx`.execute(db);
  await sql`drop index orders_payment_idx`.execute(db);
  await sql`drop index orders_user_idx`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`create index orders_user_idx on orders (user_id, created_at desc) where deleted_at is null`.execute(db);
  await sql`create index orders_status_idx on orders (order_status, created_at desc) where deleted_at is null`.execute(db);
  await sql`create index orders_payment_idx on orders (payment_status, created_at desc) where deleted_at is null`.execute(db);
  for (const name of ['orders_open_idx', 'orders_user_keyset_idx', 'orders_status_payment_idx', 'orders_payment_keyset_idx', 'orders_status_keyset_idx']) {
    await sql`drop index ${sql.id(name)}`.execute(db);
  }
}
