import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ExternalLink } from '../../components/external-link.tsx';
import { paymentMethodName } from '../../lib/catalog.ts';
import { formatDateTime } from '../../lib/format.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

const orderList = (ids: string[]) => ids.map((id) => `#${shortOrderId(id)}`).join(', ');

/**
 * What the customer told the shop about an order: the note, the payment method chosen, the payment proof
 * (flagged when its transaction id or screenshot was already used on another order), and a cancellation.
 */
export function CustomerPaymentDetails({ order }: { order: Order }) {
  const proof = order.paymentProof;
  if (!order.note && !order.paymentMethod && !proof && !order.cancelledAt) return null;
  const label = `order #${shortOrderId(order.id)}`;
  return (
    <div className="grid min-w-0 gap-2 rounded-box bg-base-200 p-3 text-sm @2xl:col-span-2 @5xl:col-span-4" data-testid="customer-payment-details">
      {order.cancelledAt && <p className="font-semibold text-error">Cancelled by the customer {formatDateTime(order.cancelledAt)}</p>}
      {order.paymentMethod && (
        <p>
          <span className="font-semibold">Pays with:</span> {paymentMethodName(order.paymentMethod)}
        </p>
      )}
      {order.note && (
        <div>
          <span className="font-semibold">Customer&apos;s note:</span>
          <p className="whitespace-pre-line break-words">{order.note}</p>
        </div>
      )}
      {proof && (
        <div className="space-y-1">
          <p>
            <span className="font-semibold">Payment proof</span> sent {formatDateTime(proof.sentAt)}
            {proof.transactionId && (
              <>
                : transaction ID <span className="font-mono break-all">{proof.transactionId}</span>
              </>
            )}
          </p>
          {proof.screenshotUrl && (
            <ExternalLink className="link link-primary" href={proof.screenshotUrl}>
              Payment screenshot<span className="sr-only"> of {label}</span>
            </ExternalLink>
          )}
          {proof.reusedTransactionIdOn && (
            <p role="note" className="font-semibold text-error">
              ⚠ This transaction ID was already used on {orderList(proof.reusedTransactionIdOn)}
            </p>
          )}
          {proof.reusedScreenshotOn && (
            <p role="note" className="font-semibold text-error">
              ⚠ The same screenshot was already sent for {orderList(proof.reusedScreenshotOn)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
