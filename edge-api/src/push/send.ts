import { buildPushPayload } from '@block65/webcrypto-web-push';
import type { MiddlewareHandler } from 'hono';
import { claimPushes, removeSubscription, subscriptionsFor, queuedPushCount } from '../db/push.ts';
import type { PushPayload } from '../db/schema.ts';
import type { Deps } from '../deps.ts';

/** Messages taken per round: a burst is sent in rounds until the outbox is empty. */
const ROUND = 50;
/** A push service that does not answer in this time is given up on (the message is logged as not sent). */
const SEND_TIMEOUT_MS = 10_000;

/** The sends still running in this process: tests wait for them; nothing else does. */
const inFlight = new Set<Promise<void>>();
export const pushesSettled = async (): Promise<void> => {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
};

/** Where a subscription points, without its secret path: safe for a log line. */
const pushHost = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'invalid';
  }
};

async function sendOne(deps: Deps, sub: { id: string; endpoint: string; p256dh: string; auth: string }, payload: PushPayload): Promise<void> {
  const push = deps.config.push!;
  try {
    // The library takes https endpoints only, as real push services are. A local stand-in (tests, with
    // allowLocalEndpoints) is built for as if on https and posted to on http: same message, same keys.
    const local = push.allowLocalEndpoints === true && sub.endpoint.startsWith('http://');
    const request = await buildPushPayload(
      { data: { ...payload }, options: { ttl: 24 * 3600, urgency: 'normal' } },
      { endpoint: local ? `https://${sub.endpoint.slice('http://'.length)}` : sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      { subject: push.subject, publicKey: push.publicKey, privateKey: push.privateKey },
    );
    const answer = await fetch(sub.endpoint, { ...request, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
    await answer.body?.cancel().catch(() => {});
    if (answer.status === 404 || answer.status === 410) {
      await removeSubscription(deps.db, sub.id);
      deps.logger.info('push: the subscription is gone; removed', { subscription: sub.id, host: pushHost(sub.endpoint), status: answer.status });
    } else if (!answer.ok) {
      deps.logger.warn('push: the push service refused a message', { subscription: sub.id, host: pushHost(sub.endpoint), status: answer.status });
    }
  } catch (error) {
    // Never the endpoint (its path is the subscription's secret) nor the keys.
    deps.logger.warn('push: a message could not be sent', { subscription: sub.id, host: pushHost(sub.endpoint), error: error instanceof Error ? error.name : 'error' });
  }
}

/** Sends every waiting message to its subscriptions, round by round; errors are logged, never thrown. */
export async function sendWaitingPushes(deps: Deps): Promise<void> {
  if (!deps.config.push) return;
  try {
    for (;;) {
      const messages = await claimPushes(deps.db, ROUND);
      for (const message of messages) {
        const subs = await subscriptionsFor(deps.db, message);
        await Promise.all(subs.map((sub) => sendOne(deps, sub, message.payload)));
      }
      if (messages.length < ROUND) return;
    }
  } catch (error) {
    deps.logger.warn('push: the waiting messages could not be read', { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * After a change has answered (its transaction committed, the answer on its way), the messages it wrote
 * are sent in the background: on Workers through waitUntil, on Node as a promise nobody waits for. The
 * request is neither slowed nor failed by the push service.
 */
export function pushAfterCommit(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    const queuedBefore = queuedPushCount();
    await next();
    if (!deps.config.push || c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS' || c.res.status >= 400) return;
    // Only when a message was written in this process while this request ran (by it or by a request
    // beside it): most writes tell nobody, and then cost no statement here. Messages a stopped process
    // left behind go with the next round.
    if (queuedPushCount() === queuedBefore) return;
    const run = sendWaitingPushes(deps);
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
    try {
      c.executionCtx.waitUntil(run);
    } catch {
      // Node: no execution context; the promise runs on.
    }
  };
}
