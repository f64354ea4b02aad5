/**
 * The vault's cryptography (decisions 068, 181), WebCrypto only: an ECDH P-256 key pair per device whose
 * public half seals secrets at any time (contract/vault-envelope.ts: an ephemeral ECDH key per batch,
 * HKDF-SHA-256, AES-GCM per value), and whose private half is kept wrapped (AES-GCM `wrapKey`) by a key
 * derived from the PIN AND a 32-byte pepper the server keeps and gives only for the PIN's verifier:
 *   base     = PBKDF2-SHA-256(PIN, salt, iterations)                     (256 bits)
 *   verifier = HKDF-SHA-256(base, info "storefront-vault-v2-verifier")    (sent to the server)
 *   pinPart  = HKDF-SHA-256(base, info "storefront-vault-v2-pin")         (never leaves the device)
 *   wrapKey  = HKDF-SHA-256(pinPart || pepper, salt, info "storefront-vault-v2-wrap") -> AES-256-GCM
 * The verifier and pinPart are independent HKDF outputs: the server alone cannot unwrap the key, and the
 * device's copy (salt, wrapped key) cannot check a guess without the server.
 */
import { ECDH_P256, envelopeKey, fromB64, SEALED_PREFIX, toB64 } from '../../../edge-api/src/contract/vault-envelope.ts';

export { fromB64, isSealed, sealerFor, toB64, type Sealer } from '../../../edge-api/src/contract/vault-envelope.ts';

/** PBKDF2-SHA-256 iterations for a new vault (OWASP's figure for 2023+). */
export const PIN_ITERATIONS = 600_000;

const subtle = () => globalThis.crypto.subtle;
const randomBytes = (length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length));
const ECDH = ECDH_P256;

/** The wrapped private key as stored on the device. */
export interface WrappedKey {
  salt: string;
  iv: string;
  iterations: number;
  data: string;
  /** Wrapped with the PIN and the server's pepper (decision 181); absent on a vault made before: the PIN alone. */
  peppered?: true;
}

export interface VaultKeys {
  publicKey: JsonWebKey;
  privateKey: CryptoKey;
}

export async function createVaultKeys(): Promise<VaultKeys> {
  const pair = await subtle().generateKey(ECDH, true, ['deriveBits']);
  return { publicKey: await subtle().exportKey('jwk', pair.publicKey), privateKey: pair.privateKey };
}

async function unwrapWith(wrapped: WrappedKey, key: CryptoKey, extractable = false): Promise<CryptoKey | null> {
  try {
    return await subtle().unwrapKey('pkcs8', fromB64(wrapped.data), key, { name: 'AES-GCM', iv: fromB64(wrapped.iv) }, ECDH, extractable, ['deriveBits']);
  } catch {
    return null;
  }
}

// ---- The PIN and the server's pepper (decision 181) ----------------------------------------------------

/** What the PIN gives: the verifier the server checks, and the half of the wrapping key the device keeps to itself. */
export interface PinProof {
  verifier: string;
  pinPart: Uint8Array<ArrayBuffer>;
}

const hkdfBits = async (key: CryptoKey, info: string) =>
  new Uint8Array(await subtle().deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(info) }, key, 256));

export async function pinProof(pin: string, salt: string, iterations: number): Promise<PinProof> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  const base = await subtle().deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: fromB64(salt), iterations }, material, 256);
  const hkdf = await subtle().importKey('raw', base, 'HKDF', false, ['deriveBits']);
  return { verifier: toB64(await hkdfBits(hkdf, 'storefront-vault-v2-verifier')), pinPart: await hkdfBits(hkdf, 'storefront-vault-v2-pin') };
}

async function pepperedKey(proof: PinProof, pepper: string, salt: string): Promise<CryptoKey> {
  const pepperBytes = fromB64(pepper);
  if (pepperBytes.length !== 32) throw new Error('The server sent no usable pepper');
  const ikm = new Uint8Array(64);
  ikm.set(proof.pinPart, 0);
  ikm.set(pepperBytes, 32);
  const material = await subtle().importKey('raw', ikm, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: fromB64(salt), info: new TextEncoder().encode('storefront-vault-v2-wrap') },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

/** A new salt for a vault's PIN (16 random bytes). */
export const newPinSalt = () => toB64(randomBytes(16));

/** The private key (extractable, to be wrapped) wrapped with the PIN's part and the server's pepper. */
export async function wrapWithPepper(privateKey: CryptoKey, proof: PinProof, pepper: string, salt: string, iterations: number): Promise<WrappedKey> {
  const iv = randomBytes(12);
  const data = await subtle().wrapKey('pkcs8', privateKey, await pepperedKey(proof, pepper, salt), { name: 'AES-GCM', iv });
  return { salt, iv: toB64(iv), iterations, data: toB64(data), peppered: true };
}

/** The private key, or null when the pepper or the PIN's part is not the one it was wrapped with. */
export async function unwrapWithPepper(wrapped: WrappedKey, proof: PinProof, pepper: string, extractable = false): Promise<CryptoKey | null> {
  return unwrapWith(wrapped, await pepperedKey(proof, pepper, wrapped.salt), extractable);
}

// ---- A vault made before decision 181: the PIN alone (opened once, then moved to the pepper) -------------

async function pinKey(pin: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, ['wrapKey', 'unwrapKey']);
}

/** The private key wrapped with a key derived from the PIN alone (decision 068's vaults; tests of the upgrade). */
export async function wrapWithPin(privateKey: CryptoKey, pin: string, iterations = PIN_ITERATIONS): Promise<WrappedKey> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const data = await subtle().wrapKey('pkcs8', privateKey, await pinKey(pin, salt, iterations), { name: 'AES-GCM', iv });
  return { salt: toB64(salt), iv: toB64(iv), iterations, data: toB64(data) };
}

/** The private key of a PIN-only wrapping, or null when the PIN is wrong. */
export async function unwrapWithPin(wrapped: WrappedKey, pin: string, extractable = false): Promise<CryptoKey | null> {
  return unwrapWith(wrapped, await pinKey(pin, fromB64(wrapped.salt), wrapped.iterations), extractable);
}

// ---- A passkey's PRF output (decision 068) ----------------------------------------------------------------

/** A wrapping key from a passkey's PRF output (32 secret bytes), through HKDF-SHA-256. */
async function prfKey(secret: ArrayBuffer | Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: new TextEncoder().encode('storefront-vault-passkey-v1') },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
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

/** Opens sealed values with the unwrapped private key; keys derived per ephemeral key are kept while it lives. */
export interface Opener {
  open(sealed: string): Promise<unknown>;
}

export function openerFor(privateKey: CryptoKey): Opener {
  const keys = new Map<string, Promise<CryptoKey>>();
  return {
    async open(sealed) {
      const [epk, iv, data] = sealed.slice(SEALED_PREFIX.length).split('.');
      if (!epk || !iv || !data) throw new Error('Not a sealed value');
      let key = keys.get(epk);
      if (!key) {
        const raw = fromB64(epk);
        key = subtle()
          .importKey('raw', raw, ECDH, false, [])
          .then((publicKey) => envelopeKey(privateKey, publicKey, raw, 'decrypt'));
        keys.set(epk, key);
      }
      const plain = await subtle().decrypt({ name: 'AES-GCM', iv: fromB64(iv) }, await key, fromB64(data));
      return JSON.parse(new TextDecoder().decode(plain)) as unknown;
    },
  };
}

/** Bytes (a delivered file) go into a sealed value as base64url; other values as they are (JSON). */
export const isBytes = (value: unknown): value is ArrayBuffer => Object.prototype.toString.call(value) === '[object ArrayBuffer]';
export const sealable = (value: unknown): unknown => (isBytes(value) ? { $bytes: toB64(value) } : value);
/** A value opened from a seal, bytes back as an ArrayBuffer. */
export const unsealed = (value: unknown): unknown =>
  value && typeof value === 'object' && typeof (value as { $bytes?: unknown }).$bytes === 'string'
    ? fromB64((value as { $bytes: string }).$bytes).buffer
    : value;
