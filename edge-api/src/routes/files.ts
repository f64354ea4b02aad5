import { Hono } from 'hono';
import { publicBuckets, type BlobStore } from '../blobs/blob-store.ts';
import { isBucket, parseBlobRef } from '../contract/uploads.ts';
import { detectImageType } from '../lib/image-types.ts';

const missing = { error: { code: 'not_found', message: 'File not found' } };

/**
 * Serves stored files at /files/{bucket}/{path} (both entries mount it at /files), from disk or from
 * Supabase Storage: public buckets to anyone, private ones only through an unexpired signed link.
 */
export function fileRoutes(store: BlobStore) {
  return new Hono().get('/:bucket/:path{.+}', async (c) => {
    const { bucket, path } = c.req.param();
    if (!isBucket(bucket) || !parseBlobRef(`${bucket}/${path}`)) return c.json(missing, 404);
    // Delivered files go only through GET /api/orders/{id}/file, to their customer and staff (decision 069).
    if (bucket === 'order-proofs' && path.startsWith('deliveries/')) return c.json(missing, 404);
    const isPublic = publicBuckets.has(bucket);
    if (!isPublic && !(await store.verify(bucket, path, c.req.query('expires'), c.req.query('sig')))) {
      return c.json({ error: { code: 'forbidden', message: 'This link is invalid or has expired' } }, 403);
    }
    const bytes = await store.read(bucket, path);
    if (!bytes) return c.json(missing, 404);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': detectImageType(bytes)?.mime ?? 'application/octet-stream',
      'Content-Length': String(bytes.byteLength),
      'X-Content-Type-Options': 'nosniff',
      // Stored names are random and never reused, so a public file never changes. A private one is kept by
      // no HTTP cache (issue 30): the app's service worker keeps its own copy for offline use, deleted at sign-out.
      'Cache-Control': isPublic ? 'public, max-age=31536000, immutable' : 'no-store',
    });
  });
}
