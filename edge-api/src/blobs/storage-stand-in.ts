import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { isBucket, parseBlobRef, type Bucket } from '../contract/uploads.ts';
import { detectImageType } from '../lib/image-types.ts';
import { publicBuckets, type BlobStore } from './blob-store.ts';

/** Storage's error format: HTTP 400 with the real status in `statusCode` (shared/notes/supabase-wire.md). */
const storageError = (c: Context, statusCode: string, error: string, message: string) => c.json({ statusCode, error, message }, 400);

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The part of Supabase Storage's HTTP API that our Supabase blob store calls, over another blob store:
 * upload, download, public read and removal, in Storage's wire format. The Node entry mounts it at
 * /storage/v1 only with SUPABASE_STAND_IN=1, so the Workers entry can run against this server (wrangler
 * dev, CI) as it runs against a Supabase project; nothing of the shop itself uses it.
 */
export function storageStandIn(store: BlobStore, serviceRoleKey: string) {
  const app = new Hono();
  const ref = (bucket: string, path: string): { bucket: Bucket; path: string } | null => (isBucket(bucket) ? parseBlobRef(`${bucket}/${path}`) : null);
  const file = (c: Context, bytes: Uint8Array) =>
    c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': detectImageType(bytes)?.mime ?? 'application/octet-stream' });

  app.get('/object/public/:bucket/:path{.+}', async (c) => {
    const found = ref(c.req.param('bucket'), c.req.param('path'));
    if (!found || !publicBuckets.has(found.bucket)) return storageError(c, '404', 'Bucket not found', 'Bucket not found');
    const bytes = await store.read(found.bucket, found.path);
    return bytes ? file(c, bytes) : storageError(c, '404', 'not_found', 'Object not found');
  });

  // Everything else is the server's own business: the service-role key, as the blob store sends it.
  app.use('*', async (c, next) => {
    const bearer = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!sameSecret(bearer, serviceRoleKey) || !sameSecret(c.req.header('apikey'), serviceRoleKey)) {
      return storageError(c, '403', 'Unauthorized', 'Invalid Compact JWS');
    }
    return next();
  });

  app.post('/object/:bucket/:path{.+}', async (c) => {
    if (!isBucket(c.req.param('bucket'))) return storageError(c, '404', 'Bucket not found', 'Bucket not found');
    const found = ref(c.req.param('bucket'), c.req.param('path'));
    if (!found) return storageError(c, '400', 'InvalidKey', 'Invalid key');
    if (c.req.header('x-upsert') !== 'true' && (await store.read(found.bucket, found.path))) {
      return storageError(c, '409', 'Duplicate', 'The resource already exists');
    }
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    await store.put(found.bucket, found.path, bytes, c.req.header('content-type') ?? 'application/octet-stream');
    return c.json({ Id: crypto.randomUUID(), Key: `${found.bucket}/${found.path}` });
  });

  app.get('/object/:bucket/:path{.+}', async (c) => {
    const found = ref(c.req.param('bucket'), c.req.param('path'));
    if (!found) return storageError(c, '404', 'not_found', 'Object not found');
    const bytes = await store.read(found.bucket, found.path);
    return bytes ? file(c, bytes) : storageError(c, '404', 'not_found', 'Object not found');
  });

  app.delete('/object/:bucket', async (c) => {
    const bucket = c.req.param('bucket');
    if (!isBucket(bucket)) return storageError(c, '404', 'Bucket not found', 'Bucket not found');
    let prefixes: unknown;
    try {
      ({ prefixes } = await c.req.json<{ prefixes?: unknown }>());
    } catch {
      return storageError(c, '400', 'InvalidRequest', 'Send {"prefixes": [...]}');
    }
    if (!Array.isArray(prefixes) || !prefixes.every((prefix) => typeof prefix === 'string')) {
      return storageError(c, '400', 'InvalidRequest', 'prefixes must be a list of names');
    }
    const removed: { name: string }[] = [];
    for (const path of prefixes as string[]) {
      const found = ref(bucket, path);
      if (found && (await store.read(found.bucket, found.path))) {
        await store.remove(found.bucket, found.path);
        removed.push({ name: path });
      }
    }
    return c.json(removed);
  });

  app.all('*', (c) => storageError(c, '404', 'not_found', 'Not found'));
  return app;
}
