import { sql, type Transaction } from 'kysely';
import type { PaymentOutcome, PaymentRail } from '../contract/payments.ts';
import { recordAudit } from '../db/audit.ts';
import { lockOrder, updateOrder } from '../db/orders.ts';
import type { PaymentIntentRow } from '../db/payment-schema.ts';
import type { Database, OrderRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { changeOrderIn } from '../operations/deliver.ts';
import { hasDelivery } from '../operations/other-deliveries.ts';
import { formatMicro, toMicro } from './money.ts';
import { notifyPaymentProblem, notifyRefund } from './notices.ts';
import { sessionOf, stateForOutcome } from './session.ts';

/** Who a rail's confirmation acts as in the audit log and the order's history: no person. */
export const PAYMENTS_ACTOR = { id: '00000000-0000-0000-0000-000000000000', email: 'payment rail' } as const;

/** One fact a rail told us: a transfer, a webhook, a callback or a query's answer. */
export interface InboundEvent {
  rail: PaymentRail;
  /** Its own id, the same however it reaches us (a webhook and a query of one payment share it). */
  key: string;
  kind: 'payment' | 'refund' | 'closed';
  reference: string;
  amount?: bigint;
  currency?: string;
  /** Which intent it is about: by the rail's id of it, or (USDT) by the address and amount received. */
  match: { reference: string } | { transfer: { payTo: string; amount: bigint; atMs: number } };
  details?: Record<string, unknown>;
}

export type SettleResult = { outcome: PaymentOutcome | 'duplicate'; orderId?: string };

/**
 * Applies one inbound event exactly once (decision 202): recorded by its key first, in the transaction
 * that acts on it, so a replay, a second webhook or the query that finds the same payment changes
 * nothing more (it is counted and logged). A payment of the amount due, in time, on an unpaid order,
 * marks it paid through the same operation staff use, which delivers it in the same transaction when
 * its service delivers by itself. Anything else is held for staff, who are told.
 */
export async function settle(deps: Deps, event: InboundEvent): Promise<SettleResult> {
  return deps.db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto('payment_events')
      .values({
        id: crypto.randomUUID(),
        event_key: event.key,
        rail: event.rail,
        kind: event.kind,
        order_id: null,
        intent_id: null,
        reference: event.reference,
        amount: event.amount === undefined ? null : formatMicro(event.amount),
        currency: event.currency ?? '',
        outcome: 'ignored',
        details: JSON.stringify(event.details ?? {}),
      })
      .onConflict((oc) => oc.column('event_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!recorded) {
      const seen = await trx
        .updateTable('payment_events')
        .set({ seen_count: sql`seen_count + 1`, last_seen_at: sql`now()` })
        .where('event_key', '=', event.key)
        .returning(['order_id', 'seen_count'])
        .executeTakeFirst();
      deps.logger.info('payments: an event already recorded came again; nothing changed', {
        rail: event.rail,
        kind: event.kind,
        reference: event.reference,
        seen: seen?.seen_count,
      });
      return { outcome: 'duplicate', ...(seen?.order_id && { orderId: seen.order_id }) };
    }
    const intent = await findIntent(trx, event);
    const order = intent ? await lockOrder(trx, intent.order_id) : undefined;
    const outcome = !intent || !order ? 'unmatched' : decide(event, intent, order, deps.clock());
    if (intent && order) await apply(trx, deps, event, intent, order, outcome);
    else if (event.kind === 'payment') await tellUnmatched(trx, event);
    await trx
      .updateTable('payment_events')
      .set({ outcome, order_id: order?.id ?? null, intent_id: intent?.id ?? null })
      .where('id', '=', recorded.id)
      .execute();
    return { outcome, ...(order && { orderId: order.id }) };
  });
}

/** The intent an event is about, locked: by reference, or a transfer by its exact amount, then by its amount's tail. */
async function findIntent(trx: Transaction<Database>, event: InboundEvent): Promise<PaymentIntentRow | undefined> {
  if ('reference' in event.match) {
    return trx
      .selectFrom('payment_intents')
      .selectAll()
      .where('rail', '=', event.rail)
      .where('reference', '=', event.match.reference)
      .forUpdate()
      .executeTakeFirst();
  }
  const { payTo, amount, atMs } = event.match.transfer;
  // A transfer pays an intent made before it (a little clock skew allowed), and not one from long ago.
  const candidates = () =>
    trx
      .selectFrom('payment_intents')
      .selectAll()
      .where('rail', '=', event.rail)
      .where('pay_to', '=', payTo)
      .where('created_at', '<=', new Date(atMs + 5 * 60_000))
      .where('created_at', '>=', sql<Date>`now() - interval '3 days'`)
      .orderBy(sql`status = 'open'`, 'desc')
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate();
  const exact = await candidates().where('amount', '=', formatMicro(amount)).executeTakeFirst();
  if (exact) return exact;
  const tail = Number(amount % 10_000n);
  return tail === 0 ? undefined : candidates().where('tail', '=', tail).executeTakeFirst();
}

function decide(event: InboundEvent, intent: PaymentIntentRow, order: OrderRow, now: Date): PaymentOutcome {
  if (event.kind === 'closed') return 'closed';
  if (event.kind === 'refund') return 'refunded';
  // A refund the rail reported first (webhooks come in any order): the payment it undid pays nothing.
  if (intent.status === 'refunded') return 'ignored';
  if (order.payment_status === 'paid' || order.payment_status === 'refunded') return 'already_paid';
  if (event.currency && event.currency !== intent.currency) return 'unmatched';
  const due = toMicro(intent.amount) ?? 0n;
  const received = event.amount ?? due;
  if (received < due) return 'underpaid';
  if (received > due) return 'overpaid';
  const expired = intent.status === 'expired' || new Date(intent.expires_at).getTime() < now.getTime() || order.order_status === 'cancelled';
  return expired ? 'late' : 'paid';
}

async function apply(trx: Transaction<Database>, deps: Deps, event: InboundEvent, intent: PaymentIntentRow, order: OrderRow, outcome: PaymentOutcome) {
  const received = event.amount === undefined ? null : formatMicro(event.amount);
  const state = stateForOutcome[outcome];
  if (outcome === 'paid' || (outcome === 'refunded' && order.payment_status === 'paid')) {
    const wasDelivered = hasDelivery(order);
    const session = JSON.stringify(sessionOf(intent, state!, received !== intent.amount ? received : null));
    const updated = await changeOrderIn(trx, deps, PAYMENTS_ACTOR, order.id, { paymentStatus: outcome }, undefined, { payment_session: session });
    await trx
      .updateTable('payment_intents')
      .set({ status: outcome, amount_received: received, closed_at: sql`now()` })
      .where('id', '=', intent.id)
      .execute();
    if (outcome === 'refunded') await notifyRefund(trx, updated.version, updated, wasDelivered);
    return;
  }
  if (outcome === 'refunded') {
    // Refunded before its payment reached us: the order stays unpaid, and says so.
    const version = await nextVersion(trx);
    await trx
      .updateTable('payment_intents')
      .set({ status: 'refunded', closed_at: sql`now()` })
      .where('id', '=', intent.id)
      .execute();
    const updated = await updateOrder(trx, order.id, { payment_session: JSON.stringify(sessionOf(intent, 'refunded')) }, version);
    await notifyRefund(trx, version, updated, false);
    return;
  }
  if (!state) return;
  const version = await nextVersion(trx);
  // Money that was not accepted on its own: held, shown on the order, and staff decide.
  await trx
    .updateTable('payment_intents')
    .set({ status: intent.status === 'open' ? 'held' : intent.status, amount_received: received })
    .where('id', '=', intent.id)
    .execute();
  if (outcome !== 'already_paid') await updateOrder(trx, order.id, { payment_session: JSON.stringify(sessionOf(intent, state, received)) }, version);
  const words: Record<string, string> = {
    underpaid: `${received} ${intent.currency} arrived on ${event.rail}, less than the ${intent.amount} due. Nothing was delivered.`,
    overpaid: `${received} ${intent.currency} arrived on ${event.rail}, more than the ${intent.amount} due. Nothing was delivered.`,
    late: `${received ?? intent.amount} ${intent.currency} arrived on ${event.rail} after the payment window closed. Nothing was delivered.`,
    already_paid: `a second payment of ${received ?? intent.amount} ${intent.currency} arrived on ${event.rail} for an order already paid.`,
  };
  await notifyPaymentProblem(trx, version, order, 'Payment to decide', `${words[outcome]} Reference ${event.reference}.`);
  await recordAudit(trx, PAYMENTS_ACTOR, {
    action: 'order.payment_held',
    entity: 'order',
    entityId: order.id,
    details: { rail: event.rail, reference: event.reference, amount: received, currency: intent.currency, due: intent.amount, outcome },
  });
}

/** Money that matches no order (an amount nobody was asked for): staff are told, with the reference to look it up. */
async function tellUnmatched(trx: Transaction<Database>, event: InboundEvent) {
  const amount = event.amount === undefined ? '' : `${formatMicro(event.amount)} ${event.currency ?? ''} `;
  await notifyPaymentProblem(
    trx,
    await nextVersion(trx),
    undefined,
    'Payment matches no order',
    `A payment of ${amount}on ${event.rail} matches no order waiting for it. Reference ${event.reference}.`,
  );
}
