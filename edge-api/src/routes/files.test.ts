import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskBlobStore, type DiskBlobStore } from '../blobs/disk-store.ts';
import { fileRoutes } from './files.ts';

let root: string;
let now: Date;
let store: DiskBlobStore;
let files: Hono;
const gif = new Uint8Array([...'GIF89a'].map((ch) => ch.charCodeAt(0)).concat([1, 0, 1, 0, 0, 0, 0]));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'file-routes-test-'));
  now = new Date('2026-11-22T10:00:00Z');
  store = await createDiskBlobStore(root, crypto.getRandomValues(new Uint8Array(32)), () => now);
  files = new Hono().route('/files', fileRoutes(store));
  await store.put('service-images', 'banner.gif', gif, 'image/gif');
  await store.put('stock-images', 'auth.gif', gif, 'image/gif');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('serving stored files', () => {
  it('serves a public file to anyone, with its real type and long caching', async () => {
    const response = await files.request('/files/service-images/banner.gif');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(gif);
  });

  it('serves a private file through its signed URL until the URL expires', async () => {
    const url = await store.url('stock-images', 'auth.gif');
    const response = await files.request(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(gif);

    expect((await files.request('/files/stock-images/auth.gif')).status).toBe(403);
    const expires = Number(new URL(url, 'http://shop.test').searchParams.get('expires'));
    now = new Date(expires * 1000 + 1);
    expect((await files.request(url)).status).toBe(403);
    now = new Date('2026-11-22T10:00:00Z');
  });

  it('does not let a signed URL open another file', async () => {
    const url = await store.url('stock-images', 'auth.gif');
    const query = url.slice(url.indexOf('?'));
    expect((await files.request(`/files/order-proofs/auth.gif${query}`)).status).toBe(403);
    expect((await files.request(`/files/stock-images/other.gif${query}`)).status).toBe(403);
  });

  it('answers 404 for missing files and unknown buckets', async () => {
    expect((await files.request('/files/service-images/missing.png')).status).toBe(404);
    expect((await files.request(await store.url('stock-images', 'missing.png'))).status).toBe(404);
    expect((await files.request('/files/private-stuff/banner.gif')).status).toBe(404);
    // A public path must not reach a private file: the decoded path is checked against its bucket.
    expect((await files.request('/files/service-images/..%2fstock-images%2fauth.gif')).status).toBe(404);
  });
});
