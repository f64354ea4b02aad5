import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookNetwork, WebhookPostRequest } from './network.ts';

/** The system's resolver: every address of the name, in its order. */
export const systemResolve = async (hostname: string): Promise<string[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address);

/**
 * A `lookup` that answers any name with the checked addresses (decision 243): the socket connects where
 * the check looked, whatever the name resolves to by then. With `all` (Node's happy eyeballs) every checked
 * address is offered, in order; else the first.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  return (_hostname, options, callback) => {
    if (entries.length === 0) callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 4);
    else if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

/**
 * One post on node:http(s), connected to the checked addresses only. The URL keeps the name, so the Host
 * header and TLS (SNI, certificate check) are the name's; a redirect is an answer like any other.
 */
function pinnedPost(url: URL, addresses: readonly string[], { headers, body, signal }: WebhookPostRequest): Promise<number> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(addresses),
        agent: false,
        signal,
      },
      (answer) => {
        answer.resume();
        answer.once('error', () => {});
        resolve(answer.statusCode ?? 0);
        answer.destroy();
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** The Node entry's webhook network: the system's resolver (or a test's), and posts pinned to what it checked. */
export function nodeWebhookNetwork(options: { resolve?: (hostname: string) => Promise<string[]> } = {}): WebhookNetwork {
  return { pinned: true, resolve: options.resolve ?? systemResolve, post: pinnedPost };
}
