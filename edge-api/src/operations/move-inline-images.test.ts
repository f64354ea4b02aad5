import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../contract/services.ts';
import { insertService } from '../db/services.ts';
import { currentVersion, nextVersion } from '../db/versions.ts';
import { silentLogger } from '../lib/logger.ts';
import { DEMO_AUTH_IMAGE, demoAuthPng, legacyDemoAuthImage, legacyDemoImages } from '../seed/demo-images.ts';
import { inProcessHarness, type TestUser } from '../testing/api-harness.ts';
import { countInlineImageRows, moveInlineImages, rewriteInlineImageRows, storeInlineImages } from './move-inline-images.ts';

// Rows written before images were kept by reference only: inline data: pictures in services, copied
// into their orders, and in stock rows. The move is what a start after the upgrade runs.
let api: Awaited<ReturnType<typeof inProcessHarness>>;
let admin: TestUser;
beforeAll(async () => {
  api = await inProcessHarness();
  admin = await api.createUser('admin');
});
afterAll(() => api.close());

const png = demoAuthPng();
const pngDataUrl = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
const [demoInline, demoPath] = [...legacyDemoImages()][0]!;
const unknownSvg = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"/>')}`;
const gifDataUrl = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const service = { description: 'x', category: 'vps', features: [], popular: false, price: '5', deliveryTime: '1h', paymentMethods: [] };

async function insertOldRows() {
  const ids = { photo: crypto.randomUUID(), demo: crypto.randomUUID(), svg: crypto.randomUUID(), stock: crypto.randomUUID() };
  await api.db.transaction().execute(async (trx) => {
    const version = await nextVersion(trx);
    await insertService(trx, ids.photo, { ...service, title: 'Photo', image: pngDataUrl }, version);
    await insertService(trx, ids.demo, { ...service, title: 'Demo', image: demoInline }, version);
    await insertService(trx, ids.svg, { ...service, title: 'Drawn', image: unknownSvg }, version);
    const order = (productId: string, image: string) => ({
      id: crypto.randomUUID(),
      product_id: productId,
      title: 'x',
      image,
      price: '5',
      user_id: admin.id,
      user_email: admin.email,
      version,
    });
    await trx
      .insertInto('orders')
      .values([order(ids.photo, pngDataUrl), order(ids.photo, pngDataUrl), order(ids.demo, demoInline), order(ids.svg, unknownSvg)])
      .execute();
    await trx
      .insertInto('wise_stocks')
      .values({
        id: ids.stock,
        wise_name: 'A',
        wise_email: 'a@wise.test',
        wise_password_enc: 'x',
        wise_password_index: 'x',
        user_name: 'A',
        auth_image: legacyDemoAuthImage(),
        doc_img1: pngDataUrl,
        version,
      })
      .execute();
  });
  return ids;
}

const known = () =>
  new Map<string, () => Promise<string>>([
    ...[...legacyDemoImages()].map(([inline, path]) => [inline, async () => path] as const),
    [legacyDemoAuthImage(), async () => `${DEMO_AUTH_IMAGE.bucket}/${DEMO_AUTH_IMAGE.name}`],
  ]);

describe('moving inline images into the image store', () => {
  it('stores each picture once, rewrites every row holding it with a new version, and maps the demo pictures to their files', async () => {
    const ids = await insertOldRows();
    const before = await currentVersion(api.db);
    const result = await moveInlineImages({ db: api.db, blobs: api.deps.blobs, logger: silentLogger }, known());
    expect(result).toMatchObject({ left: 1, rows: { services: 2, orders: 3, wiseStocks: 1 } });

    const services = await api.db.selectFrom('services').selectAll().where('id', 'in', [ids.photo, ids.demo, ids.svg]).execute();
    const photo = services.find((s) => s.id === ids.photo)!;
    expect(photo.image).toMatch(/^\/files\/service-images\/inline-[0-9a-f]{32}\.png$/);
    expect(Number(photo.version)).toBeGreaterThan(before);
    expect(services.find((s) => s.id === ids.demo)!.image).toBe(demoPath);
    // An SVG is not an image the store keeps: left as it was, and counted.
    expect(services.find((s) => s.id === ids.svg)!.image).toBe(unknownSvg);

    const orders = await api.db.selectFrom('orders').select(['image', 'version']).where('product_id', 'in', [ids.photo, ids.demo]).execute();
    expect(orders.map((o) => o.image).sort()).toEqual([photo.image, photo.image, demoPath].sort());
    expect(orders.every((o) => Number(o.version) > before)).toBe(true);

    // The stored picture is the same bytes, served where the row points.
    const served = await api.app.request(photo.image);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    const stock = await api.db.selectFrom('wise_stocks').selectAll().where('id', '=', ids.stock).executeTakeFirstOrThrow();
    expect(stock.auth_image).toBe('stock-images/demo-auth.png');
    expect(stock.doc_img1).toMatch(/^stock-images\/inline-[0-9a-f]{32}\.png$/);
    expect(await api.deps.blobs.read('stock-images', stock.doc_img1.slice('stock-images/'.length))).toEqual(png);

    // The public list no longer carries the inline copy.
    const list = await api.call<Service[]>('GET', '/api/services');
    expect(JSON.stringify(list.body)).not.toContain('data:image/png');

    // A second run (the next start) finds nothing more to move but the SVG it leaves.
    const again = await moveInlineImages({ db: api.db, blobs: api.deps.blobs, logger: silentLogger }, known());
    expect(again).toMatchObject({ moved: 0, known: 0, left: 1, rows: { services: 0, orders: 0, wiseStocks: 0 } });
  });

  it("keeps a stock image staff replace while the files are being stored, and still moves the stock's other image", async () => {
    // `npm run migrate` runs while the earlier deployment still serves: staff may change a stock between the read and the rewrite.
    const id = crypto.randomUUID();
    await api.db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      await trx
        .insertInto('wise_stocks')
        .values({
          id,
          wise_name: 'B',
          wise_email: 'b@wise.test',
          wise_password_enc: 'x',
          wise_password_index: 'y',
          user_name: 'B',
          auth_image: gifDataUrl,
          doc_img1: pngDataUrl,
          version,
        })
        .execute();
    });
    const stored = await storeInlineImages({ db: api.db, blobs: api.deps.blobs }, known());

    const { version } = await api.db.selectFrom('wise_stocks').select('version').where('id', '=', id).executeTakeFirstOrThrow();
    const replaced = await api.call('PUT', `/api/wise-stocks/${id}`, {
      user: admin,
      json: { docImg1: 'https://images.example.test/passport.jpg', version: Number(version) },
    });
    expect(replaced.status).toBe(200);
    const afterStaff = await api.db.selectFrom('wise_stocks').select('version').where('id', '=', id).executeTakeFirstOrThrow();

    const rows = await rewriteInlineImageRows(api.db, stored);
    expect(rows.wiseStocks).toBe(1);
    const stock = await api.db.selectFrom('wise_stocks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stock.doc_img1).toBe('https://images.example.test/passport.jpg');
    expect(stock.auth_image).toMatch(/^stock-images\/inline-[0-9a-f]{32}\.gif$/);
    expect(Number(stock.version)).toBeGreaterThan(Number(afterStaff.version));
  });

  it("moves the authenticator image a delivery copied from an inline stock into the order, as the stock's own", async () => {
    // Delivered by an earlier version from a stock holding inline images: the order kept a copy in wise_image.
    const [gifOrder, demoOrder] = [crypto.randomUUID(), crypto.randomUUID()];
    await api.db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      const order = (id: string, wiseImage: string) => ({
        id,
        product_id: crypto.randomUUID(),
        title: 'x',
        image: '/demo/vps.svg',
        price: '5',
        user_id: admin.id,
        user_email: admin.email,
        order_status: 'delivered' as const,
        payment_status: 'paid' as const,
        wise_email: 'c@wise.test',
        wise_image: wiseImage,
        version,
      });
      await trx
        .insertInto('orders')
        .values([order(gifOrder, gifDataUrl), order(demoOrder, legacyDemoAuthImage())])
        .execute();
    });
    const waiting = await countInlineImageRows(api.db, { known: [...known().keys()] });
    const before = await currentVersion(api.db);

    const result = await moveInlineImages({ db: api.db, blobs: api.deps.blobs, logger: silentLogger }, known());
    expect(result.rows.orders).toBe(2);
    expect((await countInlineImageRows(api.db, { known: [...known().keys()] })).orders).toBe(waiting.orders - 2);
    const orders = await api.db.selectFrom('orders').select(['id', 'wise_image', 'version']).where('id', 'in', [gifOrder, demoOrder]).execute();
    const gif = orders.find((o) => o.id === gifOrder)!;
    // A private reference, as the stock's own image: never a public URL.
    expect(gif.wise_image).toMatch(/^stock-images\/inline-[0-9a-f]{32}\.gif$/);
    expect(await api.deps.blobs.read('stock-images', gif.wise_image!.slice('stock-images/'.length))).toEqual(
      Uint8Array.from(Buffer.from(gifDataUrl.split(',')[1]!, 'base64')),
    );
    expect(orders.find((o) => o.id === demoOrder)!.wise_image).toBe(`${DEMO_AUTH_IMAGE.bucket}/${DEMO_AUTH_IMAGE.name}`);
    expect(orders.every((o) => Number(o.version) > before)).toBe(true);
  });
});
