/**
 * The steps of one order change (operations/deliver.ts, changeOrderIn) once the order is locked and the
 * change allowed: the delivery's columns and the stock it claims, a replaced delivery kept, the stock
 * marked sold, what the change closes or queues, and its audit row. All in the change's transaction.
 */
import type { Transaction, Updateable } from 'kysely';
import { orderChangeFields } from '../contract/order-changes.ts';
import { recordAudit } from '../db/audit.ts';
import { orderBeforeChange, orderChangeColumns } from '../db/orders.ts';
import { resolveNotification } from '../db/notifications.ts';
import type { Database, OrderRow, OrdersTable, ServiceStockRow, StockRow, StoredDelivery, UserRow } from '../db/schema.ts';
import { lockServiceStock, markServiceStockFaulty, markServiceStockSold } from '../db/service-stocks.ts';
import { queueOrderEvents } from '../db/webhooks.ts';
import { lockStockForDelivery, markStockFaulty, markStockSold } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest } from '../errors.ts';
import { afterAutomaticDelivery, type AutoDelivery } from './auto-deliver.ts';
import { tellCustomer } from './customer-push.ts';
import type { OrderChange, SealedChange } from './deliver.ts';
import { assertNoDuplicateSecrets, assertServiceKind, noAccountDelivery, noOtherDelivery } from './other-deliveries.ts';
import { queueReceipts } from './receipts.ts';
import { paymentCheckKey, problemReportKey } from './staff-notices.ts';
import { noStockKey } from './stock-watch.ts';

type Actor = Pick<UserRow, 'id' | 'email'>;

/** One order change under way: its transaction, who makes it, the order as locked, and what is asked. */
export interface ChangeInProgress {
  trx: Transaction<Database>;
  deps: Deps;
  actor: Actor;
  orderId: string;
  current: OrderRow;
  change: OrderChange;
}

/** The stock a delivery claimed, if it claimed one. */
export interface Claimed {
  stock?: StockRow;
  serviceStock?: ServiceStockRow;
}

export const stockUnavailable = () =>
  new ApiError('stock_unavailable', 'This Wise stock is no longer available; it may just have been delivered. Choose another one.');

const serviceStockUnavailable = () =>
  new ApiError('stock_unavailable', "This item of the service's stock is no longer available; it may just have been delivered. Choose another one.");

/**
 * A replacement (decision 063): the delivery it replaces goes to the order's history as it was (the
 * password still sealed), the stock it came from is marked faulty so it is never sold again, an open
 * problem report is answered as replaced, and a rotation notice gives way to the new delivery. Runs in
 * the delivery's transaction, under the order's row lock.
 */
export async function keepReplacedDelivery(
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
  // An open problem report is answered as replaced by the delivery's own fields (claimDelivery, decision 249).
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

/**
 * The delivery's columns, set on `changes`: another kind or typed credentials sealed before the
 * transaction, or a Wise stock or an item of the service's own stock, locked here and claimed only while
 * available (chosen by staff, or by the automatic delivery).
 */
export async function claimDelivery(
  { trx, deps, orderId, current, change }: ChangeInProgress,
  { typedColumns, other }: SealedChange,
  auto: AutoDelivery | null,
  changes: Updateable<OrdersTable>,
): Promise<Claimed> {
  // Paid and delivered, and an open report answered when it replaces a delivery, as the device shows it (decision 249).
  const delivered = orderChangeColumns(orderChangeFields(orderBeforeChange(current), { kind: 'deliver' }, { now: deps.clock() }));
  if (other) {
    await assertNoDuplicateSecrets(trx, orderId, other, change.overrideDuplicates === true);
    Object.assign(changes, other.columns, delivered);
  } else if (typedColumns) {
    Object.assign(changes, typedColumns, delivered);
  } else if (change.stockId || auto?.stock) {
    const stock = auto?.stock ?? (await lockStockForDelivery(trx, change.stockId!));
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
      ...delivered,
    });
    return { stock };
  } else if (change.serviceStockId || auto?.serviceStock) {
    // An item of the service's own stock (decision 072), chosen by staff or claimed by the automatic delivery.
    const serviceStock = auto?.serviceStock ?? (await lockServiceStock(trx, change.serviceStockId!));
    if (!serviceStock || serviceStock.status !== 'available') throw serviceStockUnavailable();
    if (serviceStock.service_id !== current.product_id) {
      throw badRequest('serviceStockId: this item is stock of another service', [{ path: 'serviceStockId', message: 'is stock of another service' }]);
    }
    await assertServiceKind(trx, current, serviceStock.kind);
    Object.assign(changes, await serviceStockColumns(deps, serviceStock), delivered);
    return { serviceStock };
  }
  return {};
}

/** The stock a delivery claimed, sold to the order's customer, with its audit row. */
export async function markClaimedSold({ trx, actor, orderId, current }: ChangeInProgress, { stock, serviceStock }: Claimed, version: number) {
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
}

/**
 * What an update tells and closes: the customer's push, the receipts and webhook events it queues, and
 * the staff notices it answers. `deliveredNow`: this change put a delivery on the order.
 */
export async function afterOrderUpdate(
  { trx, deps, orderId, current }: ChangeInProgress,
  { updated, version, auto, deliveredNow }: { updated: OrderRow; version: number; auto: AutoDelivery | null; deliveredNow: boolean },
) {
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
  else if (deliveredNow) await resolveNotification(trx, version, noStockKey(orderId));
}

/** The change's audit row: an update, or a delivery (typed, from stock, or automatic) and what it replaced. */
export async function auditOrderChange(
  { trx, actor, orderId, current, change }: ChangeInProgress,
  {
    updated,
    other,
    serviceStock,
    delivered,
    replacing,
  }: {
    updated: OrderRow;
    other: SealedChange['other'];
    serviceStock: ServiceStockRow | undefined;
    delivered: 'typed' | 'auto' | 'stock' | undefined;
    replacing: boolean;
  },
) {
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
}
