import type { Logger } from './logger.ts';

/**
 * Delivered and stocked passwords are encrypted at rest (AES-256-GCM) and compared through an HMAC blind
 * index, so a database dump shows no password. WebCrypto only: the same code runs on Node and Workers.
 */
export interface Secrets {
  encrypt(plain: string): Promise<string>;
  decrypt(sealed: string): Promise<string>;
  /**
   * The plain text, or null when this key cannot open it (another key sealed it, or the row is
   * damaged): one unreadable row is reported on that row instead of failing a whole list. Logged.
   */
  open(sealed: string, row: { entity: string; id: string }): Promise<string | null>;
  blindIndex(value: string): Promise<string>;
  /** Fingerprints of the two keys (not secret): what the stored key check compares and messages name. */
  keyIds: { credentials: string; blindIndex: string };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

export function decodeKey(base64: string, name: string): Uint8Array {
  const bytes = fromBase64(base64);
  if (bytes.length !== 32) throw new Error(`${name} must be 32 bytes, base64-encoded`);
  return bytes;
}

export function generateKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** A key's fingerprint: the start of an HMAC of a fixed text under it. Names the key, reveals nothing of it. */
async function keyId(key: Uint8Array): Promise<string> {
  const hmac = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, encoder.encode('storefront key id v1')));
  return Array.from(mac.slice(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function createSecrets(credentialsKey: Uint8Array, blindIndexKey: Uint8Array, options: { logger?: Logger } = {}): Promise<Secrets> {
  const aes = await crypto.subtle.importKey('raw', credentialsKey as BufferSource, 'AES-GCM', false, ['encrypt', 'decrypt']);
  const hmac = await crypto.subtle.importKey('raw', blindIndexKey as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const keyIds = { credentials: await keyId(credentialsKey), blindIndex: await keyId(blindIndexKey) };
  const secrets: Secrets = {
    keyIds,
    async encrypt(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aes, encoder.encode(plain)));
      return `v1.${toBase64(iv)}.${toBase64(sealed)}`;
    },
    async decrypt(sealed) {
      const [version, iv, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !data) throw new Error('Unreadable sealed secret');
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, aes, fromBase64(data));
      return decoder.decode(plain);
    },
    async open(sealed, row) {
      try {
        return await secrets.decrypt(sealed);
      } catch {
        options.logger?.warn('a sealed password cannot be read with CREDENTIALS_KEY', { ...row, credentialsKeyId: keyIds.credentials });
        return null;
      }
    },
    async blindIndex(value) {
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, encoder.encode(value)));
      return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
    },
  };
  return secrets;
}
