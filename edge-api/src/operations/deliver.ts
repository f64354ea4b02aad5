import type { Transaction, Updateable } from 'kysely';
import type { z } from 'zod';
import type { orderChangeBody } from '../contract/order-requests.ts';
import type { Order } from '../contract/orders.ts';
import { KeyReusedError, onceForKey, type StoredAnswer } from '../db/idempotency.ts';
import { orderChangeFields } from '../contract/order-changes.ts';
import { lockOrder, orderBeforeChange, orderChangeColumns, updateOrder } from '../db/orders.ts';
import type { Database, OrderRow, OrdersTable, UserRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, notFound } from '../errors.ts';
import { assertVersion } from '../lib/versioning.ts';
import { presentOrder } from '../presenters/orders.ts';
import { automaticDelivery } from './auto-deliver.ts';
import {
  afterOrderUpdate,
  auditOrderChange,
  type ChangeInProgress,
  claimDelivery,
  keepReplacedDelivery,
  markClaimedSold,
  stockUnavailable,
} from './deliver-steps.ts';
import { watchStockLevel } from './stock-watch.ts';
import { assertServiceKind, hasDelivery, noOtherDelivery, sealOtherDelivery } from './other-deliveries.ts';

/** What PUT /api/admin/orders/{id} asks for: statuses, or a delivery of typed credentials or of a stock. */
export type OrderChange = z.infer<typeof orderChangeBody>;

const alreadyDelivered = () =>
  new ApiError(
    'already_delivered',
    'This order has already been delivered. Its credentials stay as they are; to replace them, send the delivery again with "replace": true.',
  );

const fieldLabels = { orderStatus: 'order status', paymentStatus: 'payment status' } as const;

/**
 * Field-level merge (decision 043): each field the change sets must still hold the value the change was
 * made from, or already the value it sets. Someone else's change to another field is no conflict; a
 * change to the same field is, and the answer names both values.
 */
function assertFieldsUnchanged(current: OrderRow, change: OrderChange, base: NonNullable<OrderChange['base']>) {
  const now = { orderStatus: current.order_status, paymentStatus: current.payment_status };
  for (const field of ['orderStatus', 'paymentStatus'] as const) {
    const yours = change[field];
    const from = base[field];
    if (yours === undefined || from === undefined) continue;
    const theirs = now[field];
    if (theirs !== from && theirs !== yours) {
      throw new ApiError(
        'conflict',
        `Someone else changed the ${fieldLabels[field]} of this order from "${from}" to "${theirs}" meanwhile; your change sets it to "${yours}". Choose which one to keep.`,
        { field, from, yours, theirs, currentVersion: Number(current.version) },
      );
    }
  }
}

/** JSON with object keys sorted, so one request always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/** The idempotency key of an order change, as stored: a key is one user's, for one order. */
export const orderChangeKey = (orderId: string, idempotencyKey: string) => `PUT /admin/orders/${orderId} ${idempotencyKey}`;

/**
 * Changes an order's statuses, or delivers it, in one transaction with its audit rows and (under an
 * idempotency key) its stored answer: all of it or none of it.
 *
 * A delivery makes the order paid and delivered and puts the credentials on it: typed ones, sealed
 * before the transaction so no encryption runs while rows are locked; or an inventory account, claimed
 * under a row lock only while 'available', sold to the order's customer, its sealed password moved as it
 * is. Two staff delivering one stock at once: the second finds it sold (or trips the unique index on
 * orders.stock_id) and gets stock_unavailable, and its order stays as it was. An order that already
 * carries credentials is delivered again only with `replace: true` (already_delivered otherwise, decision
 * 041); the replaced delivery is kept in the order's history and its stock is marked faulty (decision 063),
 * and the audit row names it.
 */
export async function changeOrder(
  deps: Deps,
  actor: UserRow,
  orderId: string,
  change: OrderChange,
  idempotencyKey?: string,
): Promise<StoredAnswer<Order, 200>> {
  const sealed = await sealOrderChange(deps, change);
  // The request a key stands for, as a keyed hash (the body may hold a password): fields in a fixed order.
  const requestHash = idempotencyKey ? await deps.secrets.blindIndex(`PUT /admin/orders/${orderId} ${canonicalJson(change)}`) : undefined;
  const result = await deps.db
    .transaction()
    .execute((trx) =>
      onceForKey(
        trx,
        actor.id,
        idempotencyKey && orderChangeKey(orderId, idempotencyKey),
        async () => ({
          status: 200,
          body: await presentOrder(await changeOrderIn(trx, deps, actor, orderId, change, sealed), 'staff', deps.secrets, deps.blobs),
        }),
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
      // The unique index on orders.stock_id (or service_stock_id): another order got this stock after all.
      throw isUniqueViolation(error) ? stockUnavailable() : error;
    });
  return result;
}

/** Typed credentials and other deliveries of a change, sealed before its transaction so no encryption runs while rows are locked. */
export type SealedChange = Awaited<ReturnType<typeof sealOrderChange>>;

export async function sealOrderChange(deps: Deps, change: OrderChange) {
  const typed = change.wiseEmail !== undefined && change.wisePassword !== undefined ? { email: change.wiseEmail, password: change.wisePassword } : null;
  const typedColumns = typed && {
    wise_email: typed.email,
    wise_email_index: await deps.secrets.blindIndex(typed.email.toLowerCase()),
    wise_password_enc: await deps.secrets.encrypt(typed.password),
    wise_password_index: await deps.secrets.blindIndex(typed.password),
    wise_image: change.wiseImage || null,
    stock_id: null,
    service_stock_id: null,
    ...noOtherDelivery,
  };
  // A server login, lines or a file (decision 069), sealed here too.
  const other = await sealOtherDelivery(deps, change);
  return { typedColumns, other };
}

/**
 * The change itself, in the caller's transaction: staff's PUT through changeOrder, and a payment a rail
 * confirmed (payments/settle.ts, decision 202), which marks the order paid and delivers it exactly as
 * staff marking it paid does. `extra` columns (the payment session) are written with the same version.
 */
export async function changeOrderIn(
  trx: Transaction<Database>,
  deps: Deps,
  actor: Pick<UserRow, 'id' | 'email'>,
  orderId: string,
  change: OrderChange,
  { typedColumns, other }: SealedChange = { typedColumns: null, other: null },
  extra: Updateable<OrdersTable> = {},
): Promise<OrderRow> {
  const current = await lockOrder(trx, orderId);
  if (!current) throw notFound('Order');
  const manual = typedColumns !== null || change.stockId !== undefined || change.serviceStockId !== undefined || other !== null;
  assertChangeAllowed(current, actor, change, manual);
  const step: ChangeInProgress = { trx, deps, actor, orderId, current, change };
  const changes: Updateable<OrdersTable> = { ...extra };
  // The statuses as the device shows them (decision 249).
  const before = orderBeforeChange(current);
  const clock = { now: deps.clock() };
  if (change.paymentStatus)
    Object.assign(changes, orderChangeColumns(orderChangeFields(before, { kind: 'setPaymentStatus', paymentStatus: change.paymentStatus }, clock)));
  if (change.orderStatus)
    Object.assign(changes, orderChangeColumns(orderChangeFields(before, { kind: 'setOrderStatus', orderStatus: change.orderStatus }, clock)));
  // Marked paid, for a service that delivers by itself: the oldest free stock, in this transaction (decision 061).
  const auto = manual ? null : await automaticDelivery(trx, current, change);
  if (manual && !change.serviceStockId) await assertServiceKind(trx, current, other?.kind ?? 'account');
  const { stock, serviceStock } = await claimDelivery(step, { typedColumns, other }, auto, changes);
  const version = await nextVersion(trx);
  const replacing =
    (typedColumns !== null || stock !== undefined || serviceStock !== undefined || other !== null) &&
    (current.wise_email !== null || current.delivery_kind !== null);
  if (replacing) await keepReplacedDelivery(trx, actor, current, changes, version, deps.clock());
  await markClaimedSold(step, { stock, serviceStock }, version);
  const updated = await updateOrder(trx, orderId, changes, version);
  await afterOrderUpdate(step, { updated, version, auto, deliveredNow: Boolean(typedColumns || stock || serviceStock || other) });
  if (stock || serviceStock) await watchStockLevel(trx, version);
  const delivered = typedColumns || other ? 'typed' : auto?.stock || auto?.serviceStock ? 'auto' : stock || serviceStock ? 'stock' : undefined;
  await auditOrderChange(step, { updated, other, serviceStock, delivered, replacing });
  return updated;
}

/**
 * What must hold before anything is changed, checked under the order's row lock: someone else changes a
 * staff member's own order, a delivered order is delivered again only as a replacement, a cancelled
 * order is not marked paid behind the customer's back, and the change was made from what is there now.
 */
function assertChangeAllowed(current: OrderRow, actor: Pick<UserRow, 'id'>, change: OrderChange, manual: boolean) {
  // Separation of duties (issue 30): a staff member's own order is changed by someone else, whatever the change.
  if (current.user_id === actor.id) {
    throw new ApiError('own_account', 'You cannot change your own order: another staff member must do it');
  }
  const paysOrDelivers = change.paymentStatus === 'paid' || change.orderStatus === 'delivered' || manual;
  // Checked under the order's row lock, before any stock is touched: of concurrent deliveries to one
  // order exactly one lands, and the stocks of the others stay available. Holds without `version`.
  if (manual && hasDelivery(current) && change.replace !== true) {
    throw alreadyDelivered();
  }
  // The customer cancelled it meanwhile (issue 17): marking it paid would surprise both; say so instead.
  if (paysOrDelivers && current.cancelled_at !== null && current.order_status === 'cancelled' && change.base?.orderStatus !== 'cancelled') {
    throw new ApiError(
      'conflict',
      'The customer cancelled this order, so it was not marked paid or delivered. If the payment did arrive, set the order status back first.',
      { field: 'orderStatus', theirs: 'cancelled', currentVersion: Number(current.version) },
    );
  }
  if (change.base) assertFieldsUnchanged(current, change, change.base);
  else assertVersion(current.version, change.version, 'order');
}
