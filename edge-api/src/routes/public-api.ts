import type { Hono, MiddlewareHandler } from 'hono';
import { Hono as Router } from 'hono';
import { idempotencyHeader, idParam } from '../contract/fields.ts';
import { revealBody } from '../contract/order-requests.ts';
import { apiOrdersQuery } from '../contract/partners.ts';
import { readForwardCursor, writeOrderCursor, type OrderCursor } from '../db/order-cursor.ts';
import { findOrder, listUserOrdersPage } from '../db/orders.ts';
import type { OrderRow } from '../db/schema.ts';
import { listServices } from '../db/services.ts';
import type { Deps } from '../deps.ts';
import { badRequest, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireScope, type ApiKeyEnv } from '../middleware/api-key.ts';
import { createRevealLimiter, logReveal } from '../operations/reveal-log.ts';
import { toApiOrder, toApiService } from '../presenters/api-orders.ts';
import { presentOrder } from '../presenters/orders.ts';

/** A cursor this API answered in X-Next-Cursor, or a clear 400. */
function readCursor(text: string): OrderCursor {
  const cursor = readForwardCursor(text);
  if (!cursor) throw badRequest('cursor: must be a cursor this API answered', [{ path: 'cursor', message: 'must be a cursor this API answered' }]);
  return cursor;
}

/**
 * The app's own placement, POST /api/orders, run as it is (its middleware, validation and handler, taken
 * from the order routes' table): the price, the coupon, the stock and the audit are whatever placing an
 * order from the app does, now and after any change to it (decision 173).
 */
function appPlacement(orders: Hono<never>): MiddlewareHandler[] {
  const handlers = orders.routes.filter((route) => route.method === 'POST' && route.path === '/').map((route) => route.handler as MiddlewareHandler);
  if (handlers.length === 0) throw new Error('POST /api/orders is gone: /api/v1/orders places orders through it');
  return handlers;
}

/** The placement's answer ({ success, order } for the app) turned into the public order shape. */
function asApiOrder(deps: Deps): MiddlewareHandler<ApiKeyEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status >= 300) return;
    const { order } = (await c.res.clone().json()) as { order: { id: string } };
    const row = await findOrder(deps.db, order.id);
    if (!row) throw notFound('Order');
    const status = c.res.status === 201 ? 201 : 200;
    c.res = undefined;
    c.res = c.json(toApiOrder(await presentOrder(row, 'owner', deps.secrets, deps.blobs), false), status);
  };
}

/** The account's own order, or 404 (another account's order is not told apart from none). */
async function ownOrder(deps: Deps, userId: string, id: string) {
  const row = await findOrder(deps.db, id);
  if (!row || row.user_id !== userId) throw notFound('Order');
  return row;
}

/**
 * /api/v1: the public API for resellers and automation (docs/api.md, decision 173). createApp puts the key
 * check (middleware/api-key.ts) in front of it, and hands over the app's order routes for their placement.
 */
export function publicApiRoutes(deps: Deps, orders: Hono<never>) {
  const reveals = createRevealLimiter(deps);
  return new Router<ApiKeyEnv>()
    .get('/services', requireScope('services:read'), async (c) => c.json((await listServices(deps.db)).map(toApiService)))
    .post('/orders', requireScope('orders:write'), asApiOrder(deps), ...appPlacement(orders))
    .get('/orders', requireScope('orders:read'), validate('query', apiOrdersQuery), async (c) => {
      const { limit = 50, cursor } = c.req.valid('query');
      // The same page and cursor as the app's own list (decision 185).
      const found = await listUserOrdersPage(deps.db, c.get('user').id, limit + 1, cursor === undefined ? undefined : readCursor(cursor));
      const page = found.slice(0, limit);
      const last = page.at(-1);
      if (found.length > limit && last) c.header('X-Next-Cursor', writeOrderCursor({ direction: 'after', createdAt: last.cursor_at, id: last.id }));
      const rows: OrderRow[] = page.map(({ cursor_at: _at, ...row }) => row);
      return c.json(await Promise.all(rows.map(async (row) => toApiOrder(await presentOrder(row, 'owner', deps.secrets, deps.blobs), false))));
    })
    .get('/orders/:id', requireScope('orders:read'), validate('param', idParam), async (c) => {
      const row = await ownOrder(deps, c.get('user').id, c.req.valid('param').id);
      return c.json(toApiOrder(await presentOrder(row, 'owner', deps.secrets, deps.blobs), false));
    })
    .post(
      '/orders/:id/reveals',
      requireScope('orders:read'),
      validate('param', idParam),
      validate('header', idempotencyHeader),
      validate('json', revealBody),
      async (c) => {
        const { id } = c.req.valid('param');
        await ownOrder(deps, c.get('user').id, id);
        // The owner's reveal, logged as the app logs it (decision 066): counted, limited, in the order's history.
        const order = await logReveal(deps, reveals, c.get('user'), id, c.req.valid('json'), c.req.valid('header')['idempotency-key']);
        return c.json(toApiOrder(order, true));
      },
    );
}
