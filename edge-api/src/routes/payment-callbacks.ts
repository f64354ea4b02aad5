import { Hono } from 'hono';
import * as z from 'zod';
import { oneOf } from '../contract/fields.ts';
import type { Deps } from '../deps.ts';
import { badRequest, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import type { AppEnv } from '../middleware/session.ts';
import { verifyBinanceWebhook } from '../payments/binance-webhook.ts';
import { executeBkashPayment, queryBkashPayment } from '../payments/bkash.ts';
import { toMicro } from '../payments/money.ts';
import { asRecord, asText, RailError } from '../payments/rail-http.ts';
import { enabledRailNames, loadRail } from '../payments/rail-store.ts';
import { settleBkash } from '../payments/reconcile.ts';
import { afterPayments } from '../payments/round.ts';
import { settle, type InboundEvent } from '../payments/settle.ts';

const bkashCallbackQuery = z.object({
  paymentID: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  status: oneOf(['success', 'failure', 'cancel'] as const),
  signature: z.string().max(500).optional(),
});

/** A Binance Pay notification as an inbound event; undefined for a kind this shop does not act on. */
function binanceEvent(body: Record<string, unknown>): InboundEvent | undefined {
  const prepayId = asText(body.bizIdStr) || asText(body.bizId);
  const data = asRecord(typeof body.data === 'string' ? safeJson(body.data) : body.data);
  const base = {
    rail: 'binance_pay' as const,
    reference: asText(data.transactionId) || prepayId,
    match: { reference: prepayId },
    currency: asText(data.currency) || undefined,
    details: { via: 'webhook', bizStatus: asText(body.bizStatus) },
  };
  const kind = `${asText(body.bizType)}/${asText(body.bizStatus)}`;
  if (kind === 'PAY/PAY_SUCCESS') return { ...base, key: `binance:pay:${prepayId}`, kind: 'payment', amount: toMicro(asText(data.totalFee)) };
  if (kind === 'PAY/PAY_CLOSED') return { ...base, key: `binance:closed:${prepayId}`, kind: 'closed' };
  if (kind === 'PAY_REFUND/REFUND_SUCCESS') return { ...base, key: `binance:refund:${prepayId}`, kind: 'refund', amount: toMicro(asText(data.totalFee)) };
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** /api/payments: what the rails call. Nobody signs in here: a webhook proves itself by its signature, a callback by asking the rail. */
export function paymentCallbackRoutes(deps: Deps) {
  return (
    new Hono<AppEnv>()
      // Which rails an order may be paid with automatically: public, like the price.
      .get('/rails', async (c) => c.json({ rails: await enabledRailNames(deps.db) }))
      .post('/binance-pay/webhook', async (c) => {
        const raw = await c.req.text();
        const body = asRecord(safeJson(raw));
        if (!body.bizType || !(body.bizIdStr || body.bizId)) throw badRequest('body: not a Binance Pay notification');
        const headers = {
          timestamp: c.req.header('binancepay-timestamp'),
          nonce: c.req.header('binancepay-nonce'),
          signature: c.req.header('binancepay-signature'),
          certificateSn: c.req.header('binancepay-certificate-sn'),
        };
        if (!headers.timestamp || !headers.nonce || !headers.signature || !headers.certificateSn)
          throw badRequest('BinancePay-Signature: the notification is not signed; nothing was changed');
        const rail = await loadRail(deps.db, deps.secrets, 'binance_pay');
        if (!rail?.secrets.apiKey || !rail.secrets.secretKey) throw notFound('Binance Pay account');
        const account = { apiUrl: deps.config.payments!.binancePayApiUrl, apiKey: rail.secrets.apiKey, secretKey: rail.secrets.secretKey };
        let verified: boolean;
        try {
          verified = await verifyBinanceWebhook(account, headers, raw);
        } catch (error) {
          if (!(error instanceof RailError)) throw error;
          // The certificate could not be fetched: not refused for good, Binance sends it again.
          deps.logger.warn('payments: Binance Pay certificates could not be read', { error: error.message });
          return c.json({ returnCode: 'FAIL', returnMessage: 'try again' }, 503);
        }
        if (!verified) {
          deps.logger.warn('payments: a Binance Pay webhook was refused: its signature does not verify', {
            bizType: asText(body.bizType),
            bizIdStr: asText(body.bizIdStr),
          });
          throw badRequest('BinancePay-Signature: does not verify with Binance Pay’s certificate; nothing was changed');
        }
        const event = binanceEvent(body);
        if (event) await settle(deps, event);
        await afterPayments(deps);
        return c.json({ returnCode: 'SUCCESS', returnMessage: null });
      })
      .get('/bkash/callback', validate('query', bkashCallbackQuery), async (c) => {
        const { paymentID, status } = c.req.valid('query');
        const intent = await deps.db
          .selectFrom('payment_intents')
          .select(['order_id'])
          .where('rail', '=', 'bkash')
          .where('reference', '=', paymentID)
          .executeTakeFirst();
        if (!intent) throw notFound('Payment');
        let outcome = status === 'success' ? 'failed' : 'cancelled';
        const rail = await loadRail(deps.db, deps.secrets, 'bkash');
        if (status === 'success' && rail?.secrets.appKey) {
          const account = {
            apiUrl: deps.config.payments!.bkashApiUrl,
            appKey: rail.secrets.appKey,
            appSecret: rail.secrets.appSecret!,
            username: rail.secrets.username!,
            password: rail.secrets.password!,
          };
          try {
            // The callback's word is not taken: bKash's answer to execute (or, after an execute already made, to a query) decides.
            let state = await executeBkashPayment(account, paymentID);
            if (state.transactionStatus !== 'Completed') state = await queryBkashPayment(account, paymentID);
            const settled = await settleBkash(deps, paymentID, state, 'callback');
            if (settled) outcome = settled.outcome === 'paid' || settled.outcome === 'duplicate' ? 'received' : 'held';
          } catch (error) {
            if (!(error instanceof RailError)) throw error;
            deps.logger.warn('payments: bKash did not answer after its callback; reconciliation will ask again', { paymentID, error: error.message });
            outcome = 'checking';
          }
          await afterPayments(deps);
        }
        return c.redirect(`/my-orders?payment=${outcome}#order-${intent.order_id}`, 302);
      })
  );
}
