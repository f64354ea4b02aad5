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
}

/** A row's column still holds an inline image: the predicate of migration 2026-11-23-2320's partial indexes. */
const inline = (column: string) => sql<boolean>`${sql.ref(column)} like 'data:%'`;

/**
 * How many rows still hold an inline image, per table: a count on the partial indexes of migration
 * 2026-11-23-2320, so nothing to read once nothing is left. `npm run migrate` asks before it opens an
 * image store, to say how much is waiting when it has none.
 */
export async function countInlineImageRows(db: Kysely<Database>): Promise<{ services: number; orders: number; wiseStocks: number }> {
  const count = (table: 'services' | 'orders' | 'wise_stocks', where: ReturnType<typeof inline>) =>
    db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where(where).executeTakeFirstOrThrow();
  const [services, orders, wiseStocks] = await Promise.all([
    count('services', inline('image')),
    count('orders', inline('image')),
    count('wise_stocks', sql<boolean>`${inline('auth_image')} or ${inline('doc_img1')} or ${inline('doc_img2')}`),
  ]);
  return { services: Number(services.n), orders: Number(orders.n), wiseStocks: Number(wiseStocks.n) };
}

/**
 * Images are kept by reference only (decision 051). Rows written by earlier versions may hold an inline
 * `data:` image, and orders copied their service's into each of them: 65% of a staff device's first
 * sync. This moves each distinct one into the image store once (named by a hash of its bytes, so a
 * second run or a second row finds the same file) and rewrites every row holding it, with a new sync
 * version so devices fetch the reference. Service pictures go to the public `service-images` bucket and
 * the rows keep its URL, as an uploaded picture's; stock images to the private `stock-images` as a
 * reference. `known` maps an inline image to the address it has now without storing it (the demo's
 * pictures, which are files of the site). An inline image the store does not keep (SVG, or not an
 * image) is left as it is and counted.
 *
 * Runs after the migrations; the partial indexes of migration 2026-11-23-2320 make it a few index
 * look-ups once nothing is left.
 */
export async function moveInlineImages(
  deps: { db: Kysely<Database>; blobs: BlobStore; logger: Logger },
  known: ReadonlyMap<string, () => Promise<string>> = new Map(),
): Promise<MovedImages> {
  const { db, blobs } = deps;
  const result: MovedImages = { moved: 0, known: 0, left: 0, rows: { services: 0, orders: 0, wiseStocks: 0 } };

  const services = await db.selectFrom('services').select(['id', 'image']).where(inline('image')).execute();
  const orderImages = await db.selectFrom('orders').select('image').distinct().where(inline('image')).execute();
  const stocks = await db
    .selectFrom('wise_stocks')
    .select(['id', 'auth_image', 'doc_img1', 'doc_img2'])
    .where((eb) => eb.or([inline('auth_image'), inline('doc_img1'), inline('doc_img2')]))
    .execute();
  if (services.length + orderImages.length + stocks.length === 0) return result;

  // One address per distinct inline image and bucket; null: leave it.
  const addresses = new Map<string, string | null>();
  const addressOf = async (dataUrl: string, bucket: Bucket, asReference: boolean): Promise<string | null> => {
    const key = `${bucket} ${dataUrl}`;
    if (addresses.has(key)) return addresses.get(key)!;
    let address: string | null = null;
    const knownAddress = known.get(dataUrl);
    if (knownAddress) {
      address = await knownAddress();
      result.known += 1;
    } else {
      const bytes = await decodeDataUrl(dataUrl);
      const type = bytes && detectImageType(bytes);
      if (bytes && type) {
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
        const name = `inline-${Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}.${type.extension}`;
        if (!(await blobs.read(bucket, name))) await blobs.put(bucket, name, bytes, type.mime);
        address = asReference ? `${bucket}/${name}` : await blobs.url(bucket, name);
        result.moved += 1;
      } else {
        result.left += 1;
      }
    }
    addresses.set(key, address);
    return address;
  };

  const serviceAddresses = new Map<string, string>();
  for (const { image } of [...services, ...orderImages]) {
    const address = await addressOf(image, 'service-images', false);
    if (address) serviceAddresses.set(image, address);
  }
  const stockChanges: { id: string; set: Record<string, string> }[] = [];
  for (const stock of stocks) {
    const set: Record<string, string> = {};
    for (const column of ['auth_image', 'doc_img1', 'doc_img2'] as const) {
      const value = stock[column];
      if (!value.startsWith('data:')) continue;
      const address = await addressOf(value, 'stock-images', true);
      if (address) set[column] = address;
    }
    if (Object.keys(set).length) stockChanges.push({ id: stock.id, set });
  }

  await db.transaction().execute(async (trx) => {
    if (serviceAddresses.size === 0 && stockChanges.length === 0) return;
    const version = await nextVersion(trx);
    for (const [image, address] of serviceAddresses) {
      const s = await trx.updateTable('services').set({ image: address, version, updated_at: writeTime() }).where('image', '=', image).where(inline('image')).executeTakeFirst();
      const o = await trx.updateTable('orders').set({ image: address, version, updated_at: writeTime() }).where('image', '=', image).where(inline('image')).executeTakeFirst();
      result.rows.services += Number(s.numUpdatedRows);
      result.rows.orders += Number(o.numUpdatedRows);
    }
    for (const { id, set } of stockChanges) {
      await trx.updateTable('wise_stocks').set({ ...set, version, updated_at: writeTime() }).where('id', '=', id).execute();
      result.rows.wiseStocks += 1;
    }
  });
  const { moved, known: mapped, left, rows } = result;
  deps.logger.info('Moved inline images into the image store', { moved, known: mapped, left, ...rows });
  if (left) deps.logger.warn('Some inline images were left in place: not a PNG, JPEG, WebP or GIF image', { left });
  return result;
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
