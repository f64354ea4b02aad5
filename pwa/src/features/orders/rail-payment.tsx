import { useEffect, useState } from 'react';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { railForMethod, railNames, type OrderPayment, type PaymentRail } from '../../../../edge-api/src/contract/payments.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { ExternalLink } from '../../components/external-link.tsx';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { PaymentQr, TimeLeft, usePaymentCheck } from './rail-payment-parts.tsx';

/** What each state of a rail payment tells the customer (issue 26). */
const stateWords: Record<Exclude<OrderPayment['state'], 'waiting'>, string> = {
  paid: 'Payment received. Thank you!',
  underpaid: 'Less than the amount due arrived. Nothing was delivered yet: the shop has been told and will contact you.',
  overpaid: 'More than the amount due arrived. The shop has been told and will contact you about the difference.',
  late: 'Your payment arrived after the time to pay ran out. The shop has been told and will decide with you.',
  duplicate: 'A second payment arrived for this order. The shop has been told and will contact you.',
  expired: 'The time to pay ran out, so this order was cancelled. Place it again to pay.',
  refunded: 'The payment was refunded.',
};

/**
 * Paying an order on a rail the shop switched on: the amount to the last digit, where to pay (copy
 * button, QR code, the rail's page), the time left, and the state, which updates by itself (the page asks
 * the server every few seconds while it waits, and sync and push bring the rest).
 */
export function RailPayment({ order, userId, rails = [] }: { order: Order; userId?: string; rails?: PaymentRail[] }) {
  const payment = order.payment;
  const waiting = payment?.state === 'waiting' && order.orderStatus !== 'cancelled';
  usePaymentCheck(order.id, waiting && order.userId === userId);
  const unpaid =
    (order.paymentStatus === 'pending' || order.paymentStatus === 'failed') && (order.orderStatus === 'pending' || order.orderStatus === 'processing');
  const current = waiting ? payment!.rail : undefined;
  const offered = unpaid && userId === order.userId && (!payment || waiting) ? railsOffered(rails, order, current) : [];
  if (!payment && offered.length === 0) return null;
  return (
    <section
      className="space-y-3 rounded-box border border-primary/40 p-4"
      aria-label={`Automatic payment of order ${shortOrderId(order.id)}`}
      data-testid="rail-payment"
    >
      {payment && <PaymentUnderway payment={payment} waiting={waiting} />}
      {offered.length > 0 && <RailChoices order={order} offered={offered} again={current !== undefined} />}
    </section>
  );
}

/**
 * The rails the shop switched on, asked once per screen (not once per order card), and only online: a
 * list of unpaid orders shows its choices from one answer.
 */
export function useEnabledRails(): PaymentRail[] {
  const { online } = useSyncStatus();
  const [rails, setRails] = useState<PaymentRail[]>([]);
  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    unwrap(api.payments.rails.$get()).then(
      (answer) => !cancelled && setRails(answer.rails),
      () => !cancelled && setRails([]),
    );
    return () => {
      cancelled = true;
    };
  }, [online]);
  return rails;
}

/** The rails to offer for an order, its own payment method first, the one under way left out. */
function railsOffered(rails: PaymentRail[], order: Order, current?: PaymentRail): PaymentRail[] {
  const preferred = railForMethod(order.paymentMethod);
  return rails.filter((rail) => rail !== current).sort((a, b) => Number(b === preferred) - Number(a === preferred));
}

function PaymentUnderway({ payment, waiting }: { payment: OrderPayment; waiting: boolean }) {
  const name = railNames[payment.rail];
  if (!waiting) {
    const tone = payment.state === 'paid' ? 'alert-success' : payment.state === 'refunded' || payment.state === 'expired' ? 'alert-info' : 'alert-warning';
    return (
      <div role="status" className={`alert ${tone} text-sm`} data-testid="rail-payment-state">
        <span>
          <strong>{name}:</strong> {payment.state === 'expired' ? stateWords.expired : stateWords[payment.state as keyof typeof stateWords]}
          {payment.amountReceived && ` Received ${payment.amountReceived} ${payment.currency} of ${payment.amount} ${payment.currency}.`}
        </span>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <h3 className="font-semibold">Pay with {name}</h3>
      <div className="flex flex-wrap items-center gap-2">
        <span>Amount:</span>
        <strong className="font-mono text-lg" data-testid="rail-payment-amount">
          {payment.amount} {payment.currency}
        </strong>
        <CopyButton size="xs" value={payment.amount} label="Amount" />
      </div>
      {payment.rail === 'usdt_trc20' && (
        <p className="text-sm">Send exactly this amount, to the last digit, on the TRON network (TRC20): the amount tells your order apart.</p>
      )}
      {payment.payTo && (
        <div className="flex flex-wrap items-center gap-2">
          <span>Address:</span>
          <span className="font-mono break-all" data-testid="rail-payment-address">
            {payment.payTo}
          </span>
          <CopyButton size="xs" value={payment.payTo} label="Address" />
        </div>
      )}
      {payment.payUrl && (
        <ExternalLink className="btn btn-primary btn-sm" href={payment.payUrl}>
          {payment.rail === 'bkash' ? 'Pay with bKash' : 'Open Binance Pay'}
        </ExternalLink>
      )}
      {payment.qrContent && (
        <PaymentQr content={payment.qrContent} label={payment.payTo ? `QR code of the address ${payment.payTo}` : `QR code of the ${name} payment`} />
      )}
      <TimeLeft until={payment.expiresAt} />
      <p role="status" aria-live="polite" className="text-sm">
        Waiting for your payment… this page updates by itself once {name} confirms it.
      </p>
    </div>
  );
}

/** Buttons to pay an order on each rail offered. */
function RailChoices({ order, offered, again }: { order: Order; offered: PaymentRail[]; again: boolean }) {
  const { online } = useSyncStatus();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pay = async (rail: PaymentRail) => {
    setBusy(true);
    setProblem(null);
    try {
      await unwrap(api.orders[':id'].payment.$post({ param: { id: order.id }, json: { rail } }));
      await requestSync();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The payment could not be started. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-2">
      <p className="text-sm">{again ? 'Or pay another way, confirmed automatically:' : 'Pay now and your order is confirmed automatically:'}</p>
      <div className="flex flex-wrap gap-2">
        {offered.map((rail) => (
          <button key={rail} type="button" className="btn btn-sm btn-secondary" disabled={busy || !online} onClick={() => void pay(rail)}>
            Pay with {railNames[rail]}
          </button>
        ))}
      </div>
      {!online && <p className="text-sm">Paying needs a connection.</p>}
      {problem && (
        <p role="alert" className="text-sm text-error">
          {problem}
        </p>
      )}
    </div>
  );
}
