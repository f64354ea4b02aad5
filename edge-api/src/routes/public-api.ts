import { Hono as Router } from 'hono';
import { idempotencyHeader, idParam } from '../contract/fields.ts';
import { placeOrderBody, revealBody } from '../contract/order-requests.ts';
import { apiOrdersQuery } from '../contract/partners.ts';
import { NEXT_CURSOR_HEADER } from '../contract/list-pages.ts';
import { toListPage } from '../db/list-page.ts';
import { readForwardCursor, type OrderCursor } from '../db/order-cursor.ts';
import { findOrder, listUserOrdersPage } from '../db/orders.ts';
import { listServices } from '../db/services.ts';
import type { Deps } from '../deps.ts';
import { badRequest, notFound, RateLimitedError } from '../errors.ts';
import { createOrderLimiter } from '../middleware/request-guards.ts';
import { placeOrderIn } from '../operations/place-order.ts';
import { validate } from '../lib/validate.ts';
import { requireScope, type ApiKeyEnv } from '../middleware/api-key.ts';
import { loadAccountPriceRules, priceListEntry } from '../operations/pricing.ts';
import { createRevealLimiter, logReveal } from '../operations/reveal-log.ts';
import { toApiOrder, toApiService } from '../presenters/api-orders.ts';
import { presentOrder } from '../presenters/orders.ts';

/** A cursor this API answered in X-Next-Cursor, or a clear 400. */
function readCursor(text: string): OrderCursor {
  const cursor = readForwardCursor(text);
  if (!cursor) throw badRequest('cursor: must be a cursor this API answered', [{ path: 'cursor', message: 'must be a cursor this API answered' }]);
  return cursor;
}

/** The account's own order, or 404 (another account's order is not told apart from none). */
async function ownOrder(deps: Deps, userId: string, id: string) {
  const row = await findOrder(deps.db, id);
  if (!row || row.user_id !== userId) throw notFound('Order');
  return row;
}

/**
 * /api/v1: the public API for resellers and automation (docs/api.md, decision 173). createApp puts the key
 * check (middleware/api-key.ts) in front of it.
 */
export function publicApiRoutes(deps: Deps) {
  const reveals = createRevealLimiter(deps);
  const orderLimit = createOrderLimiter(deps);
  return new Router<ApiKeyEnv>()
    .get('/services', requireScope('services:read'), async (c) => {
      // The account's own prices (decision 224): the numbers an order placed with this key is charged.
      const [services, rulesOf] = await Promise.all([listServices(deps.db), loadAccountPriceRules(deps.db, c.get('user')!.id)]);
      return c.json(services.map((row) => toApiService(row, priceListEntry(row.price, rulesOf(row.id)))));
    })
    .post('/orders', requireScope('orders:write'), validate('json', placeOrderBody), async (c) => {
      // As the app's POST /api/orders (decision 173): the same body, placement (price, coupon, audit) and
      // per-account order limit, counted together with the account's orders from the app (decision 224).
      const me = c.get('user')!;
      const allowed = await orderLimit.hit(me.id);
      if (!allowed.allowed) throw new RateLimitedError(allowed.retryAfterSeconds);
      const { id = crypto.randomUUID(), productId, note = '', paymentMethod, couponCode, quantity } = c.req.valid('json');
      const result = await deps.db.transaction().execute((trx) => placeOrderIn(trx, deps, me, { id, productId, note, paymentMethod, couponCode, quantity }));
      return c.json(toApiOrder(await presentOrder(result.row, 'owner', deps.secrets, deps.blobs), false), result.created ? 201 : 200);
    })
    .get('/orders', requireScope('orders:read'), validate('query', apiOrdersQuery), async (c) => {
      const { limit = 50, cursor } = c.req.valid('query');
      // The same page and cursor as the app's own list (decision 185).
      const found = await listUserOrdersPage(deps.db, c.get('user').id, limit + 1, cursor === undefined ? undefined : readCursor(cursor));
      const page = toListPage(found, limit);
      if (page.next) c.header(NEXT_CURSOR_HEADER, page.next);
      return c.json(await Promise.all(page.rows.map(async (row) => toApiOrder(await presentOrder(row, 'owner', deps.secrets, deps.blobs), false))));
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
