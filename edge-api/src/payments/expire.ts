import { sql } from 'kysely';
import { lockOrder } from '../db/orders.ts';
import type { Deps } from '../deps.ts';
import { changeOrderIn } from '../operations/deliver.ts';
import { closeBinanceOrder } from './binance-pay.ts';
import { RailError } from './rail-http.ts';
import { loadRail } from './rail-store.ts';
import { sessionOf } from './session.ts';
import { PAYMENTS_ACTOR } from './settle.ts';

/**
 * Ends the payments whose window passed unpaid (decision 203): the intent expires and its order is
 * cancelled with its payment failed (the customer is told), unless a payment proof waits for staff;
 * Binance Pay's order is closed so it cannot be paid later. A payment that still arrives is held as late.
 * Callers ask the rails one last time first (the round does). Answers how many expired.
 */
export async function expireOverdue(deps: Deps): Promise<number> {
  const overdue = await deps.db
    .selectFrom('payment_intents')
    .select(['id', 'order_id'])
    .where('status', '=', 'open')
    .where('expires_at', '<', deps.clock())
    .orderBy('expires_at')
    .limit(500)
    .execute();
  let expired = 0;
  const toClose: string[] = [];
  for (const { id, order_id } of overdue) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, order_id);
      const intent = await trx.selectFrom('payment_intents').selectAll().where('id', '=', id).where('status', '=', 'open').forUpdate().executeTakeFirst();
      if (!intent) return false;
      await trx
        .updateTable('payment_intents')
        .set({ status: 'expired', closed_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      if (intent.rail === 'binance_pay' && intent.reference) toClose.push(intent.reference);
      if (!order || (order.payment_status !== 'pending' && order.payment_status !== 'failed')) return true;
      const session = JSON.stringify(sessionOf(intent, 'expired'));
      const waitsForStaff = order.proof_at !== null || (order.order_status !== 'pending' && order.order_status !== 'processing');
      const change = waitsForStaff ? {} : ({ orderStatus: 'cancelled', paymentStatus: 'failed' } as const);
      await changeOrderIn(trx, deps, PAYMENTS_ACTOR, order.id, change, undefined, { payment_session: session });
      return true;
    });
    if (done) expired += 1;
  }
  if (toClose.length > 0) await closeAtBinance(deps, toClose);
  return expired;
}

async function closeAtBinance(deps: Deps, prepayIds: string[]) {
  const rail = await loadRail(deps.db, deps.secrets, 'binance_pay');
  if (!rail?.secrets.apiKey || !rail.secrets.secretKey) return;
  const account = { apiUrl: deps.config.payments!.binancePayApiUrl, apiKey: rail.secrets.apiKey, secretKey: rail.secrets.secretKey };
  for (const prepayId of prepayIds) {
    try {
      await closeBinanceOrder(account, prepayId);
    } catch (error) {
      if (!(error instanceof RailError)) throw error;
      deps.logger.warn('payments: Binance Pay did not close an expired order', { prepayId, error: error.message });
    }
  }
}
