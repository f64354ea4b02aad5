import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Images are kept by reference only (decision 051). Rows of earlier versions may still hold an inline
// data: image; these partial indexes find them at once, so the move into the image store that runs
// after the migrations (operations/move-inline-images.ts) costs nothing at a start once it is done.
export async function up(db: Db): Promise<void> {
  await sql`create index services_inline_image on services (id) where image like 'data:%'`.execute(db);
  await sql`create index orders_inline_image on orders (image) where image like 'data:%'`.execute(db);
  await sql`create index wise_stocks_inline_image on wise_stocks (id)
    where auth_image like 'data:%' or doc_img1 like 'data:%' or doc_img2 like 'data:%'`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop index wise_stocks_inline_image`.execute(db);
  await sql`drop index orders_inline_image`.execute(db);
  await sql`drop index services_inline_image`.execute(db);
}
