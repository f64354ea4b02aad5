import { parseBlobRef, type Bucket } from '../contract/uploads.ts';

export const publicBuckets: ReadonlySet<Bucket> = new Set(['service-images']);

/** Where uploaded images live: files under DATA_DIR in embedded mode, Supabase Storage otherwise. */
export interface BlobStore {
  put(bucket: Bucket, path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * A URL the browser can load: permanent for public buckets; for private ones our own signed
   * /files/... link, made in memory and the same for a day (see signed-urls.ts).
   */
  url(bucket: Bucket, path: string): Promise<string>;
  remove(bucket: Bucket, path: string): Promise<void>;
  /** The stored bytes, or null when there is no such file (what /files serves). */
  read(bucket: Bucket, path: string): Promise<Uint8Array | null>;
  /** Whether a /files link's expiry and signature open this file (public buckets need neither). */
  verify(bucket: Bucket, path: string, expires: string | undefined, sig: string | undefined): Promise<boolean>;
}

/** The storage has no such bucket: the deployment is not finished, and no upload can succeed until it is. */
export class BucketMissing extends Error {
  readonly bucket: Bucket;
  constructor(bucket: Bucket) {
    super(`The Storage bucket "${bucket}" does not exist`);
    this.bucket = bucket;
  }
}

/** Image fields hold a blob reference or an external URL; answers carry a URL the browser can load. */
export async function resolveImageUrl(blobs: BlobStore, value: string | null | undefined): Promise<string> {
  if (!value) return '';
  const ref = parseBlobRef(value);
  return ref ? blobs.url(ref.bucket, ref.path) : value;
}
