import { API_KEY_PREFIX } from '../contract/partners.ts';

/** Characters of a key shown to tell keys apart: `sk_` and 8 of the secret (48 bits, never enough to use it). */
const SHOWN = API_KEY_PREFIX.length + 8;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A new key: `sk_` and 32 random bytes (256 bits), the part shown, and the SHA-256 kept in its place (decision 173). */
export async function newApiKey(): Promise<{ secret: string; prefix: string; hash: string }> {
  const secret = `${API_KEY_PREFIX}${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
  return { secret, prefix: secret.slice(0, SHOWN), hash: await hashApiKey(secret) };
}

/** SHA-256 of the whole key, as hex: what the database holds and a request is looked up by. */
export async function hashApiKey(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
