import type { ColumnType, Selectable } from 'kysely';
import type { ApiKeyScope, WebhookEvent } from '../contract/partners.ts';
import type { NullableTime, Timestamp } from './column-types.ts';

/** An API key (decision 173): only the SHA-256 of its secret is kept. */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: ColumnType<ApiKeyScope[], ApiKeyScope[], ApiKeyScope[]>;
  created_by: string | null;
  created_at: Timestamp;
  last_used_at: NullableTime;
  revoked_at: NullableTime;
}

/** An account's endpoint for order events (decision 174); its secret sealed with the data key. */
export interface WebhookEndpointsTable {
  id: string;
  user_id: string;
  url: string;
  events: ColumnType<WebhookEvent[], WebhookEvent[], WebhookEvent[]>;
  secret_enc: string;
  created_at: Timestamp;
  deleted_at: NullableTime;
}

/** What one event sends: the event's envelope, the same on every attempt. */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  data: { orderId: string; paymentStatus: string; orderStatus: string; version: number };
}

/** The outbox of webhook deliveries: one per event and endpoint. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event: WebhookEvent;
  order_id: string;
  payload: ColumnType<WebhookPayload, string, string>;
  created_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  claimed_until: NullableTime;
  state: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | undefined, 'pending' | 'delivered' | 'failed'>;
  finished_at: NullableTime;
}

/** One post of a delivery and what came of it. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  at: Timestamp;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
