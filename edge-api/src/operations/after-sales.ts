import type { z } from 'zod';
import type { orderReportBody } from '../contract/order-requests.ts';
import { reportReasonLabels, type Order } from '../contract/orders.ts';
import { recordAudit } from '../db/audit.ts';
import { KeyReusedError, onceForKey, type StoredAnswer } from '../db/idempotency.ts';
import { orderChangeFields } from '../contract/order-changes.ts';
import { findOrderIncludingDeleted, lockOrder, orderBeforeChange, orderChangeColumns, updateOrder } from '../db/orders.ts';
import type { OrderRow, UserRow } from '../db/schema.ts';
import { resolveNotification } from '../db/notifications.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, forbidden, notFound } from '../errors.ts';
import { presentOrder } from '../presenters/orders.ts';
import { tellCustomer } from './customer-push.ts';
import { canonicalJson } from './deliver.ts';
import { notifyProblemReport, problemReportKey } from './staff-notices.ts';

export type OrderReportInput = z.infer<typeof orderReportBody>;

const day = (at: Date) => at.toISOString().slice(0, 10);

/** Decision 044: the same key with another body answers 422 and changes nothing. */
const keyReused = (error: unknown) => {
  if (error instanceof KeyReusedError) {
    throw new ApiError(
      'idempotency_mismatch',
      'This Idempotency-Key was already used with a different request. Nothing was changed: send a new key for a new change.',
    );
  }
  throw error;
};

/** A keyed hash of the request a key stands for (bodies hold no password here, but one way for all). */
const hashOf = (deps: Deps, request: string, body: unknown, key?: string) =>
  key ? deps.secrets.blindIndex(`${request} ${canonicalJson(body)}`) : Promise.resolve(undefined);

const isDelivered = (row: OrderRow) =>
  (row.wise_email !== null || row.delivery_kind !== null) &&
  row.payment_status === 'paid' &&
  (row.order_status === 'delivered' || row.order_status === 'completed');

/**
 * Why this order cannot take a problem report now, or null when it can (decision 063): it must be
 * delivered, under a warranty that has not ended, with no report already waiting for staff.
 */
export function reportRefusal(row: OrderRow, now: Date): ApiError | null {
  if (!isDelivered(row)) return new ApiError('not_delivered', 'Only a delivered order can be reported. This order has not been delivered yet.');
  if (row.report_status === 'open') {
    return new ApiError('report_open', 'A problem with this order is already reported. Our team is looking at it; you will see the outcome on this order.');
  }
  if (!row.warranty_ends_at) return new ApiError('no_warranty', 'This service has no warranty, so problems cannot be reported here. Please contact support.');
  const ends = new Date(row.warranty_ends_at);
  if (now.getTime() > ends.getTime()) {
    return new ApiError(
      'warranty_expired',
      `The warranty of this order ended on ${day(ends)}. Problems can only be reported within the warranty. Please contact support.`,
      {
        warrantyEndsAt: ends.toISOString(),
      },
    );
  }
  return null;
}

/**
 * POST /api/orders/{id}/report: the customer's report, once per idempotency key (an outbox entry replays).
 * The order is delivered, so its owner's view holds the password: the stored answer holds none (the
 * idempotency table is plain JSON), and the order is read again after, as it is now, for its owner.
 */
export async function reportProblem(deps: Deps, me: UserRow, orderId: string, input: OrderReportInput, idempotencyKey?: string): Promise<Order> {
  const requestHash = await hashOf(deps, `POST /orders/${orderId}/report`, input, idempotencyKey);
  await deps.db
    .transaction()
    .execute((trx) =>
      onceForKey(
        trx,
        me.id,
        idempotencyKey && `POST /orders/${orderId}/report ${idempotencyKey}`,
        async () => {
          const current = await lockOrder(trx, orderId);
          if (!current) throw notFound('Order');
          if (current.user_id !== me.id) throw forbidden('You can only report a problem with your own orders');
          const refusal = reportRefusal(current, deps.clock());
          if (refusal) throw refusal;
          const version = await nextVersion(trx);
          const updated = await updateOrder(
            trx,
            orderId,
            {
              // The report as the device shows it (decision 249), and its picture.
              ...orderChangeColumns(
                orderChangeFields(orderBeforeChange(current), { kind: 'reportProblem', reason: input.reason, note: input.note }, { now: deps.clock() }),
              ),
              report_image: input.image || null,
            },
            version,
          );
          await notifyProblemReport(trx, version, updated, reportReasonLabels[input.reason]);
          await recordAudit(trx, me, {
            action: 'order.report',
            entity: 'order',
            entityId: orderId,
            details: { reason: input.reason, reasonLabel: reportReasonLabels[input.reason], screenshot: !!input.image },
          });
          return { status: 200, body: { reported: true } };
        },
        requestHash,
      ),
    )
    .catch(keyReused);
  const row = await findOrderIncludingDeleted(deps.db, orderId);
  if (!row || row.deleted_at || row.user_id !== me.id) throw notFound('Order');
  return presentOrder(row, 'owner', deps.secrets, deps.blobs);
}

/** POST /api/admin/orders/{id}/report/decline: staff answer an open report without replacing the delivery. */
export async function declineReport(deps: Deps, actor: UserRow, orderId: string, message: string, idempotencyKey?: string): Promise<StoredAnswer<Order, 200>> {
  const requestHash = await hashOf(deps, `POST /admin/orders/${orderId}/report/decline`, { message }, idempotencyKey);
  const answer = await deps.db
    .transaction()
    .execute((trx) =>
      onceForKey(
        trx,
        actor.id,
        idempotencyKey && `POST /admin/orders/${orderId}/report/decline ${idempotencyKey}`,
        async () => {
          const current = await lockOrder(trx, orderId);
          if (!current) throw notFound('Order');
          if (current.report_status !== 'open') {
            throw new ApiError('no_open_report', 'This order has no problem report waiting for an answer; it may just have been answered by someone else.');
          }
          const version = await nextVersion(trx);
          const fields = orderChangeFields(orderBeforeChange(current), { kind: 'declineReport', message }, { now: deps.clock() });
          const updated = await updateOrder(trx, orderId, orderChangeColumns(fields), version);
          await tellCustomer(trx, current, updated);
          await resolveNotification(trx, version, problemReportKey(orderId));
          await recordAudit(trx, actor, { action: 'order.report_decline', entity: 'order', entityId: orderId, details: { reason: current.report_reason } });
          return { status: 200, body: await presentOrder(updated, 'staff', deps.secrets, deps.blobs) };
        },
        requestHash,
      ),
    )
    .catch(keyReused);
  return answer;
}
