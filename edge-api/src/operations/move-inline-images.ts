import { sql, type Kysely } from 'kysely';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Bucket } from '../contract/uploads.ts';
import type { Database } from '../db/schema.ts';
import { nextVersion, writeTime } from '../db/versions.ts';
import { detectImageType } from '../lib/image-types.ts';
import type { Logger } from '../lib/logger.ts';

/** What became of the inline images found: moved into the store, mapped to a known file, or left (not an image the store keeps). */
export interface MovedImages {
  moved: number;
  known: number;
  left: number;
  rows: { services: number; orders: number; wiseStocks: number };
  /** The distinct inline values left as they are. */
  leftValues: string[];
}

/** A row's column still holds an inline image: the predicate of the partial indexes of migrations 2026-11-23-2320 and 2026-11-26-0400. */
const inline = (column: string) => sql<boolean>`${sql.ref(column)} like 'data:%'`;

/**
 * Which inline values the move takes: any that is not an SVG (the store keeps none) or is `known` (the
 * earlier demo's pictures, SVGs pointed at their files), less those in `left` (values a move read and
 * left: bytes of no image type the store takes).
 */
export interface InlineImageRule {
  known: readonly string[];
  left?: readonly string[];
}

type RowCounts = MovedImages['rows'];

/** The column holds an inline value the move takes (given that it holds an inline one at all). */
const movable = (column: string, rule: InlineImageRule) => {
  const ref = sql.ref(column);
  return sql<boolean>`(${ref} not ilike 'data:image/svg%' or ${ref} = any(${[...rule.known]})) and ${ref} <> all(${[...(rule.left ?? [])]})`;
};
// The inline predicate comes first and alone in each arm, so each arm matches its partial index.
const waiting = (column: string, rule: InlineImageRule) => sql<boolean>`(${inline(column)} and ${movable(column, rule)})`;
const kept = (column: string, rule: InlineImageRule) => sql<boolean>`(${inline(column)} and not ${movable(column, rule)})`;
const anyOf = (arms: ReturnType<typeof inline>[]) => sql<boolean>`(${sql.join(arms, sql` or `)})`;
const stockColumns = ['auth_image', 'doc_img1', 'doc_img2'] as const;

/**
 * How many rows hold an inline image the move would move, per table: counts on the partial indexes of
 * migrations 2026-11-23-2320 and 2026-11-26-0400, so nothing to read once nothing is left. `npm run
 * migrate` asks before it opens an image store, to say how much is waiting when it has none, and again
 * after the move, for rows given an inline image meanwhile. Inline SVGs it does not count: the move
 * leaves them (inlineImagesKept).
 */
export async function countInlineImageRows(db: Kysely<Database>, rule: InlineImageRule): Promise<RowCounts> {
  const count = (table: 'services' | 'orders' | 'wise_stocks', where: ReturnType<typeof inline>) =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
  const [services, orders, wiseStocks] = await Promise.all([
    count('services', waiting('image', rule)),
    count('orders', anyOf([waiting('image', rule), waiting('wise_image', rule)])),
    count('wise_stocks', anyOf(stockColumns.map((column) => waiting(column, rule)))),
  ]);
  return { services: Number(services.n), orders: Number(orders.n), wiseStocks: Number(wiseStocks.n) };
}

/** The rows holding an inline image the move leaves as it is (an SVG typed in by hand): the services and stocks by id, the orders counted. */
export async function inlineImagesKept(
  db: Kysely<Database>,
  rule: InlineImageRule,
): Promise<{ services: { id: string; title: string }[]; orders: number; wiseStocks: { id: string; wiseName: string }[] }> {
  const [services, orders, wiseStocks] = await Promise.all([
    db.selectFrom('services').select(['id', 'title']).where(kept('image', rule)).orderBy('id').execute(),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(anyOf([kept('image', rule), kept('wise_image', rule)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('wise_stocks')
      .select(['id', 'wise_name'])
      .where(anyOf(stockColumns.map((column) => kept(column, rule))))
      .orderBy('id')
      .execute(),
  ]);
  return { services, orders: Number(orders.n), wiseStocks: wiseStocks.map((stock) => ({ id: stock.id, wiseName: stock.wise_name })) };
}

/** The columns that may hold an inline image, each with the bucket its image goes to and whether the row keeps a reference or a URL. */
const imageColumns = [
  { table: 'services', column: 'image', rows: 'services', bucket: 'service-images', reference: false },
  { table: 'orders', column: 'image', rows: 'orders', bucket: 'service-images', reference: false },
  // A delivery copies its stock's authenticator image here (operations/deliver.ts): private, as the stock's.
  { table: 'orders', column: 'wise_image', rows: 'orders', bucket: 'stock-images', reference: true },
  { table: 'wise_stocks', column: 'auth_image', rows: 'wiseStocks', bucket: 'stock-images', reference: true },
  { table: 'wise_stocks', column: 'doc_img1', rows: 'wiseStocks', bucket: 'stock-images', reference: true },
  { table: 'wise_stocks', column: 'doc_img2', rows: 'wiseStocks', bucket: 'stock-images', reference: true },
] as const satisfies readonly { table: keyof Database; column: string; rows: keyof MovedImages['rows']; bucket: Bucket; reference: boolean }[];

type ImageColumn = (typeof imageColumns)[number];

/** The inline images found and stored: for each column, each inline value read and the address that replaces it. */
export interface StoredInlineImages {
  columns: { column: ImageColumn; addresses: Map<string, string> }[];
  moved: number;
  known: number;
  left: number;
  leftValues: Set<string>;
}

/**
 * Images are kept by reference only (decision 051). Rows written by earlier versions may hold an inline
 * `data:` image, and orders copied their service's into each of them: 65% of a staff device's first
 * sync. This moves each distinct one into the image store once (named by a hash of its bytes, so a
 * second run or a second row finds the same file) and rewrites every row holding it, with a new sync
 * version so devices fetch the reference. Service pictures go to the public `service-images` bucket and
 * the rows keep its URL, as an uploaded picture's; stock images, and the copy a delivery made of one
 * in its order (`wise_image`), to the private `stock-images` as a reference. `known` maps an inline image to the address it has now without storing it (the demo's
 * pictures, which are files of the site). An inline image the store does not keep (SVG, or not an
 * image) is left as it is and counted.
 *
 * Runs after the migrations; the partial indexes of migrations 2026-11-23-2320 and 2026-11-26-0400
 * make it a few index look-ups once nothing is left.
 */
export async function moveInlineImages(
  deps: { db: Kysely<Database>; blobs: BlobStore; logger: Logger },
  known: ReadonlyMap<string, () => Promise<string>> = new Map(),
): Promise<MovedImages> {
  const stored = await storeInlineImages(deps, known);
  const rows = await rewriteInlineImageRows(deps.db, stored);
  const { moved, known: mapped, left } = stored;
  const result = { moved, known: mapped, left, rows, leftValues: [...stored.leftValues] };
  if (moved + mapped + left === 0) return result;
  deps.logger.info('Moved inline images into the image store', { moved, known: mapped, left, ...rows });
  if (left) deps.logger.warn('Some inline images were left in place: not a PNG, JPEG, WebP or GIF image', { left });
  return result;
}

/**
 * The first half of the move: reads the inline values still in the rows and stores each one (or finds
 * its known address). Writes no row, so the rows may change meanwhile (an earlier deployment may still
 * be serving while `npm run migrate` runs); rewriteInlineImageRows then replaces only the values read.
 */
export async function storeInlineImages(
  deps: { db: Kysely<Database>; blobs: BlobStore },
  known: ReadonlyMap<string, () => Promise<string>> = new Map(),
): Promise<StoredInlineImages> {
  const { db, blobs } = deps;
  const stored: StoredInlineImages = { columns: [], moved: 0, known: 0, left: 0, leftValues: new Set() };

  // One address per distinct inline image and bucket; null: leave it.
  const addresses = new Map<string, string | null>();
  const addressOf = async (dataUrl: string, bucket: Bucket, asReference: boolean): Promise<string | null> => {
    const key = `${bucket} ${dataUrl}`;
    if (addresses.has(key)) return addresses.get(key)!;
    let address: string | null = null;
    const knownAddress = known.get(dataUrl);
    if (knownAddress) {
      address = await knownAddress();
      stored.known += 1;
    } else {
      const bytes = await decodeDataUrl(dataUrl);
      const type = bytes && detectImageType(bytes);
      if (bytes && type) {
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
        const name = `inline-${Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}.${type.extension}`;
        if (!(await blobs.read(bucket, name))) await blobs.put(bucket, name, bytes, type.mime);
        address = asReference ? `${bucket}/${name}` : await blobs.url(bucket, name);
        stored.moved += 1;
      } else {
        stored.left += 1;
        stored.leftValues.add(dataUrl);
      }
    }
    addresses.set(key, address);
    return address;
  };

  for (const column of imageColumns) {
    const values = await sql<{
      value: string;
    }>`select distinct ${sql.ref(column.column)} as value from ${sql.table(column.table)} where ${inline(column.column)}`.execute(db);
    const found = new Map<string, string>();
    for (const { value } of values.rows) {
      const address = await addressOf(value, column.bucket, column.reference);
      if (address) found.set(value, address);
    }
    if (found.size) stored.columns.push({ column, addresses: found });
  }
  return stored;
}

/**
 * The second half: in one transaction with one new sync version, each column is rewritten where it still
 * holds the inline value read, never by the row's id alone: a picture staff replaced while the files were
 * being stored stays as they left it (a new inline value is found by the next run). Counts the rows rewritten.
 */
export async function rewriteInlineImageRows(db: Kysely<Database>, stored: StoredInlineImages): Promise<MovedImages['rows']> {
  const rewritten = { services: new Set<string>(), orders: new Set<string>(), wiseStocks: new Set<string>() };
  if (stored.columns.length) {
    await db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      for (const { column, addresses } of stored.columns) {
        const ref = sql.ref(column.column);
        for (const [value, address] of addresses) {
          const updated = await sql<{ id: string }>`update ${sql.table(column.table)} set ${ref} = ${address}, version = ${version}, updated_at = ${writeTime()}
            where ${ref} = ${value} and ${inline(column.column)} returning id`.execute(trx);
          for (const { id } of updated.rows) rewritten[column.rows].add(id);
        }
      }
    });
  }
  return { services: rewritten.services.size, orders: rewritten.orders.size, wiseStocks: rewritten.wiseStocks.size };
}

/** The bytes of a `data:` URL (base64 or percent-encoded), or null when it is not one. */
async function decodeDataUrl(url: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const response = await fetch(url);
    return new Uint8Array(await response.arrayBuffer());
  } catch {
    return null;
  }
}
