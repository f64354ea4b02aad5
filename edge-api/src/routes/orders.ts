import { Hono } from 'hono';
import { idempotencyHeader, idParam } from '../contract/fields.ts';
import {
  orderReportBody,
  paymentProofBody,
  placeOrderBody,
  revealBody,
  USER_ORDERS_PAGE_DEFAULT,
  userIdParam,
  userOrdersQuery,
} from '../contract/order-requests.ts';
import { readForwardCursor, writeOrderCursor, type OrderCursor } from '../db/order-cursor.ts';
import { acceptsPaymentProof, isCancellable } from '../contract/orders.ts';
import { parseBlobRef } from '../contract/uploads.ts';
import { asciiFileName, fileContentType } from '../contract/deliveries.ts';
import { recordAudit } from '../db/audit.ts';
import { resolveNotification } from '../db/notifications.ts';
import { notifyPaymentCheck, paymentCheckKey } from '../operations/staff-notices.ts';
import { orderChangeFields } from '../contract/order-changes.ts';
import { findOrder, findProofReuse, listUserOrdersPage, lockOrder, orderBeforeChange, orderChangeColumns, updateOrder } from '../db/orders.ts';
import type { OrderRow } from '../db/schema.ts';
import { placeOrderIn } from '../operations/place-order.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { isStaff, requireRole, type AppEnv } from '../middleware/session.ts';
import { reportProblem } from '../operations/after-sales.ts';
import { createRevealLimiter, logReveal } from '../operations/reveal-log.ts';
import { presentOrder } from '../presenters/orders.ts';
import { gateOpens, ownerSecretGate } from '../lib/secret-gate.ts';

/** A cursor of GET /api/orders/user/{id}: one this API answered in X-Next-Cursor, or a clear 400. */
function readCursor(text: string): OrderCursor {
  const cursor = readForwardCursor(text);
  if (!cursor) throw badRequest('cursor: must be a cursor this API answered', [{ path: 'cursor', message: 'must be a cursor this API answered' }]);
  return cursor;
}

/** A customer's picture must be one they uploaded themselves (issue 30): named under their id by POST /api/uploads. */
function assertOwnUpload(userId: string, field: string, folder: 'payments' | 'reports', value: string | null | undefined) {
  if (value && !value.startsWith(`order-proofs/${folder}/${userId}/`)) {
    const message = 'must be a picture you uploaded: upload it again';
    throw badRequest(`${field}: ${message}`, [{ path: field, message }]);
  }
}

/** Why an order can no longer be cancelled, in words a customer can act on. */
function cancelRefusal(row: OrderRow): string {
  if (row.payment_status === 'paid')
    return 'This order has already been marked paid, so it can no longer be cancelled. Contact the shop if you no longer want it.';
  if (row.payment_status === 'refunded') return 'This order has been refunded and cannot be cancelled.';
  if (row.order_status === 'cancelled') return 'This order was already cancelled by the shop.';
  return `This order is already ${row.order_status === 'pending' ? 'being handled' : row.order_status}, so it can no longer be cancelled. Contact the shop if you no longer want it.`;
}

/** /api/orders: the customer's own orders, from placing one to reading its delivery. */
export function orderRoutes(deps: Deps) {
  return new Hono<AppEnv>().route('/', placement(deps)).route('/', paymentProof(deps)).route('/', ownOrders(deps));
}

/** Placing an order, and cancelling it while it is pending and unpaid. */
function placement(deps: Deps) {
  return new Hono<AppEnv>()
    .post('/', requireRole(), validate('json', placeOrderBody), async (c) => {
      const { id = crypto.randomUUID(), productId, note = '', paymentMethod, couponCode, quantity } = c.req.valid('json');
      const me = c.get('user');
      const result = await deps.db.transaction().execute((trx) => placeOrderIn(trx, deps, me, { id, productId, note, paymentMethod, couponCode, quantity }));
      const order = await presentOrder(result.row, 'owner', deps.secrets, deps.blobs);
      return c.json({ success: true as const, order }, result.created ? 201 : 200);
    })
    .post('/:id/cancel', requireRole(), validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      const me = c.get('user');
      const row = await deps.db.transaction().execute(async (trx) => {
        // Under the order's row lock: a cancel and a staff member's "paid" are never both taken.
        const current = await lockOrder(trx, id);
        if (!current) throw notFound('Order');
        if (current.user_id !== me.id) throw forbidden('You can only cancel your own orders');
        if (current.order_status === 'cancelled' && current.cancelled_at) return current;
        if (
          !isCancellable({
            orderStatus: current.order_status,
            paymentStatus: current.payment_status,
            wiseEmail: current.wise_email ?? undefined,
            deliveryKind: current.delivery_kind ?? undefined,
            deliveredAt: current.delivered_at?.toISOString(),
          })
        ) {
          throw conflict(cancelRefusal(current), { orderStatus: current.order_status, paymentStatus: current.payment_status });
        }
        const version = await nextVersion(trx);
        // The fields it sets are the device's too (decision 249).
        const fields = orderChangeFields(orderBeforeChange(current), { kind: 'cancel' }, { now: deps.clock() });
        const updated = await updateOrder(trx, id, orderChangeColumns(fields), version);
        await resolveNotification(trx, version, paymentCheckKey(id));
        await recordAudit(trx, me, {
          action: 'order.cancel',
          entity: 'order',
          entityId: id,
          details: { by: 'customer', from: { orderStatus: current.order_status }, to: { orderStatus: 'cancelled' } },
        });
        return updated;
      });
      return c.json(await presentOrder(row, 'owner', deps.secrets, deps.blobs));
    });
}

/** The customer's proof of a manual payment: a transaction id and/or a screenshot. */
function paymentProof(deps: Deps) {
  return new Hono<AppEnv>().put('/:id/payment-proof', requireRole(), validate('param', idParam), validate('json', paymentProofBody), async (c) => {
    const { id } = c.req.valid('param');
    const { transactionId = '', screenshot = '' } = c.req.valid('json');
    const me = c.get('user');
    // The screenshot's bytes decide its hash, read before any row is locked.
    let screenshotHash: string | null = null;
    assertOwnUpload(me.id, 'screenshot', 'payments', screenshot);
    if (screenshot) {
      const ref = parseBlobRef(screenshot)!;
      const bytes = await deps.blobs.read(ref.bucket, ref.path);
      if (!bytes) throw badRequest('screenshot: no such upload; upload the picture again', [{ path: 'screenshot', message: 'no such upload' }]);
      screenshotHash = Buffer.from(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes))).toString('hex');
    }
    const row = await deps.db.transaction().execute(async (trx) => {
      const current = await lockOrder(trx, id);
      if (!current) throw notFound('Order');
      if (current.user_id !== me.id) throw forbidden('You can only send a payment proof for your own orders');
      if (!acceptsPaymentProof({ orderStatus: current.order_status, paymentStatus: current.payment_status })) {
        throw conflict(
          current.payment_status === 'paid'
            ? 'This order is already paid: no proof is needed.'
            : `This order is ${current.order_status}: it takes no payment proof.`,
          { orderStatus: current.order_status, paymentStatus: current.payment_status },
        );
      }
      // A second proof adds to the first: a transaction id sent after the screenshot keeps the screenshot.
      const set = orderChangeColumns(orderChangeFields(orderBeforeChange(current), { kind: 'sendPaymentProof', transactionId }, { now: deps.clock() }));
      const reference = set.payment_reference ?? null;
      const proof = screenshot || current.payment_proof;
      const hash = screenshot ? screenshotHash : current.payment_proof_hash;
      const reuse = await findProofReuse(trx, id, { transactionId: reference, screenshotHash: hash });
      const version = await nextVersion(trx);
      const updated = await updateOrder(
        trx,
        id,
        { ...set, payment_proof: proof || null, payment_proof_hash: hash, proof_reuse: JSON.stringify(reuse) },
        version,
      );
      // Staff are told a payment waits for their check, once per order until it is settled.
      await notifyPaymentCheck(trx, version, updated);
      await recordAudit(trx, me, {
        action: 'order.payment_proof',
        entity: 'order',
        entityId: id,
        details: { transactionId: reference || null, screenshot: !!proof, reusedOn: [...new Set([...reuse.transactionId, ...reuse.screenshot])] },
      });
      return updated;
    });
    return c.json(await presentOrder(row, 'owner', deps.secrets, deps.blobs));
  });
}

/** The customer's orders as they read them: the list, a delivered file, the report of a problem, a logged view of the password. */
function ownOrders(deps: Deps) {
  const reveals = createRevealLimiter(deps);
  return new Hono<AppEnv>()
    .get('/user/:userId', requireRole(), validate('param', userIdParam), validate('query', userOrdersQuery), async (c) => {
      const { userId } = c.req.valid('param');
      const { limit = USER_ORDERS_PAGE_DEFAULT, cursor } = c.req.valid('query');
      const me = c.get('user');
      if (me.id !== userId && !isStaff(me)) throw forbidden('You can only read your own orders');
      // Never unbounded (decision 185): one more than asked tells whether another page follows; only the page is decrypted.
      const found = await listUserOrdersPage(deps.db, userId, limit + 1, cursor === undefined ? undefined : readCursor(cursor));
      const page = found.slice(0, limit);
      const last = page.at(-1);
      if (found.length > limit && last) c.header('X-Next-Cursor', writeOrderCursor({ direction: 'after', createdAt: last.cursor_at, id: last.id }));
      const rows: OrderRow[] = page.map(({ cursor_at: _at, ...row }) => row);
      const audience = me.id === userId ? 'owner' : 'staff';
      return c.json(await Promise.all(rows.map((row) => presentOrder(row, audience, deps.secrets, deps.blobs))));
    })
    .post('/:id/report', requireRole(), validate('param', idParam), validate('header', idempotencyHeader), validate('json', orderReportBody), async (c) => {
      const input = c.req.valid('json');
      assertOwnUpload(c.get('user').id, 'image', 'reports', input.image);
      const order = await reportProblem(deps, c.get('user'), c.req.valid('param').id, input, c.req.valid('header')['idempotency-key']);
      c.header('Cache-Control', 'no-store');
      return c.json(order, 200);
    })
    .get('/:id/file', requireRole(), validate('param', idParam), async (c) => {
      // The delivered file (decision 069): its customer once delivered, and staff; nobody through a link.
      const me = c.get('user');
      const row = await findOrder(deps.db, c.req.valid('param').id);
      if (!row) throw notFound('Order');
      if (row.user_id !== me.id && !isStaff(me)) throw forbidden('You can only download the files of your own orders');
      const details = row.delivery_kind === 'file' ? row.delivery_details : null;
      const delivered = row.payment_status === 'paid' && (row.order_status === 'delivered' || row.order_status === 'completed');
      if (!details || details.kind !== 'file' || (row.user_id === me.id && !isStaff(me) && !delivered)) throw notFound('File');
      // An owner with a device vault downloads it only with the vault unlocked (decision 183): a session alone is not enough.
      if (row.user_id === me.id && !gateOpens(await ownerSecretGate(me.id))) {
        throw new ApiError('vault_locked', 'Unlock the vault on your device to download this file');
      }
      const ref = parseBlobRef(details.path);
      const bytes = ref && (await deps.blobs.read(ref.bucket, ref.path));
      if (!bytes) throw notFound('File');
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': fileContentType(details.name),
        'Content-Length': String(bytes.byteLength),
        'Content-Disposition': `attachment; filename="${asciiFileName(details.name)}"; filename*=UTF-8''${encodeURIComponent(details.name)}`,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      });
    })
    .post('/:id/reveals', requireRole(), validate('param', idParam), validate('header', idempotencyHeader), validate('json', revealBody), async (c) => {
      const order = await logReveal(deps, reveals, c.get('user'), c.req.valid('param').id, c.req.valid('json'), c.req.valid('header')['idempotency-key']);
      c.header('Cache-Control', 'no-store');
      return c.json(order, 200);
    });
}
