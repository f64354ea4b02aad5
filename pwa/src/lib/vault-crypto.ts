/**
 * The vault's cryptography (decision 068), WebCrypto only: an ECDH P-256 key pair per device whose public
 * half seals secrets at any time (an ephemeral ECDH key per batch, HKDF-SHA-256, AES-GCM per value), and
 * whose private half is kept wrapped by an AES-GCM key derived from the PIN with PBKDF2-SHA-256.
 */

/** A sealed value: `vault1.<ephemeral public key>.<iv>.<ciphertext>`, base64url. Still a string, so row types stay. */
const PREFIX = 'vault1.';
const HKDF_INFO = new TextEncoder().encode('storefront-vault-v1');
/** PBKDF2-SHA-256 iterations for a new vault (OWASP's figure for 2023+). */
export const PIN_ITERATIONS = 600_000;

const subtle = () => globalThis.crypto.subtle;

export const toB64 = (bytes: ArrayBuffer | Uint8Array): string => {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let text = '';
  for (const byte of view) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export const fromB64 = (text: string): Uint8Array<ArrayBuffer> => {
  const plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(plain.length);
  for (let i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
  return bytes;
};

const randomBytes = (length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length));

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** The PIN-wrapped private key as stored on the device. */
export interface WrappedKey {
  salt: string;
  iv: string;
  iterations: number;
  data: string;
}

export interface VaultKeys {
  publicKey: JsonWebKey;
  privateKey: CryptoKey;
}

const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;

export async function createVaultKeys(): Promise<VaultKeys> {
  const pair = await subtle().generateKey(ECDH, true, ['deriveBits']);
  return { publicKey: await subtle().exportKey('jwk', pair.publicKey), privateKey: pair.privateKey };
}

async function pinKey(pin: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, ['wrapKey', 'unwrapKey']);
}

/** The private key wrapped with a key derived from the PIN (it must be extractable to be wrapped). */
export async function wrapWithPin(privateKey: CryptoKey, pin: string, iterations = PIN_ITERATIONS): Promise<WrappedKey> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await pinKey(pin, salt, iterations);
  const data = await subtle().wrapKey('pkcs8', privateKey, key, { name: 'AES-GCM', iv });
  return { salt: toB64(salt), iv: toB64(iv), iterations, data: toB64(data) };
}

/**
 * The private key, or null when the PIN is wrong (AES-GCM's tag does not match). Not extractable unless
 * asked for: only to wrap it again for a passkey.
 */
export async function unwrapWithPin(wrapped: WrappedKey, pin: string, extractable = false): Promise<CryptoKey | null> {
  const key = await pinKey(pin, fromB64(wrapped.salt), wrapped.iterations);
  return unwrapWith(wrapped, key, extractable);
}

async function unwrapWith(wrapped: WrappedKey, key: CryptoKey, extractable = false): Promise<CryptoKey | null> {
  try {
    return await subtle().unwrapKey('pkcs8', fromB64(wrapped.data), key, { name: 'AES-GCM', iv: fromB64(wrapped.iv) }, ECDH, extractable, ['deriveBits']);
  } catch {
    return null;
  }
}

/** A wrapping key from a passkey's PRF output (32 secret bytes), through HKDF-SHA-256. */
async function prfKey(secret: ArrayBuffer | Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: new TextEncoder().encode('storefront-vault-passkey-v1') }, material, { name: 'AES-GCM', length: 256 }, false, [
    'wrapKey',
    'unwrapKey',
  ]);
}

/** The private key wrapped with a key from a passkey's PRF output (`iterations` is 0: no PBKDF2). */
export async function wrapWithSecret(privateKey: CryptoKey, secret: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<WrappedKey> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const data = await subtle().wrapKey('pkcs8', privateKey, await prfKey(secret, salt), { name: 'AES-GCM', iv });
  return { salt: toB64(salt), iv: toB64(iv), iterations: 0, data: toB64(data) };
}

export async function unwrapWithSecret(wrapped: WrappedKey, secret: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<CryptoKey | null> {
  return unwrapWith(wrapped, await prfKey(secret, fromB64(wrapped.salt)));
}

/** The salt the passkey's PRF is evaluated with: random per vault. */
export const newPrfSalt = () => toB64(randomBytes(32));

async function valueKey(privateKey: CryptoKey, publicKey: CryptoKey, salt: Uint8Array<ArrayBuffer>, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  const shared = await subtle().deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256);
  const hkdf = await subtle().importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: HKDF_INFO }, hkdf, { name: 'AES-GCM', length: 256 }, false, [usage]);
}

/** Seals values to a vault's public key: one ephemeral key per sealer (a batch), a fresh IV per value. */
export interface Sealer {
  seal(value: unknown): Promise<string>;
}

export async function sealerFor(publicJwk: JsonWebKey): Promise<Sealer> {
  const vaultPublic = await subtle().importKey('jwk', publicJwk, ECDH, false, []);
  const ephemeral = await subtle().generateKey(ECDH, true, ['deriveBits']);
  const ephemeralRaw = new Uint8Array(await subtle().exportKey('raw', ephemeral.publicKey));
  const key = await valueKey(ephemeral.privateKey, vaultPublic, ephemeralRaw, 'encrypt');
  const epk = toB64(ephemeralRaw);
  return {
    async seal(value) {
      const iv = randomBytes(12);
      const data = await subtle().encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(value)));
      return `${PREFIX}${epk}.${toB64(iv)}.${toB64(data)}`;
    },
  };
}

/** Opens sealed values with the unwrapped private key; keys derived per ephemeral key are kept while it lives. */
export interface Opener {
  open(sealed: string): Promise<unknown>;
}

export function openerFor(privateKey: CryptoKey): Opener {
  const keys = new Map<string, Promise<CryptoKey>>();
  return {
    async open(sealed) {
      const [epk, iv, data] = sealed.slice(PREFIX.length).split('.');
      if (!epk || !iv || !data) throw new Error('Not a sealed value');
      let key = keys.get(epk);
      if (!key) {
        const raw = fromB64(epk);
        key = subtle()
          .importKey('raw', raw, ECDH, false, [])
          .then((publicKey) => valueKey(privateKey, publicKey, raw, 'decrypt'));
        keys.set(epk, key);
      }
      const plain = await subtle().decrypt({ name: 'AES-GCM', iv: fromB64(iv) }, await key, fromB64(data));
      return JSON.parse(new TextDecoder().decode(plain)) as unknown;
    },
  };
}
