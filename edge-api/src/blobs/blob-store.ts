export type Bucket = 'service-images' | 'order-proofs' | 'stock-images';

export const buckets: readonly Bucket[] = ['service-images', 'order-proofs', 'stock-images'];
export const publicBuckets: ReadonlySet<Bucket> = new Set(['service-images']);

export const isBucket = (value: string): value is Bucket => (buckets as readonly string[]).includes(value);

/** Where uploaded images live: files under DATA_DIR in embedded mode, Supabase Storage otherwise. */
export interface BlobStore {
  put(bucket: Bucket, path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** A URL the browser can load: permanent for public buckets, short-lived and signed for private ones. */
  url(bucket: Bucket, path: string): Promise<string>;
  remove(bucket: Bucket, path: string): Promise<void>;
}

// No segment may start with a dot, so `.` and `..` never pass.
const safeSegment = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/**
 * A stored image reference such as `stock-images/1b9d….png` (what POST /api/uploads answers as `path`),
 * or null for anything else. Segments are plain names, so a reference never escapes its bucket.
 */
export function parseBlobRef(value: string): { bucket: Bucket; path: string } | null {
  const slash = value.indexOf('/');
  if (slash < 0) return null;
  const bucket = value.slice(0, slash);
  const path = value.slice(slash + 1);
  if (!isBucket(bucket) || path.length > 500) return null;
  const segments = path.split('/');
  if (!segments.every((segment) => safeSegment.test(segment))) return null;
  return { bucket, path };
}

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/** Image fields hold a blob reference or an external URL; answers carry a URL the browser can load. */
export async function resolveImageUrl(blobs: BlobStore, value: string | null | undefined): Promise<string> {
  if (!value) return '';
  const ref = parseBlobRef(value);
  return ref ? blobs.url(ref.bucket, ref.path) : value;
}
