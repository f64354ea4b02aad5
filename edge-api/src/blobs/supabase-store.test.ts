import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BucketMissing } from './blob-store.ts';
import { createSupabaseBlobStore } from './supabase-store.ts';

/**
 * A stand-in for Supabase Storage's HTTP API (not for our code): it records what it is sent and answers
 * the way the real service does, so the store is checked against the wire protocol.
 */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

const SERVICE_KEY = 'service-role-key-for-tests';
let server: ServerType;
let baseUrl: string;
let seen: Seen[] = [];
let objects: Map<string, Uint8Array>;
let bucketsThatExist: Set<string>;
const linkKey = crypto.getRandomValues(new Uint8Array(32));
const storeFor = (serviceRoleKey = SERVICE_KEY, clock?: () => Date) =>
  createSupabaseBlobStore({ url: `${baseUrl}/`, serviceRoleKey, urlSigningKey: linkKey, clock });

function fakeStorage() {
  const app = new Hono();
  app.use('*', async (c, next) => {
    seen.push({
      method: c.req.method,
      path: c.req.path,
      headers: Object.fromEntries(c.req.raw.headers),
      body: new Uint8Array(await c.req.raw.clone().arrayBuffer()),
    });
    if (c.req.header('authorization') !== `Bearer ${SERVICE_KEY}` || c.req.header('apikey') !== SERVICE_KEY) {
      return c.json({ statusCode: '403', error: 'Unauthorized', message: 'Invalid Compact JWS' }, 400);
    }
    return next();
  });
  const noBucket = { statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' };
  app.post('/storage/v1/object/:bucket/:path{.+}', async (c) => {
    const { bucket, path } = c.req.param();
    if (!bucketsThatExist.has(bucket)) return c.json(noBucket, 400);
    const key = `${bucket}/${path}`;
    if (objects.has(key) && c.req.header('x-upsert') !== 'true') {
      return c.json({ statusCode: '409', error: 'Duplicate', message: 'The resource already exists' }, 400);
    }
    objects.set(key, new Uint8Array(await c.req.arrayBuffer()));
    return c.json({ Id: crypto.randomUUID(), Key: key });
  });
  app.get('/storage/v1/object/:bucket/:path{.+}', (c) => {
    const { bucket, path } = c.req.param();
    const bytes = objects.get(`${bucket}/${path}`);
    if (!bytes) return c.json({ statusCode: '404', error: 'not_found', message: 'Object not found' }, 400);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'image/png' });
  });
  app.delete('/storage/v1/object/:bucket', async (c) => {
    const { prefixes } = await c.req.json<{ prefixes: string[] }>();
    const removed = prefixes.filter((prefix) => objects.delete(`${c.req.param('bucket')}/${prefix}`));
    return c.json(removed.map((name) => ({ name })));
  });
  return app;
}

beforeAll(async () => {
  const app = fakeStorage();
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  objects = new Map();
  bucketsThatExist = new Set(['service-images', 'order-proofs', 'stock-images']);
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7]);

describe('the Supabase Storage blob store', () => {
  it('uploads the raw bytes with the content type, never overwriting, as the service role', async () => {
    const store = await storeFor();
    await store.put('stock-images', 'a1.png', png, 'image/png');
    expect(seen).toHaveLength(1);
    const [upload] = seen;
    expect(upload).toMatchObject({ method: 'POST', path: '/storage/v1/object/stock-images/a1.png' });
    expect(upload!.headers).toMatchObject({
      'content-type': 'image/png',
      'x-upsert': 'false',
      authorization: `Bearer ${SERVICE_KEY}`,
      apikey: SERVICE_KEY,
    });
    expect(upload!.body).toEqual(png);
    expect(objects.get('stock-images/a1.png')).toEqual(png);

    await expect(store.put('stock-images', 'a1.png', png, 'image/png')).rejects.toThrow(/upload failed \(400\): The resource already exists/);
  });

  it('says which bucket is missing when an upload finds none', async () => {
    bucketsThatExist.delete('order-proofs');
    const store = await storeFor();
    const failure = store.put('order-proofs', 'p.png', png, 'image/png');
    await expect(failure).rejects.toBeInstanceOf(BucketMissing);
    await expect(failure).rejects.toMatchObject({ bucket: 'order-proofs' });
  });

  it('answers the public URL of a public bucket without asking the server', async () => {
    const store = await storeFor();
    expect(await store.url('service-images', 'b2.jpg')).toBe(`${baseUrl}/storage/v1/object/public/service-images/b2.jpg`);
    expect(seen).toEqual([]);
  });

  it('links a list of private images without one call to Storage, with links that stay the same in another isolate for the day', async () => {
    let now = new Date('2026-11-22T09:00:00Z');
    const names = Array.from({ length: 37 }, (_, i) => `stock-${i}.png`);
    const first = await storeFor(SERVICE_KEY, () => now);
    const links = await Promise.all(names.map((name) => first.url('stock-images', name)));
    expect(seen).toEqual([]);
    for (const [i, link] of links.entries()) expect(link).toMatch(new RegExp(`^/files/stock-images/stock-${i}\\.png\\?expires=\\d+&sig=[\\w-]+$`));

    // Another isolate (a new store with the same key), later the same day: the same links.
    now = new Date('2026-11-22T20:30:00Z');
    const second = await storeFor(SERVICE_KEY, () => now);
    expect(await Promise.all(names.map((name) => second.url('stock-images', name)))).toEqual(links);
    expect(seen).toEqual([]);

    const { expires, sig } = Object.fromEntries(new URL(links[0]!, 'http://shop.test').searchParams) as { expires: string; sig: string };
    expect(await second.verify('stock-images', 'stock-0.png', expires, sig)).toBe(true);
    expect(await second.verify('stock-images', 'stock-1.png', expires, sig)).toBe(false);
    expect(await second.verify('order-proofs', 'stock-0.png', expires, sig)).toBe(false);
    now = new Date(Number(expires) * 1000 + 1000);
    expect(await second.verify('stock-images', 'stock-0.png', expires, sig)).toBe(false);
  });

  it('reads a stored file as the service role when its link is opened, and null for a missing one', async () => {
    const store = await storeFor();
    await store.put('order-proofs', 'p.png', png, 'image/png');
    seen = [];
    expect(await store.read('order-proofs', 'p.png')).toEqual(png);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/storage/v1/object/order-proofs/p.png' });
    expect(seen[0]!.headers).toMatchObject({ authorization: `Bearer ${SERVICE_KEY}`, apikey: SERVICE_KEY });
    expect(await store.read('order-proofs', 'missing.png')).toBeNull();
  });

  it('removes a file through the bucket with its path as a prefix', async () => {
    const store = await storeFor();
    await store.put('stock-images', 'gone.png', png, 'image/png');
    await store.remove('stock-images', 'gone.png');
    const removal = seen.at(-1)!;
    expect(removal).toMatchObject({ method: 'DELETE', path: '/storage/v1/object/stock-images' });
    expect(JSON.parse(new TextDecoder().decode(removal.body))).toEqual({ prefixes: ['gone.png'] });
    expect(objects.has('stock-images/gone.png')).toBe(false);
  });

  it('reports the server error when a call fails, without the key', async () => {
    const store = await storeFor('wrong-key');
    const failure = store.put('stock-images', 'x.png', png, 'image/png');
    await expect(failure).rejects.toThrow(/upload failed \(400\): Invalid Compact JWS/);
    await expect(failure).rejects.not.toThrow(/wrong-key/);
    await expect(store.read('stock-images', 'x.png')).rejects.toThrow(/download failed \(400\): Invalid Compact JWS/);
  });
});
