import { Hono } from 'hono';
import { idempotencyHeader, idParam } from '../contract/fields.ts';
import { ADMIN_ORDER_OFFSET_MAX, adminOrderFilterQuery, adminOrderListQuery, orderChangeBody, reportDeclineBody } from '../contract/order-requests.ts';
import type { AdminOrderPage, OrderStats } from '../contract/orders.ts';
import { recordAudit } from '../db/audit.ts';
import { keyClaimed } from '../db/idempotency.ts';
import { exportBatch, type ExportCursor } from '../db/order-export.ts';
import { readOrderCursor } from '../db/order-cursor.ts';
import { listAdminOrders } from '../db/order-search.ts';
import { dailySeries, latestOrders, orderTotals } from '../db/order-stats.ts';
import { findOrder, softDeleteOrder } from '../db/orders.ts';
import type { OrderRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, requireStaff, type AppEnv } from '../middleware/session.ts';
import { declineReport } from '../operations/after-sales.ts';
import { createDeliveredLinesGuard } from '../operations/credential-checks.ts';
import { changeOrder, orderChangeKey } from '../operations/deliver.ts';
import { csvHeader, csvRow } from '../presenters/order-csv.ts';
import { presentOrder } from '../presenters/orders.ts';

const EXPORT_ROW_CAP = 100_000;
const EXPORT_BATCH = 2_000;

/** /api/admin/orders: the staff's order list, stats, export, and the changes that deliver an order. */
export function adminOrderRoutes(deps: Deps) {
  return new Hono<AppEnv>().route('/', adminOrderReads(deps)).route('/', adminOrderChanges(deps));
}

/** The list (paged by offset or cursor), the stats, the CSV export and one order, as staff see them. */
function adminOrderReads(deps: Deps) {
  const asStaff = (row: OrderRow) => presentOrder(row, 'staff', deps.secrets, deps.blobs);
  return new Hono<AppEnv>()
    .get('/', requireStaff, validate('query', adminOrderListQuery), async (c) => {
      const { page = 1, limit = 10, cursor: cursorText, ...filter } = c.req.valid('query');
      const cursor = cursorText === undefined ? undefined : readOrderCursor(cursorText);
      if (cursor === null) throw badRequest('cursor: must be a cursor this API answered', [{ path: 'cursor', message: 'must be a cursor this API answered' }]);
      if (!cursor && (page - 1) * limit > ADMIN_ORDER_OFFSET_MAX) {
        const message = `must be at most ${ADMIN_ORDER_OFFSET_MAX / limit + 1} at limit ${limit}: page further with the cursor of an answer (nextCursor)`;
        throw badRequest(`page: ${message}`, [{ path: 'page', message }]);
      }
      const found = await listAdminOrders(deps.db, filter, page, limit, { cursor });
      const { total, totalIsLowerBound, nextCursor, prevCursor } = found;
      const answer: AdminOrderPage = { orders: await Promise.all(found.rows.map(asStaff)), total, totalIsLowerBound, page, limit, nextCursor, prevCursor };
      return c.json(answer);
    })
    .get('/stats', requireStaff, async (c) => {
      const [totals, recent, daily] = await Promise.all([orderTotals(deps.db), latestOrders(deps.db, 5), dailySeries(deps.db, deps.clock())]);
      const stats: OrderStats = { ...totals, recentOrders: await Promise.all(recent.map(asStaff)), daily };
      return c.json(stats);
    })
    .get('/export.csv', requireStaff, validate('query', adminOrderFilterQuery), async (c) => {
      const filter = c.req.valid('query');
      const encoder = new TextEncoder();
      let cursor: ExportCursor | null = null;
      let sent = 0;
      let started = false;
      // Streamed in keyset batches: a large export never sits in memory whole.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!started) {
            started = true;
            controller.enqueue(encoder.encode(csvHeader));
            return;
          }
          try {
            const size = Math.min(EXPORT_BATCH, EXPORT_ROW_CAP - sent);
            const rows = size > 0 ? await exportBatch(deps.db, filter, cursor, size) : [];
            if (rows.length > 0) {
              controller.enqueue(encoder.encode(rows.map(csvRow).join('')));
              sent += rows.length;
              const last = rows[rows.length - 1]!;
              cursor = { createdAt: last.cursor_at, id: last.id };
            }
            if (rows.length < size || sent >= EXPORT_ROW_CAP) controller.close();
          } catch (error) {
            deps.logger.error('order export failed', { error: String(error) });
            controller.error(error);
          }
        },
      });
      const day = deps.clock().toISOString().slice(0, 10);
      return c.body(body, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="orders-${day}.csv"`,
        'cache-control': 'no-store',
      });
    })
    .get('/:id', requireStaff, validate('param', idParam), async (c) => {
      const row = await findOrder(deps.db, c.req.valid('param').id);
      if (!row) throw notFound('Order');
      return c.json(await asStaff(row));
    });
}

/** Statuses and deliveries (one PUT), the answer to a problem report, and deletion. */
function adminOrderChanges(deps: Deps) {
  const limitDeliveredLines = createDeliveredLinesGuard(deps);
  return new Hono<AppEnv>()
    .put('/:id', requireStaff, validate('param', idParam), validate('header', idempotencyHeader), validate('json', orderChangeBody), async (c) => {
      const { id } = c.req.valid('param');
      const change = c.req.valid('json');
      const user = c.get('user');
      const idempotencyKey = c.req.valid('header')['idempotency-key'];
      // Lines and a server password are compared with every delivered and stocked secret, so each delivery
      // of them draws its lines from a budget of its own first, known or not: past it the answer is 429
      // whatever they are, and nothing is compared or written (decision 138). A replay is not counted.
      const secrets = change.lines ?? (change.server && [change.server.password]);
      if (secrets && !(idempotencyKey && (await keyClaimed(deps.db, user.id, orderChangeKey(id, idempotencyKey))))) {
        await limitDeliveredLines(user, 'PUT /api/admin/orders/:id', new Set(secrets).size);
      }
      const answer = await changeOrder(deps, user, id, change, idempotencyKey);
      return c.json(answer.body, answer.status);
    })
    .post(
      '/:id/report/decline',
      requireStaff,
      validate('param', idParam),
      validate('header', idempotencyHeader),
      validate('json', reportDeclineBody),
      async (c) => {
        const answer = await declineReport(deps, c.get('user'), c.req.valid('param').id, c.req.valid('json').message, c.req.valid('header')['idempotency-key']);
        return c.json(answer.body, 200);
      },
    )
    .delete('/:id', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      await deps.db.transaction().execute(async (trx) => {
        const deleted = await softDeleteOrder(trx, id, await nextVersion(trx));
        if (!deleted) throw notFound('Order');
        await recordAudit(trx, c.get('user'), { action: 'order.delete', entity: 'order', entityId: id });
      });
      return c.body(null, 204);
    });
}
