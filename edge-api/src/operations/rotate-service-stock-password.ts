import type { Transaction } from 'kysely';
import type { ServiceStockPasswordChange } from '../contract/service-stock-changes.ts';
import { recordAudit } from '../db/audit.ts';
import { updateOrder } from '../db/orders.ts';
import type { Database, OrderRow, ServiceStockRow, StoredDelivery, UserRow } from '../db/schema.ts';
import { lockServiceStock } from '../db/service-stocks.ts';
import { nextVersion, writeTime } from '../db/versions.ts';
import { lockStockAdditions } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { assertVersion } from '../lib/versioning.ts';
import { toServiceStock } from '../presenters/service-stocks.ts';
import { tellCustomer } from './customer-push.ts';
import { findKnownSecrets } from './other-deliveries.ts';

/** No order has this id: the duplicate check then compares with every order. */
const NO_ORDER = '00000000-0000-0000-0000-000000000000';

const field = (message: string) => [{ path: 'password', message }];

/** The item may take a new password: an account or a server login, not the one it has. */
function assertRotatable(item: ServiceStockRow, passwordIndex: string) {
  if (item.kind === 'lines') {
    const message = 'a list of lines has no password; withdraw the item and add new lines';
    throw badRequest(`password: ${message}`, field(message));
  }
  if (item.secret_indexes[0] === passwordIndex) throw badRequest('password: this is the password the item already has', field('is the current password'));
}

/** 409 duplicate_credentials when the new password is already in stock (of any pool) or delivered to another order, unless overridden. */
async function assertNewPassword(trx: Transaction<Database>, orderId: string | undefined, passwordIndex: string, override: boolean) {
  const { inOrders, inStock } = await findKnownSecrets(trx, orderId ?? NO_ORDER, [passwordIndex]);
  const where = [...(inStock.size > 0 ? ['stock' as const] : []), ...(inOrders.size > 0 ? ['order' as const] : [])];
  if (where.length === 0) return undefined;
  if (!override) {
    throw new ApiError('duplicate_credentials', 'This password is already in stock or delivered to an order; send overrideDuplicates to use it anyway', {
      exactMatch: false,
      emailExists: false,
      passwordExists: true,
      passwordIn: where,
    });
  }
  return where;
}

/** The order's columns that hold the item's password, and its history entry for the password it had. */
function orderRotation(order: OrderRow, item: ServiceStockRow, sealed: string, passwordIndex: string, actor: UserRow, now: Date) {
  const past: StoredDelivery = {
    at: now.toISOString(),
    kind: 'rotated',
    wiseEmail: order.wise_email ?? '',
    wisePasswordEnc: order.wise_password_enc,
    wiseImage: order.wise_image,
    stockId: null,
    serviceStockId: item.id,
    byEmail: actor.email,
    ...(order.delivery_kind && {
      deliveryKind: order.delivery_kind,
      deliveryDetails: order.delivery_details ?? undefined,
      deliverySecretEnc: order.delivery_secret_enc,
    }),
  };
  const columns =
    item.kind === 'account'
      ? { wise_password_enc: sealed, wise_password_index: passwordIndex }
      : { delivery_secret_enc: sealed, delivery_secret_indexes: [passwordIndex] };
  return { ...columns, delivery_history: JSON.stringify([...order.delivery_history, past]), credentials_rotated_at: now };
}

/**
 * Rotation in place for a service's own stock (decision 228, as decision 064 for Wise stock): the item's
 * password changes, sealed and blind-indexed, checked for duplicates against every stock and order; the
 * live order delivered from it takes the new password in the same transaction, keeps the old one (still
 * sealed) in its history, and its customer is told through credentialsRotatedAt (and push).
 */
export async function rotateServiceStockPassword(
  deps: Deps,
  actor: UserRow,
  itemId: string,
  input: { password: string; overrideDuplicates?: boolean; version?: number },
): Promise<ServiceStockPasswordChange> {
  const [sealed, passwordIndex] = await Promise.all([deps.secrets.encrypt(input.password), deps.secrets.blindIndex(input.password)]);
  const result = await deps.db.transaction().execute(async (trx) => {
    // Takes turns with additions of stock: two changes at once cannot both find the other's password absent.
    await lockStockAdditions(trx);
    const item = await lockServiceStock(trx, itemId);
    if (!item) throw notFound('Stock item');
    assertVersion(item.version, input.version, 'stock item');
    assertRotatable(item, passwordIndex);
    const order = await trx
      .selectFrom('orders')
      .selectAll()
      .where('service_stock_id', '=', itemId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    const overrode = await assertNewPassword(trx, order?.id, passwordIndex, input.overrideDuplicates === true);
    const version = await nextVersion(trx);
    const updated = await trx
      .updateTable('service_stocks')
      .set({ secret_enc: sealed, secret_indexes: [passwordIndex], version, updated_at: writeTime() })
      .where('id', '=', itemId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'service_stock.password',
      entity: 'service_stock',
      entityId: itemId,
      details: { serviceId: item.service_id, kind: item.kind, ...(order && { orderId: order.id }), ...(overrode && { overrodeDuplicates: overrode }) },
    });
    if (order) {
      const rotated = await updateOrder(trx, order.id, orderRotation(order, item, sealed, passwordIndex, actor, deps.clock()), version);
      await tellCustomer(trx, order, rotated);
      await recordAudit(trx, actor, { action: 'order.rotate', entity: 'order', entityId: order.id, details: { serviceStockId: itemId } });
    }
    return { row: updated, orderId: order?.id ?? null };
  });
  return { stock: await toServiceStock(result.row, deps.secrets, 'admin'), orderId: result.orderId };
}
