import { buildPushPayload } from '@block65/webcrypto-web-push';
import type { MiddlewareHandler } from 'hono';
import {
  claimPushes,
  dropStalePushes,
  finishPush,
  removeSubscription,
  retryPushLater,
  subscriptionsFor,
  queuedPushCount,
  type ClaimedPush,
} from '../db/push.ts';
import type { PushPayload } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { inFlightSet, repeatRounds, runInBackground } from '../lib/outbox-timer.ts';

/** Messages taken per round, sent side by side: a burst is sent in rounds until nothing is due. */
const ROUND = 20;
/** A push service that does not answer in this time is given up on for this attempt. */
const SEND_TIMEOUT_MS = 10_000;
/** How long a taken message is the taker's: well over one round (its sends run side by side, each within SEND_TIMEOUT_MS). */
export const PUSH_LEASE_MS = 60_000;
/**
 * Sends per message, and the waits after each failed one: 30 s, 2 min, 10 min, 45 min, so the fifth and
 * last attempt comes about an hour after the first.
 */
export const PUSH_MAX_ATTEMPTS = 5;
const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 2_700_000];
/** A push service's Retry-After is followed up to this; a longer one is not sane for a message about an order. */
const MAX_RETRY_AFTER_MS = 3_600_000;
/** Older messages are not sent at all: the order card and the bell have said it all by then. */
export const PUSH_MAX_AGE_MS = 24 * 3_600_000;

/** The sends still running in this process: tests wait for them. */
const inFlight = inFlightSet();
export const pushesSettled = (): Promise<void> => inFlight.settled();

/** Where a subscription points, without its secret path: safe for a log line. */
const pushHost = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'invalid';
  }
};

/** What one post to a push service came to: done with (sent, gone, refused for good), or to be tried again. */
type Outcome = { final: true } | { final: false; status?: number; error?: string; retryAfterMs?: number };

/** Retry-After as seconds or an HTTP date; undefined when absent, past or not sane. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) && ms > 0 && ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

type Subscription = { id: string; endpoint: string; p256dh: string; auth: string };

async function sendOne(deps: Deps, sub: Subscription, payload: PushPayload, signal?: AbortSignal): Promise<Outcome> {
  const push = deps.config.push!;
  const host = pushHost(sub.endpoint);
  let request: Awaited<ReturnType<typeof buildPushPayload>>;
  try {
    // The library takes https endpoints only, as real push services are. A local stand-in (tests, with
    // allowLocalEndpoints) is built for as if on https and posted to on http: same message, same keys.
    const local = push.allowLocalEndpoints === true && sub.endpoint.startsWith('http://');
    request = await buildPushPayload(
      { data: { ...payload }, options: { ttl: 24 * 3600, urgency: 'normal' } },
      {
        endpoint: local ? `https://${sub.endpoint.slice('http://'.length)}` : sub.endpoint,
        expirationTime: null,
        keys: { p256dh: sub.p256dh, auth: sub.auth },
      },
      { subject: push.subject, publicKey: push.publicKey, privateKey: push.privateKey },
    );
  } catch (error) {
    // Keys that cannot be encrypted to fail the same way every time: not tried again.
    deps.logger.warn('push: a message could not be built for a subscription', {
      subscription: sub.id,
      host,
      error: error instanceof Error ? error.name : 'error',
    });
    return { final: true };
  }
  try {
    const timeout = AbortSignal.timeout(SEND_TIMEOUT_MS);
    const answer = await fetch(sub.endpoint, { ...request, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
    await answer.body?.cancel().catch(() => {});
    if (answer.ok) return { final: true };
    if (answer.status === 404 || answer.status === 410) {
      await removeSubscription(deps.db, sub.id);
      deps.logger.info('push: the subscription is gone; removed', { subscription: sub.id, host, status: answer.status });
      return { final: true };
    }
    if (answer.status === 429 || answer.status >= 500) {
      return { final: false, status: answer.status, retryAfterMs: retryAfterMs(answer.headers.get('retry-after'), Date.now()) };
    }
    // Another 4xx (a message too big, a key the service refuses): sending it again would get the same.
    deps.logger.warn('push: the push service refused a message', { subscription: sub.id, host, status: answer.status });
    return { final: true };
  } catch (error) {
    // A network error or a timeout. Never the endpoint (its path is the subscription's secret) nor the keys.
    return { final: false, error: error instanceof Error ? error.name : 'error' };
  }
}

/**
 * One taken message to every subscription it goes to that has not had its final answer: deleted once
 * all have, put back with a growing wait while any may still take it, dropped after the last attempt.
 */
async function sendMessage(deps: Deps, message: ClaimedPush, signal?: AbortSignal): Promise<void> {
  if (message.attempts > PUSH_MAX_ATTEMPTS) {
    // Its last sender stopped mid-send (the lease ran out): that was the last attempt.
    deps.logger.warn('push: a message was dropped after its last attempt', { message: message.id, attempts: message.attempts - 1 });
    await finishPush(deps.db, message);
    return;
  }
  const done = new Set(message.sent_to);
  const subs = (await subscriptionsFor(deps.db, message)).filter((sub) => !done.has(sub.id));
  const outcomes = await Promise.all(subs.map(async (sub) => ({ sub, outcome: await sendOne(deps, sub, message.payload, signal) })));
  const failed: { sub: Subscription; outcome: Extract<Outcome, { final: false }> }[] = [];
  for (const { sub, outcome } of outcomes) {
    if (outcome.final) done.add(sub.id);
    else failed.push({ sub, outcome });
  }
  if (failed.length === 0) {
    await finishPush(deps.db, message);
    return;
  }
  const last = message.attempts >= PUSH_MAX_ATTEMPTS;
  for (const { sub, outcome } of failed) {
    deps.logger.warn(last ? 'push: a message could not be sent; dropped after its last attempt' : 'push: a message could not be sent; trying again later', {
      subscription: sub.id,
      host: pushHost(sub.endpoint),
      ...(outcome.status !== undefined ? { status: outcome.status } : { error: outcome.error }),
      attempt: message.attempts,
    });
  }
  if (last) {
    await finishPush(deps.db, message);
    return;
  }
  const backoff = RETRY_DELAYS_MS[Math.min(message.attempts, RETRY_DELAYS_MS.length) - 1]!;
  const asked = Math.max(0, ...failed.map(({ outcome }) => outcome.retryAfterMs ?? 0));
  await retryPushLater(deps.db, message, [...done], Math.max(backoff, asked));
}

/**
 * Sends every due message, round by round: after a write (the middleware below), on the Node entry's
 * timer and on the worker's cron. Errors are logged, never thrown. `signal` cuts the sends short (a
 * process stopping): those messages are put back as failed attempts.
 */
export function sendWaitingPushes(deps: Deps, options: { signal?: AbortSignal } = {}): Promise<void> {
  return inFlight.track(sendDuePushes(deps, options.signal));
}

async function sendDuePushes(deps: Deps, signal: AbortSignal | undefined): Promise<void> {
  if (!deps.config.push) return;
  try {
    const stale = await dropStalePushes(deps.db, PUSH_MAX_AGE_MS);
    if (stale > 0) deps.logger.warn('push: messages older than a day were dropped unsent', { messages: stale });
    while (!signal?.aborted) {
      const messages = await claimPushes(deps.db, ROUND, PUSH_LEASE_MS);
      await Promise.all(messages.map((message) => sendMessage(deps, message, signal)));
      if (messages.length < ROUND) return;
    }
  } catch (error) {
    deps.logger.warn('push: the waiting messages could not be read', { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * The Node entry's sender of retries: every `everyMs`, what is due (messages put back after a failed
 * send, or left by a process that stopped) goes, even when no write happens. `stop` cuts a round short
 * and waits for it, so the database can close after.
 */
export const sendDuePushesEvery = (deps: Deps, everyMs: number): { stop(): Promise<void> } =>
  repeatRounds(everyMs, (signal) => sendWaitingPushes(deps, { signal }));

/**
 * After a change has answered (its transaction committed, the answer on its way), the messages it wrote
 * are sent in the background (runInBackground: waitUntil on Workers, a promise nobody waits for on Node). The
 * request is neither slowed nor failed by the push service.
 */
export function pushAfterCommit(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    const queuedBefore = queuedPushCount();
    await next();
    if (!deps.config.push || c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS' || c.res.status >= 400) return;
    // Only when a message was written in this process while this request ran (by it or by a request
    // beside it): most writes tell nobody, and then cost no statement here. Messages a stopped process
    // left behind, and those put back after a failed send, go with the next round once due.
    if (queuedPushCount() === queuedBefore) return;
    runInBackground(c, sendWaitingPushes(deps));
  };
}
