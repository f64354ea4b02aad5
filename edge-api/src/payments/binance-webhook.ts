import { asRecord, asText } from './rail-http.ts';
import { binancePayCall, type BinancePayAccount } from './binance-pay.ts';

/** Binance's webhook certificates, per API key, kept for an hour (fetched again for a serial not seen). */
const certificates = new Map<string, { at: number; keys: Map<string, CryptoKey> }>();
const CERTIFICATES_FOR_MS = 3_600_000;

function spkiOf(pem: string): Uint8Array {
  const base64 = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
}

async function fetchCertificates(account: BinancePayAccount): Promise<Map<string, CryptoKey>> {
  const answer = await binancePayCall(account, '/binancepay/openapi/certificates', {});
  const list = Array.isArray(answer) ? answer : [];
  const keys = new Map<string, CryptoKey>();
  for (const entry of list) {
    const { certSerial, certPublic } = asRecord(entry);
    const serial = asText(certSerial);
    if (!serial || typeof certPublic !== 'string') continue;
    keys.set(
      serial,
      await crypto.subtle.importKey('spki', spkiOf(certPublic) as BufferSource, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']),
    );
  }
  certificates.set(account.apiKey, { at: Date.now(), keys });
  return keys;
}

async function keyFor(account: BinancePayAccount, serial: string): Promise<CryptoKey | undefined> {
  const cached = certificates.get(account.apiKey);
  if (cached && Date.now() - cached.at < CERTIFICATES_FOR_MS && cached.keys.has(serial)) return cached.keys.get(serial);
  return (await fetchCertificates(account)).get(serial);
}

export interface WebhookHeaders {
  timestamp?: string;
  nonce?: string;
  signature?: string;
  certificateSn?: string;
}

/**
 * Whether a webhook came from Binance Pay: its BinancePay-Signature (base64) must verify, with the RSA
 * public key of the certificate its BinancePay-Certificate-SN names (from the certificate query), as
 * SHA256withRSA over `timestamp + "\n" + nonce + "\n" + body + "\n"`, the body byte for byte as received.
 */
export async function verifyBinanceWebhook(account: BinancePayAccount, headers: WebhookHeaders, rawBody: string): Promise<boolean> {
  const { timestamp, nonce, signature, certificateSn } = headers;
  if (!timestamp || !nonce || !signature || !certificateSn) return false;
  let signatureBytes: Uint8Array;
  try {
    signatureBytes = Uint8Array.from(atob(signature), (ch) => ch.charCodeAt(0));
  } catch {
    return false;
  }
  const key = await keyFor(account, certificateSn);
  if (!key) return false;
  const payload = new TextEncoder().encode(`${timestamp}\n${nonce}\n${rawBody}\n`);
  return crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signatureBytes as BufferSource, payload);
}

/** Forgets the cached certificates (tests that rotate the stand-in's key). */
export const forgetBinanceCertificates = () => certificates.clear();
