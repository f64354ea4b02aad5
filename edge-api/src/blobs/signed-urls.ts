/** A signed URL is valid until the end of the next window after the one it was made in: one to two days. */
export const SIGNED_URL_WINDOW_SECONDS = 24 * 3600;

const encoder = new TextEncoder();
const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
const fromBase64Url = (text: string) => {
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
};

/**
 * Our own signed links to private files, `/files/{bucket}/{path}?expires=&sig=`, answered by the entry
 * that serves /files (from disk, or from Supabase Storage on demand). Signing is an HMAC in memory: a
 * list of a hundred private images costs no call to anyone. The expiry is rounded to a window, so a link
 * stays the same for a day, whatever isolate or process signs it, and the service worker's image
 * cache can answer it offline.
 */
export async function createUrlSigner(key: Uint8Array, clock: () => Date = () => new Date()) {
  const hmac = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const message = (bucket: string, path: string, expires: number) => encoder.encode(`${bucket}/${path}:${expires}`);
  return {
    async sign(bucket: string, path: string): Promise<string> {
      const now = Math.floor(clock().getTime() / 1000);
      const expires = (Math.floor(now / SIGNED_URL_WINDOW_SECONDS) + 2) * SIGNED_URL_WINDOW_SECONDS;
      const sig = toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', hmac, message(bucket, path, expires))));
      return `/files/${bucket}/${path}?expires=${expires}&sig=${sig}`;
    },
    async verify(bucket: string, path: string, expires: string | undefined, sig: string | undefined): Promise<boolean> {
      const at = Number(expires);
      if (!sig || !Number.isInteger(at) || at * 1000 < clock().getTime()) return false;
      let signature: Uint8Array;
      try {
        signature = fromBase64Url(sig);
      } catch {
        return false;
      }
      return crypto.subtle.verify('HMAC', hmac, signature as BufferSource, message(bucket, path, at));
    },
  };
}

export type UrlSigner = Awaited<ReturnType<typeof createUrlSigner>>;

/**
 * The link-signing key of a deployment without a key file (Supabase mode, Workers): derived from
 * CREDENTIALS_KEY with HKDF, so there is no extra secret to set, move or lose.
 */
export async function deriveUrlSigningKey(credentialsKey: Uint8Array): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', credentialsKey as BufferSource, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('storefront file links v1') },
    base,
    256,
  );
  return new Uint8Array(bits);
}
