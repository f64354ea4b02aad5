/**
 * VAPID keys (RFC 8292) with WebCrypto only, so Node and Workers share them. The public key is the
 * uncompressed P-256 point (65 bytes, base64url) the browser's pushManager.subscribe() takes; the private
 * key is the 32-byte scalar `d` (base64url), the form `web-push generate-vapid-keys` prints, or a JWK.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushConfig {
  /** Served to the browser (GET /api/config); never the private key. */
  publicKey: string;
  /** The private scalar d (base64url), for signing; kept on the server. */
  privateKey: string;
  /** The contact the push service may write to: mailto:… or https://…. */
  subject: string;
  /** Local runs and tests only: endpoints on http:// (a push service stand-in on this machine). */
  allowLocalEndpoints?: boolean;
}

const b64url = {
  encode: (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, ''),
  decode: (text: string): Uint8Array<ArrayBuffer> =>
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0)),
};
export const base64Url = b64url;

/** A new key pair, for embedded mode's DATA_DIR/keys.json. */
export async function generateVapidKeys(): Promise<VapidKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  // workerd types the answer of exportKey as either form; 'jwk' always gives the JSON one.
  if (jwk instanceof ArrayBuffer || !jwk.d) throw new Error('The new VAPID private key did not export as a JWK');
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { publicKey: b64url.encode(raw), privateKey: jwk.d };
}

/**
 * The push configuration from a key pair; throws a readable error when the keys are malformed or do not
 * belong together (checked by signing and verifying once).
 */
export async function pushConfigFrom(keys: VapidKeys, subject: string, allowLocalEndpoints = false): Promise<PushConfig> {
  let point: Uint8Array<ArrayBuffer>;
  try {
    point = b64url.decode(keys.publicKey.trim());
  } catch {
    throw new Error('VAPID_PUBLIC_KEY: must be base64url');
  }
  if (point.length !== 65 || point[0] !== 4) throw new Error('VAPID_PUBLIC_KEY: must be an uncompressed P-256 public key (65 bytes, base64url)');
  const x = b64url.encode(point.slice(1, 33));
  const y = b64url.encode(point.slice(33));
  const privateText = keys.privateKey.trim();
  const d = privateText.startsWith('{') ? (JSON.parse(privateText) as JsonWebKey).d : privateText;
  if (!d || b64url.decode(d).length !== 32) throw new Error('VAPID_PRIVATE_KEY: must be a P-256 private key (32 bytes, base64url, or its JWK)');
  const privateJwk: JsonWebKey = { kty: 'EC', crv: 'P-256', x, y, d, ext: true };
  const signer = await crypto.subtle.importKey('jwk', privateJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']).catch(() => {
    throw new Error('VAPID_PRIVATE_KEY: does not belong to VAPID_PUBLIC_KEY');
  });
  const verifier = await crypto.subtle.importKey('raw', point, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const probe = new TextEncoder().encode('vapid');
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signer, probe);
  if (!(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, verifier, signature, probe))) {
    throw new Error('VAPID_PRIVATE_KEY: does not belong to VAPID_PUBLIC_KEY');
  }
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) throw new Error('VAPID_SUBJECT: must be mailto:you@example.com or an https:// address');
  return { publicKey: b64url.encode(point), privateKey: d, subject, allowLocalEndpoints };
}

/**
 * The push configuration of an entry: the owner's keys when set, else (embedded mode) the ones kept in
 * DATA_DIR; none (push off) otherwise. The contact defaults to the shop's https address, else a local one.
 */
export async function pushConfigOf(
  env: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string; SITE_URL?: string; PUSH_ALLOW_LOCAL_ENDPOINTS?: string },
  localKeys?: VapidKeys,
): Promise<PushConfig | undefined> {
  const keys = env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : localKeys;
  if (!keys) return undefined;
  const subject = env.VAPID_SUBJECT ?? (env.SITE_URL?.startsWith('https://') ? env.SITE_URL : 'mailto:owner@localhost');
  return pushConfigFrom(keys, subject, env.PUSH_ALLOW_LOCAL_ENDPOINTS === '1');
}
