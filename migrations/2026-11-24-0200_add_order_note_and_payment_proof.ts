import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Issue 17 items 2 and 3: a service may ask for details (with a hint), an order keeps the customer's note
// to the shop and the payment method chosen, the customer's payment proof (a transaction id and/or a
// screenshot with the SHA-256 of its bytes, and the other orders that used the same proof), and when the customer cancelled it. The two partial indexes
// find a proof already used on another order.
export async function up(db: Db): Promise<void> {
  await sql`alter table services add column needs_details boolean not null default false`.execute(db);
  await sql`alter table services add column details_hint text not null default ''`.execute(db);
  await sql`alter table orders add column note text not null default ''`.execute(db);
  await sql`alter table orders add column payment_method text`.execute(db);
  await sql`alter table orders add column payment_reference text`.execute(db);
  await sql`alter table orders add column payment_proof text`.execute(db);
  await sql`alter table orders add column payment_proof_hash text`.execute(db);
  await sql`alter table orders add column proof_at timestamptz`.execute(db);
  // Which other orders used the same transaction id or screenshot when the proof came: {transactionId: [ids], screenshot: [ids]}.
  await sql`alter table orders add column proof_reuse jsonb`.execute(db);
  await sql`alter table orders add column cancelled_at timestamptz`.execute(db);
  await sql`create index orders_payment_reference_idx on orders (lower(payment_reference)) where payment_reference is not null`.execute(db);
  await sql`create index orders_payment_proof_hash_idx on orders (payment_proof_hash) where payment_proof_hash is not null`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop index if exists orders_payment_proof_hash_idx`.execute(db);
  await sql`drop index if exists orders_payment_reference_idx`.execute(db);
  for (const column of ['cancelled_at', 'proof_reuse', 'proof_at', 'payment_proof_hash', 'payment_proof', 'payment_reference', 'payment_method', 'note']) {
    await sql`alter table orders drop column ${sql.ref(column)}`.execute(db);
  }
  await sql`alter table services drop column details_hint`.execute(db);
  await sql`alter table services drop column needs_details`.execute(db);
}
