/**
 * The OpenAPI 3.1 document of the public API (issue 27, decision 175), built from the zod schemas the
 * routes validate with and answer in (contract/partners.ts, contract/order-requests.ts) by zod's own
 * z.toJSONSchema: a field changed in a schema changes the document with it. Served at /api/openapi.json.
 */
import * as z from 'zod';
import { idempotencyHeader } from './contract/fields.ts';
import { placeOrderBody, revealBody } from './contract/order-requests.ts';
import {
  apiCreatedWebhookSchema,
  apiErrorSchema,
  apiKeyScopes,
  apiOrderSchema,
  apiOrdersQuery,
  apiServiceSchema,
  apiWebhookDeliverySchema,
  apiWebhookSchema,
  createWebhookBody,
  webhookEvents,
} from './contract/partners.ts';

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): as a request is read, or as an answer is written. */
function schema(source: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(source, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (source: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(source, 'input') } } });
const answer = (description: string, body: Json) => ({ description, content: { 'application/json': { schema: body } } });
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));
const idPath = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** The query parameters of a z.object, one by one. */
function queryParameters(source: z.ZodObject): Json[] {
  const shape = schema(source, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(shape.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: shape.required?.includes(name) ?? false,
    schema: property,
  }));
}

const idempotency = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: (schema(idempotencyHeader, 'input') as { properties: Json }).properties['idempotency-key'],
};

function operation(summary: string, scope: (typeof apiKeyScopes)[number], rest: Json): Json {
  return { summary, description: `Scope: \`${scope}\`.`, security: [{ apiKey: [] }], ...rest };
}

/** The shared parts: the security scheme, the named schemas and the error answers. */
function components(): Json {
  return {
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'sk_… API key' } },
    schemas: {
      Service: schema(apiServiceSchema, 'output'),
      Order: schema(apiOrderSchema, 'output'),
      Webhook: schema(apiWebhookSchema, 'output'),
      CreatedWebhook: schema(apiCreatedWebhookSchema, 'output'),
      WebhookDelivery: schema(apiWebhookDeliverySchema, 'output'),
      Error: schema(apiErrorSchema, 'output'),
    },
    responses: Object.fromEntries(
      [
        [400, 'The request is not valid: nothing was changed'],
        [401, 'No API key, or a key that is not valid or was revoked'],
        [403, 'The key lacks the scope this needs'],
        [404, 'No such thing for this account'],
        [409, 'A conflict with the current state'],
        [429, 'Too many requests with this key: see Retry-After'],
      ].map(([status, description]) => [`Error${status}`, answer(String(description), ref('Error'))]),
    ),
  };
}

/** Every path and its operations. */
function paths(): Json {
  return {
    '/api/v1/services': {
      get: operation('The services and their prices', 'services:read', {
        responses: { 200: answer('Every service', { type: 'array', items: ref('Service') }), ...errors(401, 403, 429) },
      }),
    },
    '/api/v1/orders': {
      post: operation('Place an order', 'orders:write', {
        requestBody: jsonBody(placeOrderBody),
        responses: {
          201: answer('The order placed', ref('Order')),
          200: answer('The order this id placed before (a replay)', ref('Order')),
          ...errors(400, 401, 403, 404, 409, 429),
        },
      }),
      get: operation("The account's orders, newest first", 'orders:read', {
        parameters: queryParameters(apiOrdersQuery),
        responses: {
          200: {
            ...answer('One page; the next page’s cursor in X-Next-Cursor while there is one', { type: 'array', items: ref('Order') }),
            headers: { 'X-Next-Cursor': { schema: { type: 'string' } } },
          },
          ...errors(400, 401, 403, 429),
        },
      }),
    },
    '/api/v1/orders/{id}': {
      get: operation('One order and its delivery (an account password sealed)', 'orders:read', {
        parameters: [idPath],
        responses: { 200: answer('The order', ref('Order')), ...errors(401, 403, 404, 429) },
      }),
    },
    '/api/v1/orders/{id}/reveals': {
      post: operation("Reveal a delivered account's password, logged as the owner's app logs it", 'orders:read', {
        parameters: [idPath, idempotency],
        requestBody: jsonBody(revealBody),
        responses: { 200: answer('The order with the password', ref('Order')), ...errors(400, 401, 403, 404, 409, 429) },
      }),
    },
    '/api/v1/webhooks': {
      get: operation("The account's webhook endpoints", 'orders:read', {
        responses: { 200: answer('Every endpoint', { type: 'array', items: ref('Webhook') }), ...errors(401, 403, 429) },
      }),
      post: operation('Register an https endpoint for order events', 'orders:read', {
        requestBody: jsonBody(createWebhookBody),
        responses: { 201: answer('The endpoint, with its signing secret (shown once)', ref('CreatedWebhook')), ...errors(400, 401, 403, 409, 429) },
      }),
    },
    '/api/v1/webhooks/{id}': {
      delete: operation('Delete an endpoint: nothing more is sent to it', 'orders:read', {
        parameters: [idPath],
        responses: { 204: { description: 'Deleted' }, ...errors(401, 403, 404, 429) },
      }),
    },
    '/api/v1/webhooks/{id}/deliveries': {
      get: operation("An endpoint's newest deliveries and their attempts", 'orders:read', {
        parameters: [idPath],
        responses: { 200: answer('Up to 100 deliveries, newest first', { type: 'array', items: ref('WebhookDelivery') }), ...errors(401, 403, 404, 429) },
      }),
    },
  };
}

/** The document; `serverUrl` is where this shop answers (the request's origin). */
export function openApiDocument(serverUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Storefront public API',
      version: '1.0.0',
      description:
        'For resellers and automation. Authenticate with `Authorization: Bearer sk_…` (an API key an admin made for your account). ' +
        'Each key is limited per minute (429 with Retry-After past it). Orders are placed at your account’s prices through the shop’s own order placement. ' +
        `Webhook events: ${webhookEvents.join(', ')}, signed as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature).`,
    },
    servers: [{ url: serverUrl }],
    components: components(),
    paths: paths(),
  };
}
