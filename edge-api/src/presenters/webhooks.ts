import type { ApiWebhook, ApiWebhookDelivery } from '../contract/partners.ts';
import type { WebhookEndpointRow } from '../db/partner-schema.ts';
import type { listDeliveries } from '../db/webhooks.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export const toApiWebhook = (row: WebhookEndpointRow): ApiWebhook => ({ id: row.id, url: row.url, events: row.events, createdAt: iso(row.created_at)! });

/** A delivery and its attempts, as the account (and an admin) reads them: never the secret or the body. */
export const toApiWebhookDelivery = ({ delivery, attempts }: Awaited<ReturnType<typeof listDeliveries>>[number]): ApiWebhookDelivery => ({
  id: delivery.id,
  event: delivery.event,
  orderId: delivery.order_id,
  state: delivery.state,
  createdAt: iso(delivery.created_at)!,
  nextAttemptAt: delivery.state === 'pending' ? iso(delivery.next_attempt_at) : null,
  attempts: attempts.map((a) => ({ attempt: a.attempt, at: iso(a.at)!, status: a.status, error: a.error, durationMs: a.duration_ms })),
});
