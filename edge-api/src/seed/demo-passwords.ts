/**
 * The demo logins' passwords: never published, never the same on two data directories. Each is derived
 * from a secret of the data directory (the embedded service-role key in keys.json) and the login's email,
 * so nothing holds them in clear; the console shows them once, when the demo data is made.
 */
export async function demoPassword(secret: string, email: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`demo-login:${email.toLowerCase()}`)));
  return `demo-${Buffer.from(mac).toString('base64url').slice(0, 16)}`;
}

/** The email domain of every demo account (and `demo-mail.test` for the demo inventory's accounts). */
export const DEMO_DOMAIN = '@demo.test';

/**
 * The demo reseller's API key (decision 141): `sk_` and 43 characters of HMAC-SHA256(the data directory's
 * secret, "demo-api-key"), so it is never published, differs on every data directory, and is stored only as
 * its SHA-256 like every key; the console shows it once, on the demo logins' line.
 */
export async function demoApiKey(secret: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('demo-api-key')));
  return `sk_${Buffer.from(mac).toString('base64url').slice(0, 43)}`;
}
