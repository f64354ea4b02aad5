/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, decision 174): HMAC-SHA256 with the
 * endpoint's secret (the bytes after `whsec_`, base64) over `${webhook-id}.${webhook-timestamp}.${body}`,
 * sent as `webhook-signature: v1,<base64>`. The receiver checks it and that the timestamp is recent.
 */
const secretBytes = (secret: string) => Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));

export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

/** The headers of one attempt: the same id on every attempt, the time of this one, and its signature. */
export async function webhookHeaders(secret: string, id: string, body: string, now: Date): Promise<Record<string, string>> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'storefront-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await signWebhook(secret, id, timestamp, body),
  };
}
