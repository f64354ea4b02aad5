import type { StockPasswordChange } from '../contract/wise-stocks.ts';
import { hasDuplicate } from '../contract/wise-stocks.ts';
import { recordAudit } from '../db/audit.ts';
import { credentialsKeys, duplicateCheck, findKnownCredentials } from '../db/credentials.ts';
import { updateOrder } from '../db/orders.ts';
import { tellCustomer } from './customer-push.ts';
import type { StoredDelivery, UserRow } from '../db/schema.ts';
import { nextVersion, writeTime } from '../db/versions.ts';
import { lockStock, lockStockAdditions } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { assertVersion } from '../lib/versioning.ts';
import { toWiseStock } from '../presenters/wise-stocks.ts';

/**
 * Rotation in place (decision 064): the stock's password changes, sealed and blind-indexed like any
 * stock password and checked for duplicates the same way; the live order that received this stock takes
 * the new password in the same transaction, keeps the old one (still sealed) in its history, and tells its
 * customer through credentialsRotatedAt.
 */
export async function rotateStockPassword(
  deps: Deps,
  actor: UserRow,
  stockId: string,
  input: { wisePassword: string; overrideDuplicates?: boolean; version?: number },
): Promise<StockPasswordChange> {
  const [sealed, keys] = await Promise.all([deps.secrets.encrypt(input.wisePassword), credentialsKeys(deps.secrets.blindIndex, undefined, input.wisePassword)]);
  const passwordIndex = keys.passwordIndex!;
  const result = await deps.db.transaction().execute(async (trx) => {
    // Takes turns with additions of stock: two changes at once cannot both find the other's password absent.
    await lockStockAdditions(trx);
    const stock = await lockStock(trx, stockId);
    if (!stock) throw notFound('Wise stock');
    assertVersion(stock.version, input.version, 'Wise stock');
    if (stock.wise_password_index === passwordIndex) {
      throw badRequest('wisePassword: this is the password the stock already has', [{ path: 'wisePassword', message: 'is the current password' }]);
    }
    const check = duplicateCheck(await findKnownCredentials(trx, [keys]), keys);
    if (hasDuplicate(check) && !input.overrideDuplicates) {
      throw new ApiError(
        'duplicate_credentials',
        'This password is already in stock or delivered to an order; send overrideDuplicates to use it anyway',
        check,
      );
    }
    const version = await nextVersion(trx);
    const updated = await trx
      .updateTable('wise_stocks')
      .set({ wise_password_enc: sealed, wise_password_index: passwordIndex, version, updated_at: writeTime() })
      .where('id', '=', stockId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'wise_stock.password',
      entity: 'wise_stock',
      entityId: stockId,
      details: { ...(hasDuplicate(check) ? { overrodeDuplicates: check } : {}) },
    });
    const order = await trx.selectFrom('orders').selectAll().where('stock_id', '=', stockId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
    if (order) {
      const now = deps.clock();
      const past: StoredDelivery = {
        at: now.toISOString(),
        kind: 'rotated',
        wiseEmail: order.wise_email ?? stock.wise_email,
        wisePasswordEnc: order.wise_password_enc,
        wiseImage: order.wise_image,
        stockId,
        byEmail: actor.email,
      };
      const rotated = await updateOrder(
        trx,
        order.id,
        {
          wise_password_enc: sealed,
          wise_password_index: passwordIndex,
          delivery_history: JSON.stringify([...order.delivery_history, past]),
          credentials_rotated_at: now,
        },
        version,
      );
      await tellCustomer(trx, order, rotated);
      await recordAudit(trx, actor, { action: 'order.rotate', entity: 'order', entityId: order.id, details: { stockId } });
    }
    return { row: updated, orderId: order?.id ?? null };
  });
  return { stock: await toWiseStock(result.row, deps.secrets, deps.blobs, 'admin'), orderId: result.orderId };
}
