/**
 * The public API for resellers and automation (issue 27): API keys, their scopes, outbound webhooks, and
 * the shapes /api/v1 answers. The OpenAPI document (edge-api/src/openapi.ts) is built from these schemas.
 */
import * as z from 'zod';
import { oneOf, requiredText, uuid } from './fields.ts';
import { orderStatuses, paymentStatuses } from './orders.ts';

/** What a key may do: read services and prices, place orders, read its orders and their deliveries (and manage its webhooks). */
export const apiKeyScopes = ['services:read', 'orders:write', 'orders:read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** The order events an endpoint may take. */
export const webhookEvents = ['order.paid', 'order.delivered', 'order.replaced', 'order.refunded'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** Every key starts so: a scanner finds a leaked one, and the session middleware tells it from a session token. */
export const API_KEY_PREFIX = 'sk_';

/** POST /api/admin/api-keys: the account the key acts as, a name to tell it apart, and its scopes. */
export const createApiKeyBody = z
  .object({
    userId: uuid,
    name: requiredText(80),
    scopes: z.array(oneOf(apiKeyScopes)).min(1, 'name at least one scope').max(apiKeyScopes.length),
  })
  .strict();

/** A key as an admin reads it: never its secret, which is answered once, when it is made. */
export interface ApiKey {
  id: string;
  userId: string;
  userEmail: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer to POST /api/admin/api-keys: the key and, this once, its secret. */
export interface CreatedApiKey extends ApiKey {
  secret: string;
}

/** The longest endpoint URL taken. */
export const WEBHOOK_URL_MAX = 2000;

/** POST /api/v1/webhooks: an https URL and the events it takes. */
export const createWebhookBody = z
  .object({
    url: z
      .string({ error: 'is required' })
      .trim()
      .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
      .refine((value) => URL.canParse(value), 'must be a URL')
      .describe('An https URL; it must resolve to public addresses only.'),
    events: z.array(oneOf(webhookEvents)).min(1, 'name at least one event'),
  })
  .strict();

/** GET /api/v1/orders: one page, newest first. */
export const apiOrdersQuery = z.object({
  limit: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
  cursor: z.string().max(200, 'must be at most 200 characters').optional(),
});

// ----- What /api/v1 answers (documented in the OpenAPI document) -----

export const apiServiceSchema = z.object({
  id: uuid,
  title: z.string(),
  description: z.string(),
  category: z.string(),
  price: z.string().describe("The price this account pays for one: its own price or discount when an admin set one, else the shop's list price."),
  listPrice: z.string().describe('The price everyone pays for one, as the shop lists it.'),
  tiers: z
    .array(z.object({ minQuantity: z.number().int(), unitPrice: z.string() }))
    .describe('Ordering `minQuantity` or more: the unit price this account pays (only tiers that lower it). Empty when the service is sold at one price.'),
  deliveryTime: z.string(),
  paymentMethods: z.array(z.string()),
  needsDetails: z.boolean().describe('When true, an order must carry a note with the details.'),
  detailsHint: z.string().optional(),
});
export type ApiService = z.infer<typeof apiServiceSchema>;

const deliverySchema = z
  .object({
    kind: z.enum(['account', 'server', 'lines', 'file']),
    sealed: z.boolean().describe('True when a secret (password, lines) is held back: POST /api/v1/orders/{id}/reveals answers it and logs the reveal.'),
    email: z.string().optional(),
    password: z.string().optional(),
    serverHost: z.string().optional(),
    serverPort: z.number().optional(),
    serverUser: z.string().optional(),
    serverPassword: z.string().optional(),
    lines: z.array(z.string()).optional(),
    lineCount: z.number().optional(),
    file: z.object({ name: z.string(), size: z.number() }).optional(),
  })
  .describe('What was delivered; present once the order is paid and delivered.');

export const apiOrderSchema = z.object({
  id: uuid,
  productId: uuid,
  title: z.string(),
  price: z.string(),
  paymentStatus: oneOf(paymentStatuses),
  orderStatus: oneOf(orderStatuses),
  paymentMethod: z.string().optional(),
  note: z.string().optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().optional(),
  delivery: deliverySchema.optional(),
  replacements: z.number().int().describe('How many times the delivery was replaced.'),
});
export type ApiOrder = z.infer<typeof apiOrderSchema>;

export const apiWebhookSchema = z.object({
  id: uuid,
  url: z.string(),
  events: z.array(oneOf(webhookEvents)),
  createdAt: z.iso.datetime(),
});
export type ApiWebhook = z.infer<typeof apiWebhookSchema>;

export const apiCreatedWebhookSchema = apiWebhookSchema.extend({
  secret: z.string().describe('whsec_…: the signing secret, answered once (Standard Webhooks).'),
});

export const apiWebhookDeliverySchema = z.object({
  id: uuid.describe('The webhook-id header of every attempt.'),
  event: oneOf(webhookEvents),
  orderId: uuid,
  state: z.enum(['pending', 'delivered', 'failed']),
  createdAt: z.iso.datetime(),
  nextAttemptAt: z.iso.datetime().nullable(),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.iso.datetime(),
      status: z.number().int().nullable(),
      error: z.string().nullable(),
      durationMs: z.number().int(),
    }),
  ),
});
export type ApiWebhookDelivery = z.infer<typeof apiWebhookDeliverySchema>;

/** GET /api/admin/api-keys/webhooks: every live endpoint, its account, and its newest deliveries. */
export interface AdminWebhook extends ApiWebhook {
  userEmail: string;
  deliveries: ApiWebhookDelivery[];
}

export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional(), requestId: z.string().optional() }),
});
