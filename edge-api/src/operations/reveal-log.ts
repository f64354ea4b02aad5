import type { z } from 'zod';
import type { revealBody } from '../contract/order-requests.ts';
import type { Order } from '../contract/orders.ts';
import { recordAudit } from '../db/audit.ts';
import { keyClaimed, KeyReusedError, onceForKey } from '../db/idempotency.ts';
import { orderChangeFields, revealTime } from '../contract/order-changes.ts';
import { findOrderIncludingDeleted, lockOrder, orderBeforeChange, orderChangeColumns, updateOrder } from '../db/orders.ts';
import type { OrderRow, UserRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, forbidden, notFound, RateLimitedError } from '../errors.ts';
import { createFixedWindowLimiter, type RateLimiter } from '../lib/rate-limit.ts';
import { presentOrder } from '../presenters/orders.ts';
import { canonicalJson } from './deliver.ts';
import { rateLimit, rateLimitSettings } from '../lib/rate-limit-settings.ts';

export type RevealInput = z.infer<typeof revealBody>;

/** Reveals a customer may log in 10 minutes (`REVEALS_PER_10_MIN`): a Show every 10 seconds for 10 minutes, no honest use comes near. */
export const REVEALS_PER_10_MIN = rateLimitSettings.revealsPer10Min.default;

/** The per-user limit on logged reveals, counted in the database like every limit (decisions 049, 066). */
export function createRevealLimiter(deps: Deps): RateLimiter {
  const limit = rateLimit(deps.config.rateLimits, 'revealsPer10Min');
  return createFixedWindowLimiter({ db: deps.db, name: 'api.reveals', limit, windowMs: 10 * 60_000, clock: deps.clock });
}

const hasPassword = (row: OrderRow) =>
  row.wise_password_enc !== null && row.payment_status === 'paid' && (row.order_status === 'delivered' || row.order_status === 'completed');

/**
 * POST /api/orders/{id}/reveals (decision 066): the order's owner showed its delivered password. Logged
 * once per idempotency key (an outbox entry sent again records nothing more); the order keeps the count
 * and the first reveal, and the first also goes to the order's history for staff. The stored answer holds
 * no secret: the order is read again after, for its owner.
 */
export async function logReveal(deps: Deps, limiter: RateLimiter, me: UserRow, orderId: string, input: RevealInput, idempotencyKey?: string): Promise<Order> {
  const request = `POST /orders/${orderId}/reveals`;
  // Each reveal adds a row and a version every staff device syncs: past the limit, 429 and nothing written.
  // A replay of a logged one answers as before and is not counted.
  if (!idempotencyKey || !(await keyClaimed(deps.db, me.id, `${request} ${idempotencyKey}`))) {
    const allowed = await limiter.hit(me.id);
    if (!allowed.allowed) throw new RateLimitedError(allowed.retryAfterSeconds);
  }
  const requestHash = idempotencyKey ? await deps.secrets.blindIndex(`${request} ${canonicalJson(input)}`) : undefined;
  await deps.db
    .transaction()
    .execute((trx) =>
      onceForKey(
        trx,
        me.id,
        idempotencyKey && `${request} ${idempotencyKey}`,
        async () => {
          const current = await lockOrder(trx, orderId);
          if (!current) throw notFound('Order');
          if (current.user_id !== me.id) throw forbidden('Only the customer who placed this order can log a view of its password');
          if (!hasPassword(current)) throw new ApiError('not_delivered', 'This order has no delivered password to view.');
          const now = deps.clock();
          // Sent later from an offline device: when it happened there, never ahead of the server or before the delivery (decision 249).
          const change = { kind: 'logReveal' as const, revealedAt: input.revealedAt, deviceLabel: input.deviceLabel };
          const before = orderBeforeChange(current);
          const set = orderChangeColumns(orderChangeFields(before, change, { now }));
          const at = revealTime(input.revealedAt, before, now);
          await trx
            .insertInto('credential_reveals')
            .values({ order_id: orderId, user_id: me.id, device_id: input.deviceId, device_label: input.deviceLabel, revealed_at: at, recorded_at: now })
            .execute();
          const version = await nextVersion(trx);
          await updateOrder(trx, orderId, set, version);
          if (!current.first_revealed_at) {
            await recordAudit(trx, me, {
              action: 'order.first_view',
              entity: 'order',
              entityId: orderId,
              details: { revealedAt: at.toISOString(), deviceLabel: input.deviceLabel, deviceId: input.deviceId },
            });
          }
          return { status: 200, body: { logged: true } };
        },
        requestHash,
      ),
    )
    .catch((error: unknown) => {
      if (error instanceof KeyReusedError) {
        throw new ApiError(
          'idempotency_mismatch',
          'This Idempotency-Key was already used with a different request. Nothing was changed: send a new key for a new change.',
        );
      }
      throw error;
    });
  const row = await findOrderIncludingDeleted(deps.db, orderId);
  if (!row || row.deleted_at) throw notFound('Order');
  return presentOrder(row, 'owner', deps.secrets, deps.blobs);
}
