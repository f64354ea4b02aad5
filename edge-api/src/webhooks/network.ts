import { resolveAddresses } from '../lib/public-address.ts';

/** One webhook post: its signed headers, the body, and the signal that ends it (timeout or shutdown). */
export interface WebhookPostRequest {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/**
 * How webhooks reach the network (decision 243). `resolve` gives every address of a host name; `post`
 * sends to `url` and answers the status, never following a redirect. A pinned network (the Node entry)
 * connects only to the `addresses` it is handed, the ones just checked, so a name that resolves again
 * (DNS rebinding) cannot move the connection; the platform's fetch (the Worker) resolves again itself.
 */
export interface WebhookNetwork {
  pinned: boolean;
  resolve(hostname: string): Promise<string[]>;
  post(url: URL, addresses: readonly string[], request: WebhookPostRequest): Promise<number>;
}

/** The Worker's (and the default): the runtime's resolver, then its fetch. */
export const platformNetwork: WebhookNetwork = {
  pinned: false,
  resolve: resolveAddresses,
  async post(url, _addresses, { headers, body, signal }) {
    const answer = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal });
    await answer.body?.cancel().catch(() => {});
    return answer.status;
  },
};
