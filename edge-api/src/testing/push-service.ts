import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';

/** A message the push service received: what the server sent, as the browser would get it. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A browser's subscription to the stand-in: its keys stay here, as they stay in a browser. */
export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
}

/** How the stand-in fails a post it was told to: an answer (with its Retry-After), a connection cut without one, or no answer ever. */
export type PushFailure = { status: number; retryAfter?: string } | 'drop' | 'hang';

/**
 * A push service on this machine (the third party between the shop and a browser): it records every
 * message posted to an endpoint and answers 201, or 410 for endpoints under /gone/ (a subscription the
 * browser dropped). Tests read a message with `next()` and decrypt it with the subscription's private key.
 * `failNext(subscription, n, failure)` makes the next n posts to that endpoint fail (503, 429, a dropped
 * connection, no answer): those are in `failed`, not `received`, as the browser never got them.
 */
export async function startPushService(): Promise<{
  url: string;
  received: ReceivedPush[];
  failed: ReceivedPush[];
  failNext: (to: Pick<TestSubscription, 'endpoint'>, count: number, failure: PushFailure) => void;
  next: (to?: Pick<TestSubscription, 'endpoint'>) => Promise<ReceivedPush>;
  subscription: (name?: string) => TestSubscription;
  close: () => Promise<void>;
}> {
  const received: ReceivedPush[] = [];
  const failed: ReceivedPush[] = [];
  const failures = new Map<string, PushFailure[]>();
  let waiting: (() => void)[] = [];
  const taken = new Set<ReceivedPush>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) };
      const failure = failures.get(message.path)?.shift();
      if (failure === 'drop') {
        failed.push(message);
        request.socket.destroy();
      } else if (failure === 'hang') {
        failed.push(message);
      } else if (failure) {
        failed.push(message);
        response.writeHead(failure.status, failure.retryAfter === undefined ? {} : { 'Retry-After': failure.retryAfter }).end();
      } else {
        received.push(message);
        response.writeHead(message.path.startsWith('/gone/') ? 410 : 201).end();
      }
      const ready = waiting;
      waiting = [];
      for (const wake of ready) wake();
    });
  });
  // A port that cannot be had fails the caller at once instead of leaving it waiting.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** The oldest message not yet taken (to one subscription's endpoint): one already received, or the next to arrive. */
  const next = async (to?: Pick<TestSubscription, 'endpoint'>): Promise<ReceivedPush> => {
    const path = to && new URL(to.endpoint).pathname;
    for (;;) {
      const found = received.find((message) => !taken.has(message) && (path === undefined || message.path === path));
      if (found) {
        taken.add(found);
        return found;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const subscription = (name: string = crypto.randomUUID()): TestSubscription => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return { endpoint: `${url}/${name}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') }, ecdh };
  };
  const failNext = (to: Pick<TestSubscription, 'endpoint'>, count: number, failure: PushFailure) => {
    const path = new URL(to.endpoint).pathname;
    failures.set(path, [...(failures.get(path) ?? []), ...Array.from({ length: count }, () => failure)]);
  };
  return {
    url,
    received,
    failed,
    failNext,
    next,
    subscription,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Decrypts a message as the browser does (RFC 8291, aes128gcm) and parses its JSON. */
export function decryptPush(message: ReceivedPush, subscription: Pick<TestSubscription, 'ecdh' | 'keys'>): unknown {
  const plain = decrypt(message.body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.keys.auth });
  return JSON.parse(plain.toString('utf8'));
}
