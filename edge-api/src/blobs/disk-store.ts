import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { publicBuckets, type BlobStore, type Bucket } from './blob-store.ts';

const SIGNED_URL_SECONDS = 3600;

/**
 * Images as files under `root`, served by the Node entry at /files/{bucket}/{path}. Private buckets are
 * read through URLs signed with HMAC that expire; the expiry is rounded to the hour so a URL stays the
 * same for a while and the service worker's image cache can answer it offline.
 */
export async function createDiskBlobStore(root: string, signingKey: Uint8Array, clock: () => Date = () => new Date()) {
  const hmac = await crypto.subtle.importKey('raw', signingKey as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const fileOf = (bucket: Bucket, path: string) => {
    const file = normalize(join(root, bucket, path));
    if (!file.startsWith(normalize(join(root, bucket)) + '/')) throw new Error('path escapes its bucket');
    return file;
  };
  const signature = async (bucket: string, path: string, expires: number) => {
    const mac = await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(`${bucket}/${path}:${expires}`));
    return Buffer.from(mac).toString('base64url');
  };

  const store: BlobStore & {
    read(bucket: Bucket, path: string): Promise<Uint8Array | null>;
    verify(bucket: Bucket, path: string, expires: string | undefined, sig: string | undefined): Promise<boolean>;
  } = {
    async put(bucket, path, bytes) {
      const file = fileOf(bucket, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
    },
    async url(bucket, path) {
      if (publicBuckets.has(bucket)) return `/files/${bucket}/${path}`;
      const now = Math.floor(clock().getTime() / 1000);
      const expires = (Math.floor(now / SIGNED_URL_SECONDS) + 2) * SIGNED_URL_SECONDS;
      return `/files/${bucket}/${path}?expires=${expires}&sig=${await signature(bucket, path, expires)}`;
    },
    async remove(bucket, path) {
      await rm(fileOf(bucket, path), { force: true });
    },
    async read(bucket, path) {
      try {
        return new Uint8Array(await readFile(fileOf(bucket, path)));
      } catch {
        return null;
      }
    },
    async verify(bucket, path, expires, sig) {
      if (publicBuckets.has(bucket)) return true;
      const at = Number(expires);
      if (!sig || !Number.isInteger(at) || at * 1000 < clock().getTime()) return false;
      const data = new TextEncoder().encode(`${bucket}/${path}:${at}`);
      return crypto.subtle.verify('HMAC', hmac, Buffer.from(sig, 'base64url'), data);
    },
  };
  return store;
}

export type DiskBlobStore = Awaited<ReturnType<typeof createDiskBlobStore>>;
