import { useId } from 'react';
import { ExternalLink } from '../../components/external-link.tsx';
import {
  orderStatuses,
  paymentStatuses,
  reportReasonLabels,
  type Order,
  type OrderStatus,
  type PaymentStatus,
} from '../../../../edge-api/src/contract/orders.ts';
import { capitalize, formatDateShort, formatDateTime } from '../../lib/format.ts';
import { normalizeOrderStatus, normalizePaymentStatus, shortOrderId } from '../../lib/order-rules.ts';
import { RailPaymentSummary } from './rail-payment-summary.tsx';
import { CustomerPaymentDetails } from './customer-payment-details.tsx';
import { deliverySummary } from './other-delivery-modal.tsx';
import { PriceBreakdown } from '../../components/price-breakdown.tsx';

export interface OrderListProps {
  orders: readonly Order[];
  pendingIds: ReadonlySet<string>;
  /** Admins delete orders and read their history (DESIGN section 3). */
  canDelete: boolean;
  canSeeHistory: boolean;
  online: boolean;
  onOrderStatus: (order: Order, status: OrderStatus) => void;
  onPaymentStatus: (order: Order, status: PaymentStatus) => void;
  onDeliver: (order: Order) => void;
  onDelete: (order: Order) => void;
  onHistory: (order: Order) => void;
  /** An open problem report: replace the delivery, or decline with a message (decision 063). */
  onReplace?: (order: Order) => void;
  onDecline?: (order: Order) => void;
}

/** A cancelled or refunded order gets no credentials: nothing is to be delivered. */
export function deliveryClosed(order: Pick<Order, 'orderStatus' | 'paymentStatus'>): 'cancelled' | 'refunded' | null {
  if (normalizeOrderStatus(order.orderStatus) === 'cancelled') return 'cancelled';
  if (normalizePaymentStatus(order.paymentStatus) === 'refunded') return 'refunded';
  return null;
}

const sectionLabel = 'mb-1 block text-xs font-semibold text-base-content/70';

/**
 * The order table as one card per order, laid out by the width it has (a container query): stacked on a
 * phone, two columns on a tablet, one line of four on a wide screen. Every order's statuses, delivery and
 * actions are in view without a sideways scroll, next to its id, title and customer.
 */
/** When the customer first showed the delivered password, and on which device (decision 066). */
function FirstViewed({ order }: { order: Order }) {
  if (!order.views) return null;
  return (
    <p>
      First viewed <time dateTime={order.views.firstAt}>{formatDateTime(order.views.firstAt)}</time>
      {order.views.firstDevice ? ` on ${order.views.firstDevice}` : ''}
    </p>
  );
}

export function OrderList(props: OrderListProps) {
  return (
    <ul aria-label="Orders" className="@container space-y-3">
      {props.orders.map((order) => (
        <OrderItem key={order.id} order={order} {...props} />
      ))}
    </ul>
  );
}

function OrderHeading({ order, titleId, pending }: { order: Order; titleId: string; pending: boolean }) {
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-x-2 text-xs text-base-content/70">
        <span className="font-mono">#{shortOrderId(order.id)}</span>
        <span aria-hidden="true">·</span>
        <span>{formatDateShort(order.orderDate)}</span>
        {pending && <span className="badge badge-warning badge-sm">Pending sync</span>}
        {order.report?.status === 'open' && <span className="badge badge-error badge-sm">Problem reported</span>}
      </p>
      <h3 id={titleId} className="line-clamp-2 font-semibold">
        {order.title}
      </h3>
      <p className="font-bold">${order.price}</p>
      <PriceBreakdown order={order} />
    </div>
  );
}

function StatusSelects({
  order,
  label,
  onOrderStatus,
  onPaymentStatus,
}: Pick<OrderListProps, 'onOrderStatus' | 'onPaymentStatus'> & { order: Order; label: string }) {
  return (
    <div className="grid min-w-0 grid-cols-2 gap-2 @5xl:grid-cols-1">
      <label className="min-w-0">
        <span className={sectionLabel} aria-hidden="true">
          Order status
        </span>
        <select
          className="select select-sm w-full"
          aria-label={`Order status of ${label}`}
          value={normalizeOrderStatus(order.orderStatus)}
          onChange={(event) => onOrderStatus(order, event.target.value as OrderStatus)}
        >
          {orderStatuses.map((status) => (
            <option key={status} value={status}>
              {capitalize(status)}
            </option>
          ))}
        </select>
      </label>
      <label className="min-w-0">
        <span className={sectionLabel} aria-hidden="true">
          Payment
        </span>
        <select
          className="select select-sm w-full"
          aria-label={`Payment status of ${label}`}
          value={normalizePaymentStatus(order.paymentStatus)}
          onChange={(event) => onPaymentStatus(order, event.target.value as PaymentStatus)}
        >
          {paymentStatuses.map((status) => (
            <option key={status} value={status}>
              {capitalize(status)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function CredentialsCell({
  order,
  label,
  closed,
  onDeliver,
}: Pick<OrderListProps, 'onDeliver'> & { order: Order; label: string; closed: ReturnType<typeof deliveryClosed> }) {
  return (
    <div className="min-w-0 grow text-sm">
      <span className={sectionLabel}>Credentials</span>
      {order.wiseEmail ? (
        <>
          <p className="truncate" title={order.wiseEmail}>
            {order.wiseEmail}
          </p>
          {order.stockId && <span className="badge badge-ghost badge-sm">from stock</span>}
          <FirstViewed order={order} />
          {order.wiseImage && (
            <ExternalLink className="link link-primary block" href={order.wiseImage}>
              Proof image<span className="sr-only"> of {label}</span>
            </ExternalLink>
          )}
        </>
      ) : order.deliveryKind ? (
        <p className="truncate" data-testid="delivered-kind">
          {deliverySummary(order)}
        </p>
      ) : closed ? (
        <p className="text-base-content/70">None: the order is {closed}</p>
      ) : (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => onDeliver(order)} aria-label={`Add credentials to ${label}`}>
          Add credentials
        </button>
      )}
    </div>
  );
}

function StaffButtons({
  order,
  label,
  canDelete,
  canSeeHistory,
  online,
  onDelete,
  onHistory,
}: Pick<OrderListProps, 'canDelete' | 'canSeeHistory' | 'online' | 'onDelete' | 'onHistory'> & { order: Order; label: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      {canSeeHistory && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => onHistory(order)} disabled={!online} aria-label={`History of ${label}`}>
          History
        </button>
      )}
      {canDelete && (
        <button
          type="button"
          className="btn btn-ghost btn-sm text-error"
          onClick={() => onDelete(order)}
          disabled={!online}
          aria-label={`Delete ${label}`}
          title={online ? 'Delete Order' : 'Deleting needs a connection'}
        >
          Delete
        </button>
      )}
    </div>
  );
}

function OrderItem({
  order,
  pendingIds,
  canDelete,
  canSeeHistory,
  online,
  onOrderStatus,
  onPaymentStatus,
  onDeliver,
  onDelete,
  onHistory,
  onReplace,
  onDecline,
}: OrderListProps & { order: Order }) {
  const titleId = useId();
  const label = `order #${shortOrderId(order.id)}`;
  const pending = pendingIds.has(order.id);
  const closed = deliveryClosed(order);

  return (
    <li>
      <article
        aria-labelledby={titleId}
        className={`grid gap-x-6 gap-y-4 rounded-box bg-base-100 p-4 shadow-sm @2xl:grid-cols-2 @5xl:grid-cols-[minmax(0,1.5fr)_minmax(0,1.2fr)_minmax(0,1.1fr)_minmax(0,1fr)] ${pending ? 'ring-2 ring-warning' : ''}`}
      >
        <OrderHeading order={order} titleId={titleId} pending={pending} />

        <div className="min-w-0">
          <span className={sectionLabel}>Customer</span>
          <p className="truncate">{order.userName || 'Unknown User'}</p>
          <p className="truncate text-sm text-base-content/70" title={order.userEmail}>
            {order.userEmail}
          </p>
        </div>

        <StatusSelects order={order} label={label} onOrderStatus={onOrderStatus} onPaymentStatus={onPaymentStatus} />

        <div className="flex min-w-0 flex-wrap items-end gap-2 @5xl:flex-col @5xl:items-start">
          <CredentialsCell order={order} label={label} closed={closed} onDeliver={onDeliver} />
          {order.report?.status === 'open' && <ReportSummary order={order} label={label} onReplace={onReplace} onDecline={onDecline} />}
          {(canDelete || canSeeHistory) && (
            <StaffButtons
              order={order}
              label={label}
              canDelete={canDelete}
              canSeeHistory={canSeeHistory}
              online={online}
              onDelete={onDelete}
              onHistory={onHistory}
            />
          )}
        </div>
        <CustomerPaymentDetails order={order} />
        <RailPaymentSummary order={order} online={online} />
      </article>
    </li>
  );
}

/** A problem report waiting for staff: what the customer said, and the two answers. */
function ReportSummary({
  order,
  label,
  onReplace,
  onDecline,
}: {
  order: Order;
  label: string;
  onReplace?: (order: Order) => void;
  onDecline?: (order: Order) => void;
}) {
  const report = order.report!;
  return (
    <div className="w-full min-w-0 rounded-box border border-error p-2 text-sm" data-testid="open-report">
      <p className="font-semibold">Problem: {reportReasonLabels[report.reason]}</p>
      {report.note && <p className="break-words whitespace-pre-line">{report.note}</p>}
      <p className="text-xs text-base-content/70">Reported {formatDateShort(report.reportedAt)}</p>
      {report.image && (
        <ExternalLink className="link link-primary" href={report.image}>
          Screenshot<span className="sr-only"> of the problem with {label}</span>
        </ExternalLink>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        {onReplace && (
          <button type="button" className="btn btn-primary btn-sm" onClick={() => onReplace(order)} aria-label={`Replace credentials of ${label}`}>
            Replace
          </button>
        )}
        {onDecline && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => onDecline(order)} aria-label={`Decline the problem report of ${label}`}>
            Decline
          </button>
        )}
      </div>
    </div>
  );
}
