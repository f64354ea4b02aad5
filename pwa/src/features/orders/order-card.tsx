import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { Link } from 'react-router-dom';
import { ExternalLink } from '../../components/external-link.tsx';
import { logReveal } from '../../db/mutations.ts';
import { deliveryTimeLabel } from '../../lib/catalog.ts';
import { deviceId, deviceLabel } from '../../lib/device-identity.ts';
import { inlinePrice } from '../../lib/display-currency.ts';
import { DisplayPrice } from '../../lib/display-currency-price.tsx';
import { formatDateTime } from '../../lib/format.ts';
import {
  chatLinkWithMessage,
  expectedDelivery,
  formatExpectedDelivery,
  normalizeOrderStatus,
  normalizePaymentStatus,
  orderStatusLabel,
  paymentMessage,
  paymentStatusLabel,
  shortOrderId,
} from '../../lib/order-rules.ts';
import type { PaymentInstructions } from '../../../../edge-api/src/contract/settings.ts';
import { AfterSalesPanel } from './after-sales-panel.tsx';
import { CredentialsPanel } from './credentials-panel.tsx';
import { DeliveryPanel } from './delivery-panel.tsx';
import { OrderNote, OrderPayment } from './order-payment.tsx';
import { RailPayment } from './rail-payment.tsx';
import type { PaymentRail } from '../../../../edge-api/src/contract/payments.ts';

const orderBadge = {
  pending: 'badge-warning',
  processing: 'badge-info',
  completed: 'badge-success',
  delivered: 'badge-success',
  cancelled: 'badge-error',
} as const;

const paymentBadge = {
  pending: 'badge-warning',
  paid: 'badge-success',
  failed: 'badge-error',
  refunded: 'badge-neutral',
} as const;

export interface OrderCardProps {
  order: Order;
  providerChatUrl: string;
  /** A change to this order is queued on this device. */
  waitingToSync: boolean;
  /** The server refused a queued change to this order: why. */
  syncError?: string;
  /** The settings' payment instructions, shown for the method chosen until the order is paid. */
  paymentInstructions?: PaymentInstructions[];
  /** The signed-in customer: with it the card offers to send a payment proof and to cancel. */
  userId?: string;
  /** The payment rails the shop switched on, offered on the customer's unpaid orders. */
  rails?: PaymentRail[];
  /** The customer's display currency (decision 241): prices shown approximately in it; null or absent: USD. */
  currency?: DisplayCurrency | null;
}

/** The order's id, dates and delivery time; `noDelivery` says why no delivery is to be expected. */
function OrderFacts({ order, noDelivery }: { order: Order; noDelivery: string | null }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
      <div>
        <dt className="font-semibold">Order ID</dt>
        <dd className="font-mono">#{shortOrderId(order.id)}</dd>
      </div>
      <div>
        <dt className="font-semibold">Order Date</dt>
        <dd>{formatDateTime(order.orderDate || order.createdAt)}</dd>
      </div>
      <div>
        <dt className="font-semibold">Delivery Time</dt>
        <dd>{deliveryTimeLabel(order.deliveryTime) || 'Not specified'}</dd>
      </div>
      {noDelivery ? (
        <div>
          <dt className="font-semibold">Delivery</dt>
          <dd>{noDelivery}</dd>
        </div>
      ) : (
        <div>
          <dt className="font-semibold">Expected Delivery</dt>
          <dd>{formatExpectedDelivery(expectedDelivery(order.orderDate || order.createdAt, order.deliveryTime))}</dd>
        </div>
      )}
    </dl>
  );
}

export function OrderCard({ order, providerChatUrl, waitingToSync, syncError, paymentInstructions = [], userId, rails, currency = null }: OrderCardProps) {
  const orderStatus = normalizeOrderStatus(order.orderStatus);
  const paymentStatus = normalizePaymentStatus(order.paymentStatus);
  const needsPayment = paymentStatus === 'pending' && orderStatus !== 'cancelled';
  // A cancelled or refunded order will not be delivered: no date to expect.
  const noDelivery = orderStatus === 'cancelled' ? 'None: the order was cancelled' : paymentStatus === 'refunded' ? 'None: the payment was refunded' : null;

  return (
    <article className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <div className="flex flex-col gap-4 sm:flex-row">
          {order.image ? <img src={order.image} alt={order.title} className="h-24 w-full rounded-box object-cover sm:w-36" loading="lazy" /> : null}
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h2 className="card-title text-xl">{order.title}</h2>
              <DisplayPrice
                price={order.price}
                currency={currency}
                wrapperClassName="text-right"
                className="text-xl font-extrabold whitespace-nowrap"
                unitClassName="text-sm font-semibold"
              />
            </div>
            {order.coupon && <CouponLine coupon={order.coupon} currency={currency} />}
            <div className="mt-2 flex flex-wrap gap-2">
              <span className={`badge ${orderBadge[orderStatus]}`}>{orderStatusLabel(orderStatus)}</span>
              <span className={`badge ${paymentBadge[paymentStatus]}`}>{paymentStatusLabel(paymentStatus)}</span>
              {waitingToSync && !syncError && <span className="badge badge-outline">Waiting to sync</span>}
              {syncError && <span className="badge badge-error">Not sent</span>}
            </div>
          </div>
        </div>

        {syncError && (
          <p role="alert" className="alert alert-error text-sm">
            {syncError}
          </p>
        )}

        <OrderFacts order={order} noDelivery={noDelivery} />

        {needsPayment && (
          <div className="flex flex-col gap-3 rounded-box border border-warning bg-base-200 p-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <h3 className="font-bold">Payment Required</h3>
              <p className="text-sm">Complete your payment to start processing</p>
            </div>
            <ExternalLink className="btn btn-primary" href={chatLinkWithMessage(providerChatUrl, paymentMessage(order))}>
              Complete Payment
            </ExternalLink>
          </div>
        )}

        <OrderNote note={order.note} />
        <RailPayment order={order} userId={userId} rails={rails} />
        <OrderPayment order={order} paymentInstructions={paymentInstructions} providerChatUrl={providerChatUrl} userId={userId} currency={currency} />
        <AfterSalesPanel order={order} />
        {userId && order.userId === userId && (
          <Link to={`/support?order=${order.id}`} className="btn btn-outline btn-sm self-start">
            Open a ticket<span className="sr-only"> about this order</span>
          </Link>
        )}

        {orderStatus === 'delivered' && order.deliveryKind && <DeliveryPanel order={order} userId={userId} />}
        {orderStatus === 'delivered' && order.wiseEmail && (
          <CredentialsPanel
            email={order.wiseEmail}
            password={order.wisePassword}
            passwordUnreadable={order.wisePasswordUnreadable}
            inVault={order.secretsInVault}
            proofImage={order.wiseImage}
            title={order.title}
            orderNumber={shortOrderId(order.id)}
            views={order.views}
            onReveal={
              userId && order.userId === userId
                ? () => void logReveal(userId, { orderId: order.id, deviceId: deviceId(), deviceLabel: deviceLabel(), revealedAt: new Date().toISOString() })
                : undefined
            }
          />
        )}
      </div>
    </article>
  );
}

/** What a coupon took off the list price (decision 220), on the customer's card and the staff list. */
export function CouponLine({ coupon, currency = null }: { coupon: NonNullable<Order['coupon']>; currency?: DisplayCurrency | null }) {
  return (
    <p className="text-sm">
      Coupon {coupon.code}: {inlinePrice(coupon.discount, currency)} off the list price of {inlinePrice(coupon.listPrice, currency)}
    </p>
  );
}
