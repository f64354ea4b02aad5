import type { Bucket } from '../contract/uploads.ts';
import { BucketMissing, publicBuckets, type BlobStore } from './blob-store.ts';
import { createUrlSigner } from './signed-urls.ts';

export interface SupabaseBlobStoreOptions {
  /** The project URL, e.g. https://abcd.supabase.co */
  url: string;
  serviceRoleKey: string;
  /** The key of our own /files links (deriveUrlSigningKey of CREDENTIALS_KEY). */
  urlSigningKey: Uint8Array;
  fetch?: typeof fetch;
  clock?: () => Date;
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** Storage's error body: `{statusCode, error, message}`, the real status often in statusCode with HTTP 400. */
interface StorageError {
  statusCode?: string;
  error?: string;
  message?: string;
}

/**
 * Images in Supabase Storage through its HTTP API, with the service-role key (server side only).
 * Public images are linked straight to Storage's public URLs. Private ones get our own signed /files
 * links, made in memory: a list of stocks costs no Storage call, and the same link for a day lets the
 * service worker's image cache answer it offline. The entry serving /files reads the file from Storage
 * when a browser opens the link.
 */
export async function createSupabaseBlobStore(options: SupabaseBlobStoreOptions): Promise<BlobStore> {
  const base = `${options.url.replace(/\/+$/, '')}/storage/v1`;
  // Called through a wrapper: Workers reject a fetch detached from the global scope.
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const auth = { authorization: `Bearer ${options.serviceRoleKey}`, apikey: options.serviceRoleKey };
  const signer = await createUrlSigner(options.urlSigningKey, options.clock);

  const failure = async (response: Response): Promise<StorageError> => {
    try {
      return (await response.json()) as StorageError;
    } catch {
      return { message: response.statusText };
    }
  };
  const request = async (what: string, bucket: Bucket, url: string, init: RequestInit) => {
    const response = await doFetch(url, { ...init, headers: { ...auth, ...init.headers } });
    if (response.ok) return response;
    const body = await failure(response);
    if (/bucket not found/i.test(`${body.error ?? ''} ${body.message ?? ''}`)) throw new BucketMissing(bucket);
    throw new Error(`Supabase Storage ${what} failed (${response.status}): ${body.message ?? body.error ?? response.statusText}`);
  };

  return {
    async put(bucket, path, bytes, contentType) {
      await request('upload', bucket, `${base}/object/${bucket}/${encodePath(path)}`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'x-upsert': 'false', 'cache-control': 'max-age=31536000' },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
    },
    async url(bucket, path) {
      return publicBuckets.has(bucket) ? `${base}/object/public/${bucket}/${encodePath(path)}` : signer.sign(bucket, path);
    },
    async remove(bucket, path) {
      await request('removal', bucket, `${base}/object/${bucket}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prefixes: [path] }),
      });
    },
    async read(bucket, path) {
      const response = await doFetch(`${base}/object/${bucket}/${encodePath(path)}`, { headers: auth });
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      const body = await failure(response);
      if (response.status === 404 || body.statusCode === '404') return null;
      throw new Error(`Supabase Storage download failed (${response.status}): ${body.message ?? body.error ?? response.statusText}`);
    },
    async verify(bucket, path, expires, sig) {
      return publicBuckets.has(bucket) || signer.verify(bucket, path, expires, sig);
    },
  };
}
