import { Hono } from 'hono';
import { idempotencyHeader, idParam } from '../contract/fields.ts';
import { orderReportBody, placeOrderBody, userIdParam, userOrdersQuery } from '../contract/order-requests.ts';
import { recordAudit } from '../db/audit.ts';
import { findOrderIncludingDeleted, insertOrder, listUserOrders, listUserOrdersPage } from '../db/orders.ts';
import type { OrderRow } from '../db/schema.ts';
import { findService } from '../db/services.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { isStaff, requireRole, type AppEnv } from '../middleware/session.ts';
import { reportProblem } from '../operations/after-sales.ts';
import { presentOrder } from '../presenters/orders.ts';

/** A page's end as an opaque cursor: the id of its last order. */
const writeCursor = (row: OrderRow): string => Buffer.from(row.id).toString('base64url');

function readCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw badRequest('cursor: must be a cursor this API answered', [{ path: 'cursor', message: 'must be a cursor this API answered' }]);
  }
  return id;
}

export function orderRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .post('/', requireRole(), validate('json', placeOrderBody), async (c) => {
      const { id = crypto.randomUUID(), productId } = c.req.valid('json');
      const me = c.get('user')!;
      /** A replayed placement answers the order the first one made; an id of someone else's order is refused. */
      const replayOf = (row: OrderRow) => {
        if (row.user_id !== me.id) throw conflict('This order id is already taken');
        if (row.deleted_at) throw conflict('This order was deleted');
        return { row, created: false };
      };
      const result = await deps.db.transaction().execute(async (trx) => {
        const existing = await findOrderIncludingDeleted(trx, id);
        if (existing) return replayOf(existing);
        const service = await findService(trx, productId);
        if (!service) throw notFound('Service');
        const fields = {
          id,
          productId: service.id,
          title: service.title,
          description: service.description,
          category: service.category,
          image: service.image,
          price: service.price,
          deliveryTime: service.delivery_time,
          userId: me.id,
          userEmail: me.email,
          userName: me.display_name,
          orderDate: deps.clock(),
        };
        const created = await insertOrder(trx, fields, await nextVersion(trx));
        if (!created) return replayOf((await findOrderIncludingDeleted(trx, id))!);
        await recordAudit(trx, me, { action: 'order.create', entity: 'order', entityId: id, details: { productId, price: service.price } });
        return { row: created, created: true };
      });
      const order = await presentOrder(result.row, 'owner', deps.secrets, deps.blobs);
      return c.json({ success: true as const, order }, result.created ? 201 : 200);
    })
    .get('/user/:userId', requireRole(), validate('param', userIdParam), validate('query', userOrdersQuery), async (c) => {
      const { userId } = c.req.valid('param');
      const { limit, cursor } = c.req.valid('query');
      const me = c.get('user')!;
      if (me.id !== userId && !isStaff(me)) throw forbidden('You can only read your own orders');
      let rows: OrderRow[];
      if (limit === undefined) {
        rows = await listUserOrders(deps.db, userId);
      } else {
        // One more than asked tells whether another page follows; only the page is decrypted.
        rows = await listUserOrdersPage(deps.db, userId, limit + 1, cursor === undefined ? undefined : readCursor(cursor));
        if (rows.length > limit) {
          rows = rows.slice(0, limit);
          c.header('X-Next-Cursor', writeCursor(rows.at(-1)!));
        }
      }
      const audience = me.id === userId ? 'owner' : 'staff';
      return c.json(await Promise.all(rows.map((row) => presentOrder(row, audience, deps.secrets, deps.blobs))));
    })
    .post('/:id/report', requireRole(), validate('param', idParam), validate('header', idempotencyHeader), validate('json', orderReportBody), async (c) => {
      const answer = await reportProblem(deps, c.get('user')!, c.req.valid('param').id, c.req.valid('json'), c.req.valid('header')['idempotency-key']);
      return c.json(answer.body, 200);
    });
}
