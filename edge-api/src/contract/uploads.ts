/** `payment`: a customer's payment screenshot (issue 17); `report`: a customer's screenshot of a problem (decision 063). */
export type UploadKind = 'service' | 'proof' | 'stock' | 'payment' | 'report' | 'delivery' | 'ticket';

/** The largest file each kind of upload takes, in MB: the server refuses more, and the forms say so first. */
/** `delivery`: a finished document delivered to an order (decision 069), of any type. */
export const uploadLimitMegabytes: Record<UploadKind, number> = { service: 32, proof: 10, stock: 10, payment: 10, report: 10, delivery: 20, ticket: 10 };

/** What POST /api/uploads answers: the path a record keeps, and a URL the browser can show now. */
export interface UploadedImage {
  path: string;
  url: string;
}

/** Where uploaded images are kept: service pictures are public, proofs and stock images private. */
export type Bucket = 'service-images' | 'order-proofs' | 'stock-images';

export const buckets: readonly Bucket[] = ['service-images', 'order-proofs', 'stock-images'];

export const isBucket = (value: string): value is Bucket => (buckets as readonly string[]).includes(value);

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
