import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateLocalKeys } from '../local-keys.ts';
import { createDiskBlobStore, type DiskBlobStore } from './disk-store.ts';

let root: string;
let now: Date;
let store: DiskBlobStore;
const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

const parts = (url: string) => {
  const parsed = new URL(url, 'http://shop.test');
  return { pathname: parsed.pathname, expires: parsed.searchParams.get('expires') ?? undefined, sig: parsed.searchParams.get('sig') ?? undefined };
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'disk-store-test-'));
  now = new Date('2026-11-22T10:15:00Z');
  store = await createDiskBlobStore(root, crypto.getRandomValues(new Uint8Array(32)), () => now);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the disk blob store', () => {
  it("writes files only the server's user can read, whatever the umask", async () => {
    const previous = process.umask(0o000);
    try {
      await store.put('order-proofs', 'nested/p.png', bytes, 'image/png');
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(root, 'order-proofs', 'nested', 'p.png'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, 'order-proofs', 'nested'))).mode & 0o777).toBe(0o700);
  });

  it('keeps keys.json readable by its owner only, even after it was loosened', async () => {
    await loadOrCreateLocalKeys(root);
    expect((await stat(join(root, 'keys.json'))).mode & 0o777).toBe(0o600);
    await chmod(join(root, 'keys.json'), 0o666);
    await loadOrCreateLocalKeys(root);
    expect((await stat(join(root, 'keys.json'))).mode & 0o777).toBe(0o600);
  });

  it('keeps the bytes it is given until they are removed', async () => {
    await store.put('stock-images', 'a.png', bytes, 'image/png');
    expect(await store.read('stock-images', 'a.png')).toEqual(bytes);
    expect(await store.read('order-proofs', 'a.png')).toBeNull();
    await store.remove('stock-images', 'a.png');
    expect(await store.read('stock-images', 'a.png')).toBeNull();
  });

  it('refuses paths that would leave their bucket', async () => {
    await expect(store.put('stock-images', '../service-images/x.png', bytes, 'image/png')).rejects.toThrow();
    await expect(store.put('stock-images', '../../escape.png', bytes, 'image/png')).rejects.toThrow();
    expect(await readdir(root)).toEqual([]);
    await store.put('order-proofs', 'secret.png', bytes, 'image/png');
    expect(await store.read('stock-images', '../order-proofs/secret.png')).toBeNull();
  });

  it('gives public files a plain URL and private files a signed one that opens only that file', async () => {
    expect(await store.url('service-images', 'x.png')).toBe('/files/service-images/x.png');
    const url = parts(await store.url('stock-images', 'x.png'));
    expect(url.pathname).toBe('/files/stock-images/x.png');
    expect(await store.verify('stock-images', 'x.png', url.expires, url.sig)).toBe(true);
    expect(await store.verify('stock-images', 'y.png', url.expires, url.sig)).toBe(false);
    expect(await store.verify('order-proofs', 'x.png', url.expires, url.sig)).toBe(false);
    expect(await store.verify('stock-images', 'x.png', String(Number(url.expires) + 3600), url.sig)).toBe(false);
    expect(await store.verify('stock-images', 'x.png', url.expires, undefined)).toBe(false);
    expect(await store.verify('stock-images', 'x.png', undefined, url.sig)).toBe(false);
  });

  it('keeps a signed URL the same for the day, so cached images still match, and lets it expire', async () => {
    const first = await store.url('order-proofs', 'p.jpg');
    now = new Date('2026-11-22T23:55:00Z');
    expect(await store.url('order-proofs', 'p.jpg')).toBe(first);
    const { expires, sig } = parts(first);
    expect(await store.verify('order-proofs', 'p.jpg', expires, sig)).toBe(true);
    now = new Date(Number(expires) * 1000 + 1000);
    expect(await store.verify('order-proofs', 'p.jpg', expires, sig)).toBe(false);
  });

  it('does not honour a signature made with another key', async () => {
    const other = await createDiskBlobStore(root, crypto.getRandomValues(new Uint8Array(32)), () => now);
    const { expires, sig } = parts(await other.url('stock-images', 'x.png'));
    expect(await store.verify('stock-images', 'x.png', expires, sig)).toBe(false);
  });
});
