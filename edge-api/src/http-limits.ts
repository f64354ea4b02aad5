import type { Server, ServerOptions } from 'node:http';
import type { Env } from './env.ts';
import type { Logger } from './lib/logger.ts';

/** How often the connection cap's refusals are summed up in the log, at most. */
const DROPS_LOGGED_EVERY_MS = 60_000;

/**
 * The Node entry's limits on its connections (decision 115): a client that sends its headers or its
 * request too slowly gets 408 and its connection closed, an idle keep-alive connection closes after its
 * time. Node looks for expired connections every `connectionsCheckingInterval` (30 s by default): here a
 * quarter of the headers timeout, between 0.1 and 1 s, so a limit holds to about a second.
 */
export function connectionOptions(env: Env): ServerOptions {
  return {
    headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(env.HTTP_HEADERS_TIMEOUT_MS / 4))),
  };
}

/**
 * At most HTTP_MAX_CONNECTIONS connections at once: Node closes any further one as it arrives. The
 * refusals are logged as one line a minute at most, with their count, so a flood cannot flood the log.
 */
export function capConnections(server: Server, env: Env, logger: Logger): void {
  server.maxConnections = env.HTTP_MAX_CONNECTIONS;
  let dropped = 0;
  let loggedAt = 0;
  server.on('drop', () => {
    dropped++;
    if (Date.now() - loggedAt < DROPS_LOGGED_EVERY_MS) return;
    logger.warn('connection cap reached: new connections are closed at once', { maxConnections: env.HTTP_MAX_CONNECTIONS, droppedSinceLastLine: dropped });
    loggedAt = Date.now();
    dropped = 0;
  });
}
