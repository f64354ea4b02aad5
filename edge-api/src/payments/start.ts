import { sql, type Transaction } from 'kysely';
import { railNames, type OrderPayment, type PaymentRail } from '../contract/payments.ts';
import { findOrder, lockOrder, updateOrder } from '../db/orders.ts';
import type { Database, OrderRow, UserRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, conflict, forbidden, notFound } from '../errors.ts';
import { amountDue } from './amount-due.ts';
import { createBinanceOrder } from './binance-pay.ts';
import { createBkashPayment } from './bkash.ts';
import { formatMicro } from './money.ts';
import { RailError } from './rail-http.ts';
import { enabledRail, loadPaymentSettings, type LoadedRail } from './rail-store.ts';
import { sessionOf } from './session.ts';

/** The identifying tails of exact USDT amounts: 1 to 9999 micro-USDT on top of the price (decision 201). */
const TAILS = 9_999;

/** What a started payment needs from the rail before its intent is written. */
interface RailSide {
  payTo?: string;
  tail?: number;
  reference?: string;
  checkoutUrl?: string;
  qrContent?: string;
}

const unpaidOpen = (order: OrderRow) =>
  (order.payment_status === 'pending' || order.payment_status === 'failed') && (order.order_status === 'pending' || order.order_status === 'processing');

/**
 * POST /api/orders/{id}/payment: the order's owner pays on a rail the shop switched on. Answers the
 * payment to show (amount to the last digit, where, until when). The same rail asked again while its
 * payment is open answers that one; another rail replaces it (a payment still made on the replaced one is
 * matched all the same). Binance Pay and bKash create their order first, outside the transaction.
 */
export async function startPayment(deps: Deps, user: UserRow, orderId: string, rail: PaymentRail, origin: string): Promise<OrderPayment> {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw notFound('Order');
  if (order.user_id !== user.id) throw forbidden();
  if (!unpaidOpen(order)) throw conflict('This order is not waiting for a payment.');
  const loaded = await enabledRail(deps.db, deps.secrets, rail);
  if (!loaded) throw conflict(`${railNames[rail]} is not switched on in this shop. Choose another way to pay.`);
  const open = await deps.db.selectFrom('payment_intents').selectAll().where('order_id', '=', orderId).where('status', '=', 'open').executeTakeFirst();
  if (open && open.rail === rail && new Date(open.expires_at).getTime() > deps.clock().getTime()) return sessionOf(open, 'waiting');
  const settings = await loadPaymentSettings(deps.db);
  const due = amountDue(order, rail, settings.bdtPerUsd);
  if (!due.ok) throw conflict(due.reason);
  const id = crypto.randomUUID();
  const expiresAt = new Date(deps.clock().getTime() + settings.expiryMinutes * 60_000);
  const site = (deps.config.payments?.siteUrl ?? origin).replace(/\/+$/, '');
  const side =
    rail === 'usdt_trc20'
      ? { payTo: loaded.settings.address }
      : await railSide(deps, loaded, { id, order, amount: formatMicro(due.amount, 2), expiresAt, site });
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockOrder(trx, orderId);
    if (!locked || !unpaidOpen(locked)) throw conflict('This order is not waiting for a payment.');
    await trx
      .updateTable('payment_intents')
      .set({ status: 'replaced', closed_at: sql`now()` })
      .where('order_id', '=', orderId)
      .where('status', '=', 'open')
      .execute();
    const tail = rail === 'usdt_trc20' ? await freeTail(trx, side.payTo!) : undefined;
    const amount = formatMicro(due.amount + BigInt(tail ?? 0));
    const intent = await trx
      .insertInto('payment_intents')
      .values({
        id,
        order_id: orderId,
        rail,
        currency: due.currency,
        amount,
        pay_to: side.payTo ?? null,
        tail: tail ?? null,
        reference: side.reference ?? null,
        checkout_url: side.checkoutUrl ?? null,
        qr_content: side.qrContent ?? (rail === 'usdt_trc20' ? side.payTo! : null),
        expires_at: expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const session = sessionOf(intent, 'waiting');
    await updateOrder(trx, orderId, { payment_session: JSON.stringify(session) }, await nextVersion(trx));
    return session;
  });
}

/**
 * A tail no other live USDT payment to this address has (open, replaced, or ended in the last day, so a
 * late transfer still finds its own order), chosen under a lock per address so two orders never share one.
 */
async function freeTail(trx: Transaction<Database>, payTo: string): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext(${`payments:tail:${payTo}`}))`.execute(trx);
  const taken = await trx
    .selectFrom('payment_intents')
    .select('tail')
    .where('pay_to', '=', payTo)
    .where('tail', 'is not', null)
    .where((eb) => eb.or([eb('status', 'in', ['open', 'replaced']), eb('created_at', '>', sql<Date>`now() - interval '1 day'`)]))
    .execute();
  const used = new Set(taken.map((row) => row.tail));
  const start = 1 + (crypto.getRandomValues(new Uint32Array(1))[0]! % TAILS);
  for (let i = 0; i < TAILS; i++) {
    const tail = 1 + ((start - 1 + i) % TAILS);
    if (!used.has(tail)) return tail;
  }
  throw new ApiError('unavailable', 'Too many USDT payments are waiting at once. Try again in a few minutes, or pay another way.');
}

/** Binance Pay's or bKash's order for this payment, created before the intent is written. */
async function railSide(deps: Deps, loaded: LoadedRail, p: { id: string; order: OrderRow; amount: string; expiresAt: Date; site: string }): Promise<RailSide> {
  const tradeNo = p.id.replace(/-/g, '');
  const returnUrl = `${p.site}/my-orders#order-${p.order.id}`;
  try {
    if (loaded.rail === 'binance_pay') {
      // Binance closes an order after an hour at most.
      const expiresAt = new Date(Math.min(p.expiresAt.getTime(), deps.clock().getTime() + 3_600_000));
      const account = { apiUrl: deps.config.payments!.binancePayApiUrl, apiKey: loaded.secrets.apiKey!, secretKey: loaded.secrets.secretKey! };
      const made = await createBinanceOrder(account, {
        merchantTradeNo: tradeNo,
        amount: p.amount,
        currency: 'USDT',
        description: `Order ${p.order.id.slice(-8)}: ${p.order.title}`,
        expiresAt,
        webhookUrl: `${p.site}/api/payments/binance-pay/webhook`,
        returnUrl,
      });
      return { reference: made.prepayId, checkoutUrl: made.checkoutUrl, qrContent: made.qrContent };
    }
    const account = {
      apiUrl: deps.config.payments!.bkashApiUrl,
      appKey: loaded.secrets.appKey!,
      appSecret: loaded.secrets.appSecret!,
      username: loaded.secrets.username!,
      password: loaded.secrets.password!,
    };
    const made = await createBkashPayment(account, {
      amount: p.amount,
      invoice: tradeNo,
      callbackUrl: `${p.site}/api/payments/bkash/callback`,
      payerReference: p.order.id.slice(-8),
    });
    return { reference: made.paymentId, checkoutUrl: made.bkashUrl, qrContent: made.bkashUrl };
  } catch (error) {
    if (!(error instanceof RailError)) throw error;
    deps.logger.warn('payments: a rail refused to start a payment', { rail: loaded.rail, order: p.order.id, error: error.message });
    throw new ApiError('unavailable', `${railNames[loaded.rail]} did not start the payment. Try again in a moment, or pay another way.`);
  }
}
