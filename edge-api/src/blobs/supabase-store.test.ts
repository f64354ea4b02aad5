import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
let signCount = 0;

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
  app.post('/storage/v1/object/sign/:bucket/:path{.+}', async (c) => {
    const { bucket, path } = c.req.param();
    const { expiresIn } = await c.req.json<{ expiresIn: number }>();
    if (!objects.has(`${bucket}/${path}`)) return c.json({ statusCode: '404', error: 'not_found', message: 'Object not found' }, 400);
    signCount += 1;
    return c.json({ signedURL: `/object/sign/${bucket}/${path}?token=tok${signCount}-${expiresIn}` });
  });
  app.post('/storage/v1/object/:bucket/:path{.+}', async (c) => {
    const { bucket, path } = c.req.param();
    const key = `${bucket}/${path}`;
    if (objects.has(key) && c.req.header('x-upsert') !== 'true') {
      return c.json({ statusCode: '409', error: 'Duplicate', message: 'The resource already exists' }, 400);
    }
    objects.set(key, new Uint8Array(await c.req.arrayBuffer()));
    return c.json({ Id: crypto.randomUUID(), Key: key });
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
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7]);

describe('the Supabase Storage blob store', () => {
  it('uploads the raw bytes with the content type, never overwriting, as the service role', async () => {
    const store = createSupabaseBlobStore({ url: `${baseUrl}/`, serviceRoleKey: SERVICE_KEY });
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

  it('answers the public URL of a public bucket without asking the server', async () => {
    const store = createSupabaseBlobStore({ url: baseUrl, serviceRoleKey: SERVICE_KEY });
    expect(await store.url('service-images', 'b2.jpg')).toBe(`${baseUrl}/storage/v1/object/public/service-images/b2.jpg`);
    expect(seen).toEqual([]);
  });

  it('signs private files, reusing a signed URL while it has an hour left', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const store = createSupabaseBlobStore({ url: baseUrl, serviceRoleKey: SERVICE_KEY, now: () => now });
    await store.put('order-proofs', 'p.png', png, 'image/png');
    seen = [];

    const first = await store.url('order-proofs', 'p.png');
    expect(first).toMatch(new RegExp(`^${baseUrl}/storage/v1/object/sign/order-proofs/p\\.png\\?token=tok\\d+-7200$`));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/storage/v1/object/sign/order-proofs/p.png' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(new TextDecoder().decode(seen[0]!.body))).toEqual({ expiresIn: 7200 });

    now += 30 * 60 * 1000;
    expect(await store.url('order-proofs', 'p.png')).toBe(first);
    expect(seen).toHaveLength(1);

    now += 40 * 60 * 1000;
    const second = await store.url('order-proofs', 'p.png');
    expect(second).not.toBe(first);
    expect(seen).toHaveLength(2);
  });

  it('removes a file through the bucket with its path as a prefix', async () => {
    const store = createSupabaseBlobStore({ url: baseUrl, serviceRoleKey: SERVICE_KEY });
    await store.put('stock-images', 'gone.png', png, 'image/png');
    await store.remove('stock-images', 'gone.png');
    const removal = seen.at(-1)!;
    expect(removal).toMatchObject({ method: 'DELETE', path: '/storage/v1/object/stock-images' });
    expect(JSON.parse(new TextDecoder().decode(removal.body))).toEqual({ prefixes: ['gone.png'] });
    expect(objects.has('stock-images/gone.png')).toBe(false);
  });

  it('reports the server error when a call fails, without the key', async () => {
    const store = createSupabaseBlobStore({ url: baseUrl, serviceRoleKey: 'wrong-key' });
    const failure = store.put('stock-images', 'x.png', png, 'image/png');
    await expect(failure).rejects.toThrow(/upload failed \(400\): Invalid Compact JWS/);
    await expect(failure).rejects.not.toThrow(/wrong-key/);
    const signing = createSupabaseBlobStore({ url: baseUrl, serviceRoleKey: SERVICE_KEY });
    await expect(signing.url('stock-images', 'missing.png')).rejects.toThrow(/signing failed \(400\): Object not found/);
  });
});
