/** A rail answered with an error, or not at all: the message names the rail and what it said, never a secret. */
export class RailError extends Error {
  readonly rail: string;
  readonly code?: string;

  constructor(rail: string, message: string, code?: string) {
    super(`${rail}: ${message}`);
    this.rail = rail;
    this.code = code;
  }
}

/** How long one call to a rail may take (bKash asks for 30 s at most; the others answer in well under that). */
export const RAIL_TIMEOUT_MS = 15_000;

/** One JSON call to a rail: the parsed answer, and the raw text for whoever must check it byte for byte. */
export async function railCall(
  rail: string,
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; json: unknown }> {
  let answer: Response;
  try {
    answer = await fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
      signal: AbortSignal.timeout(RAIL_TIMEOUT_MS),
    });
  } catch (error) {
    throw new RailError(rail, `no answer (${error instanceof Error ? error.name : 'error'})`);
  }
  const text = await answer.text();
  try {
    return { status: answer.status, json: JSON.parse(text) as unknown };
  } catch {
    throw new RailError(rail, `answered ${answer.status} with something that is not JSON`);
  }
}

const encoder = new TextEncoder();

/** HMAC-SHA512 of `payload`, in upper-case hex (Binance Pay's request signature). */
export async function hmacSha512Hex(secret: string, payload: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(payload)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

/** A random string of letters, as Binance Pay's nonce (32 characters). */
export function randomLetters(length: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => letters[b % letters.length]).join('');
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const asText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
