import type { MiddlewareHandler } from 'hono';
import {
  claimDeliveries,
  finishDelivery,
  queuedWebhookCount,
  recordAttempt,
  retryDeliveryLater,
  sweepDeliveredWebhooks,
  type ClaimedDelivery,
} from '../db/webhooks.ts';
import { inFlightSet, repeatRounds, runInBackground } from '../lib/outbox-timer.ts';
import type { Deps } from '../deps.ts';
import { checkEndpoint } from './endpoint-url.ts';
import { platformNetwork } from './network.ts';
import { webhookHeaders } from './signature.ts';

/** Deliveries taken per round, posted side by side. */
const ROUND = 20;
/** A receiver that does not answer in this time has failed this attempt. */
const SEND_TIMEOUT_MS = 10_000;
/** How long a taken delivery is the taker's: well over one post. */
export const WEBHOOK_LEASE_MS = 60_000;
/**
 * The waits after each failed attempt: 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h. The ninth and last
 * attempt comes about 23 h 36 min after the first: retried for a day (decision 174).
 */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000];
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

const inFlight = inFlightSet();
/** Tests wait for the posts still running in this process. */
export const webhooksSettled = (): Promise<void> => inFlight.settled();

/** Delivered deliveries are kept this many days to be read, then swept (decision 225). */
export const WEBHOOK_KEEP_DELIVERED_DAYS = 30;
/** The sweep runs at most once an hour per process (or isolate). */
const SWEEP_EVERY_MS = 3_600_000;
let lastSweep = 0;

async function sweepNow(deps: Deps): Promise<void> {
  const now = deps.clock().getTime();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  const swept = await sweepDeliveredWebhooks(deps.db, WEBHOOK_KEEP_DELIVERED_DAYS);
  if (swept > 0) deps.logger.info('webhooks: delivered deliveries past their keeping were swept', { deliveries: swept, days: WEBHOOK_KEEP_DELIVERED_DAYS });
}

/** `final`: the address itself is refused (it resolves inward): the delivery fails now, not after a day of retries. */
type Outcome = { status: number | null; error: string | null; ok: boolean; final?: boolean };

const errorName = (error: unknown) => (error instanceof Error ? (((error as { code?: unknown }).code as string | undefined) ?? error.name) : 'error');

/**
 * One post, redirects not followed (a 3xx is a failed attempt). The address is checked again as it is
 * sent, and on the Node entry the connection goes to the addresses checked (decision 243).
 */
async function post(deps: Deps, delivery: ClaimedDelivery, signal?: AbortSignal): Promise<Outcome> {
  const network = deps.config.webhooks?.network ?? platformNetwork;
  const checked = await checkEndpoint(delivery.url, deps.config.webhooks?.allowHosts ?? [], network);
  if (!checked.ok) return { status: null, error: `not sent: the URL ${checked.problem}`, ok: false, final: checked.final };
  const secret = await deps.secrets.open(delivery.secret_enc, { entity: 'webhook_endpoint', id: delivery.endpoint_id });
  if (secret === null) return { status: null, error: 'not sent: the signing secret cannot be read with this server key', ok: false };
  const body = JSON.stringify(delivery.payload);
  try {
    const timeout = AbortSignal.timeout(SEND_TIMEOUT_MS);
    const status = await network.post(checked.url, checked.addresses, {
      body,
      headers: await webhookHeaders(secret, delivery.id, body, deps.clock()),
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    return { status, error: status >= 300 && status < 400 ? 'a redirect, not followed' : null, ok: status >= 200 && status < 300 };
  } catch (error) {
    return { status: null, error: errorName(error), ok: false };
  }
}

async function deliver(deps: Deps, delivery: ClaimedDelivery, signal?: AbortSignal): Promise<void> {
  if (delivery.endpoint_deleted) {
    await finishDelivery(deps.db, delivery, 'failed');
    return;
  }
  const started = Date.now();
  const outcome = await post(deps, delivery, signal);
  await recordAttempt(deps.db, delivery, { status: outcome.status, error: outcome.error, durationMs: Date.now() - started });
  if (outcome.ok) {
    await finishDelivery(deps.db, delivery, 'delivered');
    return;
  }
  const host = URL.canParse(delivery.url) ? new URL(delivery.url).host : 'invalid';
  if (outcome.final) {
    deps.logger.warn('webhooks: a delivery was refused before sending; failed', { delivery: delivery.id, host, error: outcome.error });
    await finishDelivery(deps.db, delivery, 'failed');
    return;
  }
  if (delivery.attempts >= WEBHOOK_MAX_ATTEMPTS) {
    deps.logger.warn('webhooks: a delivery failed its last attempt; given up', { delivery: delivery.id, host, status: outcome.status, error: outcome.error });
    await finishDelivery(deps.db, delivery, 'failed');
    return;
  }
  await retryDeliveryLater(deps.db, delivery, WEBHOOK_RETRY_DELAYS_MS[delivery.attempts - 1]!);
}

/** Posts every due delivery, round by round: after a write, on the Node entry's timer and the worker's cron. Never throws. */
export function sendDueWebhooks(deps: Deps, options: { signal?: AbortSignal } = {}): Promise<void> {
  const run = (async () => {
    try {
      await sweepNow(deps);
      while (!options.signal?.aborted) {
        const taken = await claimDeliveries(deps.db, ROUND, WEBHOOK_LEASE_MS);
        await Promise.all(taken.map((delivery) => deliver(deps, delivery, options.signal)));
        if (taken.length < ROUND) return;
      }
    } catch (error) {
      deps.logger.warn('webhooks: the waiting deliveries could not be read', { error: error instanceof Error ? error.message : String(error) });
    }
  })();
  return inFlight.track(run);
}

/** The Node entry's sender of retries: every `everyMs`, what is due goes. */
export const sendDueWebhooksEvery = (deps: Deps, everyMs: number): { stop(): Promise<void> } =>
  repeatRounds(everyMs, (signal) => sendDueWebhooks(deps, { signal }));

/** After a change that wrote deliveries has answered, they are posted in the background (as pushAfterCommit). */
export function webhooksAfterCommit(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    const before = queuedWebhookCount();
    await next();
    if (queuedWebhookCount() === before || c.res.status >= 400) return;
    runInBackground(c, sendDueWebhooks(deps));
  };
}
