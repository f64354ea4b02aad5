import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Kysely, Updateable } from 'kysely';
import { z } from 'zod';
import { isHttpUrl, parseBlobRef } from '../blobs/blob-store.ts';
import type { AdminOrderPage, AuditEntry, CredentialsCheck, Order, OrderStats } from '../contract.ts';
import { recordAudit } from '../db/audit.ts';
import { onceForKey } from '../db/idempotency.ts';
import {
  checkCredentials,
  dailyTotals,
  exportBatch,
  findOrder,
  latestOrders,
  listAdminOrders,
  lockOrder,
  lockStockForDelivery,
  markStockSold,
  orderStatuses,
  orderTotals,
  paymentStatuses,
  presentOrder,
  softDeleteOrder,
  updateOrder,
  type AdminOrderFilter,
  type ExportCursor,
} from '../db/orders.ts';
import type { Database, OrderRow, OrdersTable, StockRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, notFound } from '../errors.ts';
import { expectedVersion, idParam, uuid } from '../lib/schemas.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { requireAdmin, requireStaff, type AppEnv } from '../middleware/session.ts';

const pageSizes = ['10', '25', '50', '100'] as const;
const EXPORT_ROW_CAP = 100_000;
const EXPORT_BATCH = 2_000;
const DAY_MS = 86_400_000;

/** The PWA omits empty filters; a hand-written `?status=` means the same. */
const blankAsMissing = (value: unknown) => (value === '' ? undefined : value);

const filterQuery = z.object({
  status: z.preprocess(blankAsMissing, z.enum(orderStatuses, { error: `must be one of ${orderStatuses.join(', ')}` }).optional()),
  paymentStatus: z.preprocess(blankAsMissing, z.enum(paymentStatuses, { error: `must be one of ${paymentStatuses.join(', ')}` }).optional()),
  search: z.string({ error: 'must be given once' }).max(200, 'must be at most 200 characters').optional(),
});

const listQuery = filterQuery.extend({
  page: z.preprocess(
    blankAsMissing,
    z
      .string({ error: 'must be given once' })
      .regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number of 1 or more')
      .transform(Number)
      .optional(),
  ),
  limit: z.preprocess(blankAsMissing, z.enum(pageSizes, { error: 'must be 10, 25, 50 or 100' }).transform(Number).optional()),
});

/** A proof image uploaded through POST /api/uploads (kind proof), or an external http(s) URL. */
const proofImage = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => value === '' || parseBlobRef(value)?.bucket === 'order-proofs' || isHttpUrl(value), {
    message: 'must be an uploaded proof image (order-proofs/...) or an http(s) URL',
  });

const updateBody = z
  .object({
    orderStatus: z.enum(orderStatuses, { error: `must be one of ${orderStatuses.join(', ')}` }).optional(),
    paymentStatus: z.enum(paymentStatuses, { error: `must be one of ${paymentStatuses.join(', ')}` }).optional(),
    wiseEmail: z.string().trim().max(320, 'must be at most 320 characters').pipe(z.email('must be an email address')).optional(),
    // Kept exactly as typed.
    wisePassword: z
      .string()
      .min(1, 'is required')
      .max(200, 'must be at most 200 characters')
      .refine((value) => value.trim() !== '', 'is required')
      .optional(),
    wiseImage: proofImage.nullish(),
    stockId: uuid.optional(),
    version: expectedVersion,
  })
  .superRefine((body, ctx) => {
    const typed = body.wiseEmail !== undefined || body.wisePassword !== undefined || !!body.wiseImage;
    if (body.stockId && typed) {
      ctx.addIssue({ code: 'custom', path: ['stockId'], message: 'send either stockId or typed credentials, not both' });
    }
    if (typed && !body.stockId) {
      if (body.wiseEmail === undefined) ctx.addIssue({ code: 'custom', path: ['wiseEmail'], message: 'is required with wisePassword' });
      if (body.wisePassword === undefined) ctx.addIssue({ code: 'custom', path: ['wisePassword'], message: 'is required with wiseEmail' });
    }
    if (typed || body.stockId) {
      if (body.paymentStatus !== undefined && body.paymentStatus !== 'paid') {
        ctx.addIssue({ code: 'custom', path: ['paymentStatus'], message: "must be 'paid' when delivering credentials" });
      }
      if (body.orderStatus !== undefined && body.orderStatus !== 'delivered') {
        ctx.addIssue({ code: 'custom', path: ['orderStatus'], message: "must be 'delivered' when delivering credentials" });
      }
    } else if (body.orderStatus === undefined && body.paymentStatus === undefined) {
      ctx.addIssue({ code: 'custom', path: ['orderStatus'], message: 'send orderStatus, paymentStatus or the credentials to deliver' });
    }
  });

const idempotencyHeader = z.object({
  'idempotency-key': z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

const credentialsQuery = z
  .object({
    email: z.preprocess(blankAsMissing, z.string({ error: 'must be given once' }).trim().max(320, 'must be at most 320 characters').optional()),
    password: z.preprocess(blankAsMissing, z.string({ error: 'must be given once' }).max(200, 'must be at most 200 characters').optional()),
    excludeOrderId: z.preprocess(blankAsMissing, uuid.optional()),
  })
  .refine((query) => query.email !== undefined || query.password !== undefined, { path: ['email'], message: 'send an email, a password or both' });

const auditEntities = ['order', 'service', 'user', 'wise_stock', 'settings'] as const;
const auditQuery = z.object({
  entity: z.enum(auditEntities, { error: `must be one of ${auditEntities.join(', ')}` }),
  entityId: z.preprocess(blankAsMissing, z.string({ error: 'must be given once' }).max(200, 'must be at most 200 characters').optional()),
});

const stockUnavailable = () =>
  new ApiError(409, 'stock_unavailable', 'This Wise stock is no longer available; it may just have been delivered. Choose another one.');

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/** One CSV field: quoted when needed, and a leading = + - @ defused so spreadsheets do not run it as a formula. */
function csvField(value: string): string {
  const defused = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}

const csvColumns = ['id', 'orderDate', 'title', 'category', 'price', 'userName', 'userEmail', 'paymentStatus', 'orderStatus', 'wiseEmail'];
const csvRow = (row: OrderRow) =>
  [
    row.id,
    new Date(row.order_date).toISOString(),
    row.title,
    row.category,
    row.price,
    row.user_name,
    row.user_email,
    row.payment_status,
    row.order_status,
    row.wise_email ?? '',
  ]
    .map(csvField)
    .join(',') + '\r\n';

function auditTrail(db: Kysely<Database>, entity: string, entityId: string | undefined) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', '=', entity)
    .$if(entityId !== undefined, (qb) => qb.where('entity_id', '=', entityId!))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();
}

export function adminOrderRoutes(deps: Deps) {
  const asStaff = (row: OrderRow) => presentOrder(row, 'staff', deps.secrets, deps.blobs);

  return new Hono<AppEnv>()
    .get('/orders', requireStaff, validate('query', listQuery), async (c) => {
      const { page = 1, limit = 10, ...filter } = c.req.valid('query');
      const { rows, total, totalIsLowerBound } = await listAdminOrders(deps.db, filter, page, limit);
      const answer: AdminOrderPage = { orders: await Promise.all(rows.map(asStaff)), total, totalIsLowerBound, page, limit };
      return c.json(answer);
    })
    .get('/orders/stats', requireStaff, async (c) => {
      const now = deps.clock();
      const firstDay = Math.floor(now.getTime() / DAY_MS) * DAY_MS - 29 * DAY_MS;
      const [totals, recent, perDay] = await Promise.all([orderTotals(deps.db), latestOrders(deps.db, 5), dailyTotals(deps.db, new Date(firstDay))]);
      const daily = Array.from({ length: 30 }, (_, i) => {
        const date = new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10);
        return { date, orders: perDay.get(date)?.orders ?? 0, revenue: perDay.get(date)?.revenue ?? 0 };
      });
      const stats: OrderStats = { ...totals, recentOrders: await Promise.all(recent.map(asStaff)), daily };
      return c.json(stats);
    })
    .get('/orders/export.csv', requireStaff, validate('query', filterQuery), async (c) => {
      const filter: AdminOrderFilter = c.req.valid('query');
      const encoder = new TextEncoder();
      let cursor: ExportCursor | null = null;
      let sent = 0;
      let started = false;
      // Streamed in keyset batches: a large export never sits in memory whole.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!started) {
            started = true;
            controller.enqueue(encoder.encode(csvColumns.join(',') + '\r\n'));
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
    .get('/orders/:id', requireStaff, validate('param', idParam), async (c) => {
      const row = await findOrder(deps.db, c.req.valid('param').id);
      if (!row) throw notFound('Order');
      return c.json(await asStaff(row));
    })
    .put('/orders/:id', requireStaff, validate('param', idParam), validate('header', idempotencyHeader), validate('json', updateBody), async (c) => {
      const { id } = c.req.valid('param');
      const key = c.req.valid('header')['idempotency-key'];
      const body = c.req.valid('json');
      const me = c.get('user')!;
      const typed = body.wiseEmail !== undefined && body.wisePassword !== undefined ? { email: body.wiseEmail, password: body.wisePassword } : null;
      // Sealed before the transaction, so no encryption runs while rows are locked.
      const typedColumns = typed && {
        wise_email: typed.email,
        wise_email_index: await deps.secrets.blindIndex(typed.email.toLowerCase()),
        wise_password_enc: await deps.secrets.encrypt(typed.password),
        wise_password_index: await deps.secrets.blindIndex(typed.password),
        wise_image: body.wiseImage || null,
        stock_id: null,
      };
      const result = await deps.db
        .transaction()
        .execute((trx) =>
          onceForKey(trx, me.id, key && `PUT /admin/orders/${id} ${key}`, async () => {
            const current = await lockOrder(trx, id);
            if (!current) throw notFound('Order');
            assertVersion(current.version, body.version, 'order');
            const changes: Updateable<OrdersTable> = {};
            if (body.paymentStatus) changes.payment_status = body.paymentStatus;
            if (body.orderStatus) changes.order_status = body.orderStatus;
            let stock: StockRow | undefined;
            if (typedColumns) {
              Object.assign(changes, typedColumns, { payment_status: 'paid', order_status: 'delivered' });
            } else if (body.stockId) {
              stock = await lockStockForDelivery(trx, body.stockId);
              if (!stock || stock.status !== 'available') throw stockUnavailable();
              // The sealed password and its index move as they are: same keys, and the plain text is never needed.
              Object.assign(changes, {
                wise_email: stock.wise_email,
                wise_email_index: await deps.secrets.blindIndex(stock.wise_email.trim().toLowerCase()),
                wise_password_enc: stock.wise_password_enc,
                wise_password_index: stock.wise_password_index,
                wise_image: stock.auth_image || null,
                stock_id: stock.id,
                payment_status: 'paid',
                order_status: 'delivered',
              });
            }
            const version = await nextVersion(trx);
            if (stock) {
              await markStockSold(trx, stock.id, { userId: current.user_id, orderId: id }, version);
              await recordAudit(trx, me, {
                action: 'wise_stock.sold',
                entity: 'wise_stock',
                entityId: stock.id,
                details: { from: stock.status, to: 'sold', soldTo: current.user_id, orderId: id },
              });
            }
            const updated = await updateOrder(trx, id, changes, version);
            const delivered = typedColumns ? 'typed' : stock ? 'stock' : undefined;
            await recordAudit(trx, me, {
              action: delivered ? 'order.deliver' : 'order.update',
              entity: 'order',
              entityId: id,
              details: {
                from: { paymentStatus: current.payment_status, orderStatus: current.order_status },
                to: { paymentStatus: updated.payment_status, orderStatus: updated.order_status },
                ...(delivered && { delivered, wiseEmail: updated.wise_email, stockId: updated.stock_id, proofImage: updated.wise_image !== null }),
              },
            });
            return { status: 200, body: await asStaff(updated) };
          }),
        )
        .catch((error: unknown) => {
          // The unique index on orders.stock_id: another order got this stock after all.
          throw isUniqueViolation(error) ? stockUnavailable() : error;
        });
      return c.json(result.body as Order, result.status as ContentfulStatusCode);
    })
    .delete('/orders/:id', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      await deps.db.transaction().execute(async (trx) => {
        const deleted = await softDeleteOrder(trx, id, await nextVersion(trx));
        if (!deleted) throw notFound('Order');
        await recordAudit(trx, c.get('user'), { action: 'order.delete', entity: 'order', entityId: id });
      });
      return c.body(null, 204);
    })
    .get('/credentials/check', requireStaff, validate('query', credentialsQuery), async (c) => {
      const { email, password, excludeOrderId } = c.req.valid('query');
      const [emailIndex, passwordIndex] = await Promise.all([
        email !== undefined ? deps.secrets.blindIndex(email.toLowerCase()) : undefined,
        password !== undefined ? deps.secrets.blindIndex(password) : undefined,
      ]);
      const answer: CredentialsCheck = await checkCredentials(deps.db, { emailIndex, passwordIndex, excludeOrderId });
      return c.json(answer);
    })
    .get('/audit', requireAdmin, validate('query', auditQuery), async (c) => {
      const { entity, entityId } = c.req.valid('query');
      const rows = await auditTrail(deps.db, entity, entityId);
      const entries: AuditEntry[] = rows.map((row) => ({
        id: row.id,
        actorId: row.actor_id,
        actorEmail: row.actor_email,
        action: row.action,
        entity: row.entity,
        entityId: row.entity_id,
        details: row.details,
        createdAt: new Date(row.created_at).toISOString(),
      }));
      return c.json(entries);
    });
}
