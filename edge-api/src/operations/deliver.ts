import type { Transaction, Updateable } from 'kysely';
import type { z } from 'zod';
import type { orderChangeBody } from '../contract/order-requests.ts';
import type { Order } from '../contract/orders.ts';
import { recordAudit } from '../db/audit.ts';
import { resolveNotification } from '../db/notifications.ts';
import { KeyReusedError, onceForKey, type StoredAnswer } from '../db/idempotency.ts';
import { lockOrder, updateOrder } from '../db/orders.ts';
import { queueOrderEvents } from '../db/webhooks.ts';
import type { Database, OrderRow, OrdersTable, ServiceStockRow, StockRow, StoredDelivery, UserRow } from '../db/schema.ts';
import { lockServiceStock, markServiceStockFaulty, markServiceStockSold } from '../db/service-stocks.ts';
import { nextVersion } from '../db/versions.ts';
import { lockStockForDelivery, markStockFaulty, markStockSold } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { assertVersion } from '../lib/versioning.ts';
import { presentOrder } from '../presenters/orders.ts';
import { automaticDelivery, afterAutomaticDelivery } from './auto-deliver.ts';
import { tellCustomer } from './customer-push.ts';
import { queueReceipts } from './receipts.ts';
import { paymentCheckKey, problemReportKey } from './staff-notices.ts';
import { noStockKey, watchStockLevel } from './stock-watch.ts';
import { assertNoDuplicateSecrets, assertServiceKind, hasDelivery, noAccountDelivery, noOtherDelivery, sealOtherDelivery } from './other-deliveries.ts';

/** What PUT /api/admin/orders/{id} asks for: statuses, or a delivery of typed credentials or of a stock. */
export type OrderChange = z.infer<typeof orderChangeBody>;

const stockUnavailable = () =>
  new ApiError('stock_unavailable', 'This Wise stock is no longer available; it may just have been delivered. Choose another one.');

const serviceStockUnavailable = () =>
  new ApiError('stock_unavailable', "This item of the service's stock is no longer available; it may just have been delivered. Choose another one.");

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

/**
 * A replacement (decision 063): the delivery it replaces goes to the order's history as it was (the
 * password still sealed), the stock it came from is marked faulty so it is never sold again, an open
 * problem report is answered as replaced, and a rotation notice gives way to the new delivery. Runs in
 * the delivery's transaction, under the order's row lock.
 */
async function keepReplacedDelivery(
  trx: Transaction<Database>,
  actor: Pick<UserRow, 'id' | 'email'>,
  current: OrderRow,
  changes: Updateable<OrdersTable>,
  version: number,
  now: Date,
) {
  const past: StoredDelivery = {
    at: now.toISOString(),
    kind: 'replaced',
    wiseEmail: current.wise_email ?? '',
    wisePasswordEnc: current.wise_password_enc,
    wiseImage: current.wise_image,
    stockId: current.stock_id,
    ...(current.service_stock_id && { serviceStockId: current.service_stock_id }),
    byEmail: actor.email,
    // Another kind (decision 069): what may be shown of it, and its secret still sealed.
    ...(current.delivery_kind && {
      deliveryKind: current.delivery_kind,
      deliveryDetails: current.delivery_details ?? undefined,
      deliverySecretEnc: current.delivery_secret_enc,
    }),
  };
  changes.delivery_history = JSON.stringify([...current.delivery_history, past]);
  changes.credentials_rotated_at = null;
  if (current.report_status === 'open') {
    changes.report_status = 'replaced';
    changes.report_resolved_at = now;
    changes.report_reply = '';
  }
  const note = `Replaced as faulty on order ${current.id} on ${now.toISOString().slice(0, 10)}.`;
  const sources = [
    { entity: 'wise_stock', id: current.stock_id, markFaulty: markStockFaulty },
    { entity: 'service_stock', id: current.service_stock_id, markFaulty: markServiceStockFaulty },
  ] as const;
  for (const { entity, id, markFaulty } of sources) {
    if (!id) continue;
    const faulty = await markFaulty(trx, id, note, version);
    if (faulty) {
      await recordAudit(trx, actor, { action: `${entity}.faulty`, entity, entityId: id, details: { from: faulty.from, to: 'disabled', orderId: current.id } });
    }
  }
}

/**
 * The order's columns for an item of a service's own stock (decision 072): an account goes to the Wise
 * columns, a server login or lines to the other kind's; the sealed secret and its indexes move as they are.
 */
async function serviceStockColumns(deps: Deps, item: ServiceStockRow): Promise<Updateable<OrdersTable>> {
  const details = item.details;
  if (details.kind === 'account') {
    return {
      wise_email: details.email,
      wise_email_index: await deps.secrets.blindIndex(details.email.trim().toLowerCase()),
      wise_password_enc: item.secret_enc,
      wise_password_index: item.secret_indexes[0] ?? null,
      wise_image: null,
      stock_id: null,
      service_stock_id: item.id,
      ...noOtherDelivery,
    };
  }
  return {
    delivery_kind: details.kind,
    delivery_details: JSON.stringify(details),
    delivery_secret_enc: item.secret_enc,
    delivery_secret_indexes: item.secret_indexes,
    ...noAccountDelivery,
    service_stock_id: item.id,
  };
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
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
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
  // Separation of duties (issue 30): a staff member's own order is changed by someone else, whatever the change.
  if (current.user_id === actor.id) {
    throw new ApiError('own_account', 'You cannot change your own order: another staff member must do it');
  }
  const manual = typedColumns !== null || change.stockId !== undefined || change.serviceStockId !== undefined || other !== null;
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
  const changes: Updateable<OrdersTable> = { ...extra };
  if (change.paymentStatus) changes.payment_status = change.paymentStatus;
  if (change.orderStatus) changes.order_status = change.orderStatus;
  let stock: StockRow | undefined;
  let serviceStock: ServiceStockRow | undefined;
  // Marked paid, for a service that delivers by itself: the oldest free stock, in this transaction (decision 061).
  const auto = manual ? null : await automaticDelivery(trx, current, change);
  if (manual && !change.serviceStockId) await assertServiceKind(trx, current, other?.kind ?? 'account');
  if (other) {
    await assertNoDuplicateSecrets(trx, orderId, other, change.overrideDuplicates === true);
    Object.assign(changes, other.columns, { payment_status: 'paid', order_status: 'delivered' });
  } else if (typedColumns) {
    Object.assign(changes, typedColumns, { payment_status: 'paid', order_status: 'delivered' });
  } else if (change.stockId || auto?.stock) {
    stock = auto?.stock ?? (await lockStockForDelivery(trx, change.stockId!));
    if (!stock || stock.status !== 'available') throw stockUnavailable();
    // The sealed password and its index move as they are: same keys, and the plain text is never needed.
    Object.assign(changes, {
      wise_email: stock.wise_email,
      wise_email_index: await deps.secrets.blindIndex(stock.wise_email.trim().toLowerCase()),
      wise_password_enc: stock.wise_password_enc,
      wise_password_index: stock.wise_password_index,
      wise_image: stock.auth_image || null,
      stock_id: stock.id,
      service_stock_id: null,
      ...noOtherDelivery,
      payment_status: 'paid',
      order_status: 'delivered',
    });
  } else if (change.serviceStockId || auto?.serviceStock) {
    // An item of the service's own stock (decision 072), chosen by staff or claimed by the automatic delivery.
    serviceStock = auto?.serviceStock ?? (await lockServiceStock(trx, change.serviceStockId!));
    if (!serviceStock || serviceStock.status !== 'available') throw serviceStockUnavailable();
    if (serviceStock.service_id !== current.product_id) {
      throw badRequest('serviceStockId: this item is stock of another service', [{ path: 'serviceStockId', message: 'is stock of another service' }]);
    }
    await assertServiceKind(trx, current, serviceStock.kind);
    Object.assign(changes, await serviceStockColumns(deps, serviceStock), { payment_status: 'paid', order_status: 'delivered' });
  }
  const version = await nextVersion(trx);
  const replacing =
    (typedColumns !== null || stock !== undefined || serviceStock !== undefined || other !== null) &&
    (current.wise_email !== null || current.delivery_kind !== null);
  if (replacing) await keepReplacedDelivery(trx, actor, current, changes, version, deps.clock());
  const sold = [
    { entity: 'wise_stock', item: stock, markSold: markStockSold, auditDetails: {} },
    { entity: 'service_stock', item: serviceStock, markSold: markServiceStockSold, auditDetails: { serviceId: serviceStock?.service_id } },
  ] as const;
  for (const { entity, item, markSold, auditDetails } of sold) {
    if (!item) continue;
    await markSold(trx, item.id, { userId: current.user_id, orderId }, version);
    await recordAudit(trx, actor, {
      action: `${entity}.sold`,
      entity,
      entityId: item.id,
      details: { from: item.status, to: 'sold', soldTo: current.user_id, orderId, ...auditDetails },
    });
  }
  const updated = await updateOrder(trx, orderId, changes, version);
  await tellCustomer(trx, current, updated);
  // A receipt when it is paid and when it is delivered, sent once this commits (issue 26, item 5).
  await queueReceipts(trx, deps, current, updated);
  // Order events for the account's webhook endpoints (issue 27, decision 174), in this transaction.
  await queueOrderEvents(trx, current, updated);
  // A payment staff settle in this update, or an answered problem report, closes what staff were told
  // about it (a proof may come in for a failed payment too, so the check is on the change).
  if (updated.payment_status !== current.payment_status && updated.payment_status !== 'pending')
    await resolveNotification(trx, version, paymentCheckKey(orderId));
  if (current.report_status === 'open' && updated.report_status !== 'open') await resolveNotification(trx, version, problemReportKey(orderId));
  if (auto) await afterAutomaticDelivery(trx, version, updated, auto);
  else if (typedColumns || stock || serviceStock || other) await resolveNotification(trx, version, noStockKey(orderId));
  if (stock || serviceStock) await watchStockLevel(trx, version);
  const delivered = typedColumns || other ? 'typed' : auto?.stock || auto?.serviceStock ? 'auto' : stock || serviceStock ? 'stock' : undefined;
  await recordAudit(trx, actor, {
    action: delivered ? 'order.deliver' : 'order.update',
    entity: 'order',
    entityId: orderId,
    details: {
      from: { paymentStatus: current.payment_status, orderStatus: current.order_status },
      to: { paymentStatus: updated.payment_status, orderStatus: updated.order_status },
      ...(delivered && !other && { delivered, wiseEmail: updated.wise_email, stockId: updated.stock_id, proofImage: updated.wise_image !== null }),
      ...(serviceStock && { serviceStockId: serviceStock.id, ...(updated.delivery_kind && { deliveryKind: updated.delivery_kind }) }),
      ...(other && { delivered, deliveryKind: other.kind, ...other.audit, ...(change.overrideDuplicates && { overrideDuplicates: true }) }),
      ...(delivered &&
        replacing && {
          replaced: current.delivery_kind ? { deliveryKind: current.delivery_kind } : { wiseEmail: current.wise_email, stockId: current.stock_id },
        }),
    },
  });
  return updated;
}
