import type { Order, OrderStatus, PaymentStatus } from '../../../../edge-api/src/contract.ts';
import { capitalize, formatDateShort } from '../../lib/format.ts';
import { normalizeOrderStatus, normalizePaymentStatus, shortOrderId } from '../../lib/order-rules.ts';
import { orderStatuses, paymentStatuses } from './order-filters.ts';

export interface OrdersTableProps {
  orders: readonly Order[];
  pendingIds: ReadonlySet<string>;
  isAdmin: boolean;
  online: boolean;
  onOrderStatus: (order: Order, status: OrderStatus) => void;
  onPaymentStatus: (order: Order, status: PaymentStatus) => void;
  onDeliver: (order: Order) => void;
  onDelete: (order: Order) => void;
  onHistory: (order: Order) => void;
}

export function OrdersTable({ orders, pendingIds, isAdmin, online, onOrderStatus, onPaymentStatus, onDeliver, onDelete, onHistory }: OrdersTableProps) {
  return (
    <div className="overflow-x-auto rounded-box bg-base-100 shadow-sm">
      <table className="table">
        <caption className="sr-only">Orders</caption>
        <thead className="text-base-content">
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Customer</th>
            <th scope="col">Price</th>
            <th scope="col">Order Status</th>
            <th scope="col">Payment</th>
            <th scope="col">Credentials</th>
            {isAdmin && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const label = `order #${shortOrderId(order.id)}`;
            const pending = pendingIds.has(order.id);
            return (
              <tr key={order.id} className={pending ? 'bg-warning/10' : undefined}>
                <td>
                  <div className="font-mono text-xs text-base-content/70">#{shortOrderId(order.id)}</div>
                  <div className="font-medium">{order.title}</div>
                  <div className="text-xs text-base-content/70">{formatDateShort(order.orderDate)}</div>
                  {pending && <span className="badge badge-warning badge-sm mt-1">Pending sync</span>}
                </td>
                <td>
                  <div>{order.userName || 'Unknown User'}</div>
                  <div className="text-sm whitespace-nowrap text-base-content/70">{order.userEmail}</div>
                </td>
                <td className="whitespace-nowrap">${order.price}</td>
                <td>
                  <select
                    className="select select-sm w-36"
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
                </td>
                <td>
                  <select
                    className="select select-sm w-36"
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
                </td>
                <td className="text-sm">
                  {order.wiseEmail ? (
                    <>
                      <div className="whitespace-nowrap">{order.wiseEmail}</div>
                      {order.stockId && <span className="badge badge-ghost badge-sm">from stock</span>}
                      {order.wiseImage && (
                        <a className="link link-primary block" href={order.wiseImage} target="_blank" rel="noreferrer">
                          Proof image<span className="sr-only"> of {label} (opens in a new tab)</span>
                        </a>
                      )}
                    </>
                  ) : (
                    <button type="button" className="btn btn-outline btn-xs" onClick={() => onDeliver(order)} aria-label={`Add credentials to ${label}`}>
                      Add credentials
                    </button>
                  )}
                </td>
                {isAdmin && (
                  <td>
                    <div className="flex gap-1">
                      <button type="button" className="btn btn-ghost btn-xs" onClick={() => onHistory(order)} disabled={!online} aria-label={`History of ${label}`}>
                        History
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs text-error"
                        onClick={() => onDelete(order)}
                        disabled={!online}
                        aria-label={`Delete ${label}`}
                        title={online ? 'Delete Order' : 'Deleting needs a connection'}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
