import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Images are kept by reference only (decision 051). A delivery copies its stock's authenticator image
// into orders.wise_image, so orders delivered from a stock of an earlier version may hold an inline
// data: image there too; this partial index finds them at once, as 2026-11-23-2320's find the others,
// for the move into the image store (operations/move-inline-images.ts).
export async function up(db: Db): Promise<void> {
  await sql`create index orders_inline_wise_image on orders (wise_image) where wise_image like 'data:%'`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop index orders_inline_wise_image`.execute(db);
}
