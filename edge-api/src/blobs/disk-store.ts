import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import type { Bucket } from '../contract/uploads.ts';
import { publicBuckets, type BlobStore } from './blob-store.ts';
import { createUrlSigner } from './signed-urls.ts';

/**
 * Images as files under `root`, served by the Node entry at /files/{bucket}/{path}. Private buckets are
 * read through our signed links (signed-urls.ts).
 */
export async function createDiskBlobStore(root: string, signingKey: Uint8Array, clock: () => Date = () => new Date()) {
  const signer = await createUrlSigner(signingKey, clock);
  const fileOf = (bucket: Bucket, path: string) => {
    const file = normalize(join(root, bucket, path));
    if (!file.startsWith(normalize(join(root, bucket)) + '/')) throw new Error('path escapes its bucket');
    return file;
  };

  const store: BlobStore = {
    async put(bucket, path, bytes) {
      const file = fileOf(bucket, path);
      // Readable by the server's user only: proofs and stock images are private (the process's umask may be looser).
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(file, bytes, { mode: 0o600 });
      await chmod(file, 0o600);
    },
    async url(bucket, path) {
      return publicBuckets.has(bucket) ? `/files/${bucket}/${path}` : signer.sign(bucket, path);
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
      return publicBuckets.has(bucket) || signer.verify(bucket, path, expires, sig);
    },
  };
  return store;
}

export type DiskBlobStore = Awaited<ReturnType<typeof createDiskBlobStore>>;
