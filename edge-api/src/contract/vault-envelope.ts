/**
 * The vault's envelope (decisions 068, 181), WebCrypto only and shared by the device and the server: a
 * value sealed to a vault's ECDH P-256 public key. One ephemeral ECDH key per batch, HKDF-SHA-256 (salt: the
 * ephemeral public key, info `storefront-vault-v1`) to an AES-256-GCM key, a fresh 96-bit IV per value.
 * A sealed value is `vault1.<ephemeral public key>.<iv>.<ciphertext>` (base64url), still a string.
 * The device seals what it writes with it; the server seals the delivered secrets it answers to a device
 * whose vault is registered (decision 182), so a locked device never receives them in clear.
 */
export const SEALED_PREFIX = 'vault1.';
export const VAULT_HKDF_INFO = new TextEncoder().encode('storefront-vault-v1');
export const ECDH_P256 = { name: 'ECDH', namedCurve: 'P-256' } as const;

const subtle = () => crypto.subtle;

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

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(SEALED_PREFIX);

/** The AES-GCM key of one ephemeral/vault key pair (ECDH, then HKDF-SHA-256 salted with the ephemeral public key). */
export async function envelopeKey(
  privateKey: CryptoKey,
  publicKey: CryptoKey,
  salt: Uint8Array<ArrayBuffer>,
  usage: 'encrypt' | 'decrypt',
): Promise<CryptoKey> {
  // Not a literal in the call: workerd's typings spell ECDH's `public` as `$public` (the runtime reads `public`).
  const ecdh = { name: 'ECDH', public: publicKey };
  const shared = await subtle().deriveBits(ecdh, privateKey, 256);
  const hkdf = await subtle().importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: VAULT_HKDF_INFO }, hkdf, { name: 'AES-GCM', length: 256 }, false, [usage]);
}

/** Seals values to a vault's public key: one ephemeral key per sealer (a batch), a fresh IV per value. */
export interface Sealer {
  seal(value: unknown): Promise<string>;
}

/** A public key as a vault publishes it: a P-256 ECDH JWK with nothing private in it. */
export function isVaultPublicJwk(jwk: unknown): jwk is JsonWebKey {
  if (!jwk || typeof jwk !== 'object') return false;
  const key = jwk as Record<string, unknown>;
  return key.kty === 'EC' && key.crv === 'P-256' && typeof key.x === 'string' && typeof key.y === 'string' && key.d === undefined;
}

export async function sealerFor(publicJwk: JsonWebKey): Promise<Sealer> {
  const vaultPublic = await subtle().importKey('jwk', { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y }, ECDH_P256, false, []);
  const ephemeral = await subtle().generateKey(ECDH_P256, true, ['deriveBits']);
  // workerd types these answers loosely (a key or a pair, a JWK or bytes); ECDH and 'raw' give a pair and bytes.
  if (!('privateKey' in ephemeral)) throw new Error('ECDH did not give a key pair');
  const exported = await subtle().exportKey('raw', ephemeral.publicKey);
  if (!('byteLength' in exported)) throw new Error('The ephemeral public key did not export as bytes');
  const ephemeralRaw = new Uint8Array(exported);
  const key = await envelopeKey(ephemeral.privateKey, vaultPublic, ephemeralRaw, 'encrypt');
  const epk = toB64(ephemeralRaw);
  return {
    async seal(value) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const data = await subtle().encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(value)));
      return `${SEALED_PREFIX}${epk}.${toB64(iv)}.${toB64(data)}`;
    },
  };
}
