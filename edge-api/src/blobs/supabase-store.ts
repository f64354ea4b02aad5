import { publicBuckets, type BlobStore, type Bucket } from './blob-store.ts';

export interface SupabaseBlobStoreOptions {
  /** The project URL, e.g. https://abcd.supabase.co */
  url: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
  now?: () => number;
}

const SIGNED_URL_SECONDS = 2 * 3600;
/** A cached signed URL is handed out while it has at least this long to live. */
const MIN_REMAINING_MS = 3600 * 1000;

const MAX_CACHED = 10_000;

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * Images in Supabase Storage through its HTTP API, with the service-role key (server side only).
 * Signed URLs are cached until they near expiry: a list of stocks does not sign every image on every
 * load, and the same URL lets the service worker's image cache answer it offline.
 */
export function createSupabaseBlobStore(options: SupabaseBlobStoreOptions): BlobStore {
  const base = `${options.url.replace(/\/+$/, '')}/storage/v1`;
  // Called through a wrapper: Workers reject a fetch detached from the global scope.
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const auth = { authorization: `Bearer ${options.serviceRoleKey}`, apikey: options.serviceRoleKey };
  const signed = new Map<string, { url: string; expiresAt: number }>();

  const request = async (what: string, url: string, init: RequestInit) => {
    const response = await doFetch(url, { ...init, headers: { ...auth, ...init.headers } });
    if (!response.ok) {
      let message = response.statusText;
      try {
        const body = (await response.json()) as { message?: string; error?: string };
        message = body.message ?? body.error ?? message;
      } catch {
        // Not JSON: the status text will do.
      }
      throw new Error(`Supabase Storage ${what} failed (${response.status}): ${message}`);
    }
    return response;
  };

  return {
    async put(bucket, path, bytes, contentType) {
      await request('upload', `${base}/object/${bucket}/${encodePath(path)}`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'x-upsert': 'false', 'cache-control': 'max-age=31536000' },
        body: bytes as Uint8Array<ArrayBuffer>,
      });
    },
    async url(bucket: Bucket, path: string) {
      if (publicBuckets.has(bucket)) return `${base}/object/public/${bucket}/${encodePath(path)}`;
      const key = `${bucket}/${path}`;
      const cached = signed.get(key);
      if (cached && cached.expiresAt - now() >= MIN_REMAINING_MS) return cached.url;
      const issuedAt = now();
      const response = await request('signing', `${base}/object/sign/${bucket}/${encodePath(path)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ expiresIn: SIGNED_URL_SECONDS }),
      });
      const { signedURL } = (await response.json()) as { signedURL?: string };
      if (!signedURL) throw new Error('Supabase Storage signing answered no signedURL');
      const url = `${base}${signedURL}`;
      if (signed.size >= MAX_CACHED) {
        for (const [cachedKey, entry] of signed) if (entry.expiresAt - issuedAt < MIN_REMAINING_MS) signed.delete(cachedKey);
        if (signed.size >= MAX_CACHED) signed.clear();
      }
      signed.set(key, { url, expiresAt: issuedAt + SIGNED_URL_SECONDS * 1000 });
      return url;
    },
    async remove(bucket, path) {
      signed.delete(`${bucket}/${path}`);
      await request('removal', `${base}/object/${bucket}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prefixes: [path] }),
      });
    },
  };
}
