import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { nestedDeeperThan, TOO_DEEP_MESSAGE, UNSAFE_TEXT_MESSAGE, unsafeTextPath } from '../contract/fields.ts';
import { SERVICE_STOCK_IMPORT_MAX_CHARS } from '../contract/service-stocks.ts';
import { STOCK_IMPORT_MAX_CHARS } from '../contract/stock-batches.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest } from '../errors.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';
import type { AppEnv } from './session.ts';
import { rateLimit } from '../lib/rate-limit-settings.ts';

/** The largest JSON body any route takes: a service with its features, settings, a delivery. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** A stock import's JSON body holding the largest text allowed, escapes and all (about 600 KB for 10,000 lines). */
const STOCK_IMPORT_BODY_BYTES = STOCK_IMPORT_MAX_CHARS * 2 + 10_000;

const isUpload = (path: string) => path === '/api/uploads' || path.startsWith('/api/uploads/');
const isStockImport = (path: string) => path === '/api/stock-batches' || path === '/api/stock-batches/preview';
/** A bulk add to a service's stock (decision 075). */
const isServiceStockImport = (path: string) => path === '/api/service-stocks/batch' || path === '/api/service-stocks/preview';

const tooLarge = (importing: boolean) => () => {
  throw new ApiError(
    'payload_too_large',
    importing ? `An import holds at most ${STOCK_IMPORT_MAX_CHARS} characters` : `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KB`,
  );
};
const jsonBodyLimit = bodyLimit({ maxSize: MAX_JSON_BODY_BYTES, onError: tooLarge(false) });
const importBodyLimit = bodyLimit({ maxSize: STOCK_IMPORT_BODY_BYTES, onError: tooLarge(true) });
const serviceStockImportBodyLimit = bodyLimit({
  maxSize: SERVICE_STOCK_IMPORT_MAX_CHARS * 2 + 10_000,
  onError: () => {
    throw new ApiError('payload_too_large', `An import holds at most ${SERVICE_STOCK_IMPORT_MAX_CHARS} characters`);
  },
});

/**
 * Every /api route but the uploads (which limit by the caller's role, routes/uploads.ts) refuses a body
 * over MAX_JSON_BODY_BYTES with 413 (a stock import over STOCK_IMPORT_BODY_BYTES): from Content-Length
 * before reading it, or while streaming it. One limit per request, here, before anything reads the body.
 * A GET or HEAD has no body (the Node adapter and Workers give it none): it is not looked at, which on
 * Node spares building a full Request for every public read.
 */
export const limitBodies = createMiddleware(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || isUpload(c.req.path)) return next();
  return (isStockImport(c.req.path) ? importBodyLimit : isServiceStockImport(c.req.path) ? serviceStockImportBodyLimit : jsonBodyLimit)(c, next);
});

const refuse = (path: string) => badRequest(`${path}: ${UNSAFE_TEXT_MESSAGE}`, [{ path, message: UNSAFE_TEXT_MESSAGE }]);

/**
 * Text with a NUL or a lone surrogate never reaches a query: the path, every query value and every
 * string of a JSON body (keys included) are checked before any route runs, answering 400 naming the
 * field. A query that is not valid percent-encoding is a 400 too. A body that is not JSON is left to the
 * route's own validation.
 */
export const refuseUnsafeText = createMiddleware(async (c, next) => {
  let queries: Record<string, string[]>;
  let path: string;
  try {
    path = decodeURIComponent(new URL(c.req.url).pathname);
    queries = c.req.queries();
  } catch {
    throw badRequest('The address is not valid percent-encoded UTF-8');
  }
  if (unsafeTextPath(path) !== undefined) throw refuse('path');
  const inQuery = unsafeTextPath(queries);
  if (inQuery !== undefined) throw refuse(inQuery.replace(/\.\d+$/, ''));
  for (const name of ['idempotency-key']) {
    const value = c.req.header(name);
    if (value !== undefined && unsafeTextPath(value) !== undefined) throw refuse(name);
  }
  if (!isUpload(c.req.path) && c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('content-type')?.toLowerCase().includes('json')) {
    let body: unknown;
    try {
      // Read as text and kept: the route's validator parses the same text, and a route that checks a
      // signature over the body (a payment webhook) reads it byte for byte (uploads, which read their own
      // body, are not checked here).
      body = JSON.parse(await c.req.text());
    } catch {
      return next();
    }
    if (nestedDeeperThan(body)) throw badRequest(`body: ${TOO_DEEP_MESSAGE}`);
    const at = unsafeTextPath(body);
    if (at !== undefined) throw refuse(at || 'body');
  }
  return next();
});

const WRITE_WINDOW_MS = 10 * 60_000;

/**
 * Orders placed per account in 10 minutes (`rateLimits.ordersPer10Min`): one count per account whether it
 * orders in the app (POST /api/orders) or with an API key (POST /api/v1/orders, decision 224).
 */
export const createOrderLimiter = (deps: Deps) =>
  createFixedWindowLimiter({
    db: deps.db,
    name: 'api.orders',
    limit: rateLimit(deps.config.rateLimits, 'ordersPer10Min'),
    windowMs: WRITE_WINDOW_MS,
    clock: deps.clock,
  });

/**
 * Placing orders and uploading images, per signed-in user: past the limit, 429 with Retry-After until
 * the 10-minute window ends. Counted in the database, so every process and isolate shares them (decision 049).
 */
export function limitWrites(deps: Deps) {
  const orders = createOrderLimiter(deps);
  const uploads = createFixedWindowLimiter({
    db: deps.db,
    name: 'api.uploads',
    limit: rateLimit(deps.config.rateLimits, 'uploadsPer10Min'),
    windowMs: WRITE_WINDOW_MS,
    clock: deps.clock,
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const limiter = c.req.path === '/api/orders' ? orders : c.req.path === '/api/uploads' ? uploads : undefined;
    const caller = c.get('auth')?.sub;
    if (!limiter || !caller) return next();
    const result = await limiter.hit(caller);
    if (!result.allowed) {
      c.header('Retry-After', String(result.retryAfterSeconds));
      throw new ApiError('rate_limited', `Too many requests: try again in ${result.retryAfterSeconds} seconds`);
    }
    return next();
  });
}
