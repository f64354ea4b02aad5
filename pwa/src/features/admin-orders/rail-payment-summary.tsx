import { useState } from 'react';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { railNames, type PaymentEventView } from '../../../../edge-api/src/contract/payments.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';

const outcomeWords: Record<PaymentEventView['outcome'], string> = {
  paid: 'accepted: order paid',
  underpaid: 'held: less than due',
  overpaid: 'held: more than due',
  late: 'held: after the window',
  already_paid: 'held: order already paid',
  unmatched: 'matched no order',
  refunded: 'refund',
  closed: 'closed by the rail',
  ignored: 'ignored',
};

/**
 * A rail payment on an order, for staff: where it stands, and each event the rail sent (rail, reference,
 * amount, time, outcome; a replayed one counted), read from the server on request (issue 26).
 */
export function RailPaymentSummary({ order, online }: { order: Order; online: boolean }) {
  const [events, setEvents] = useState<PaymentEventView[] | 'loading' | 'failed' | null>(null);
  const payment = order.payment;
  if (!payment) return null;
  const load = () => {
    setEvents('loading');
    unwrap(api.orders[':id']['payment-events'].$get({ param: { id: order.id } })).then(setEvents, () => setEvents('failed'));
  };
  const held = payment.state !== 'waiting' && payment.state !== 'paid' && payment.state !== 'expired';
  return (
    <div className={`mt-2 rounded-box p-2 text-sm ${held ? 'bg-warning/20' : 'bg-base-200'}`} data-testid="rail-payment-summary">
      <p>
        <strong>{railNames[payment.rail]}:</strong> {payment.state} · due {payment.amount} {payment.currency}
        {payment.amountReceived && ` · received ${payment.amountReceived}`}
        {held && ' · decide with the customer'}
      </p>
      {events === null || events === 'failed' ? (
        <button type="button" className="btn btn-ghost btn-xs" onClick={load} disabled={!online}>
          {events === 'failed' ? 'Could not load: try again' : 'Payment events'}
        </button>
      ) : events === 'loading' ? (
        <p role="status">Loading payment events...</p>
      ) : events.length === 0 ? (
        <p>No payment events yet.</p>
      ) : (
        <ol className="mt-1 space-y-1">
          {events.map((event) => (
            <li key={event.id}>
              <time dateTime={event.receivedAt}>{formatDateTime(event.receivedAt)}</time> · {railNames[event.rail]} · {event.amount ?? '-'} {event.currency} ·
              ref <span className="font-mono break-all">{event.reference}</span> · {outcomeWords[event.outcome]}
              {event.seen > 1 && ` (received ${event.seen} times)`}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
