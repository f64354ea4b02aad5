import { useState } from 'react';
import type { Order, OrderStatus, PaymentStatus } from '../../../../edge-api/src/contract/orders.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { useToast } from '../../components/toast.tsx';
import { forgetOnDevice } from '../../db/device-copy.ts';
import { useUserDb } from '../../db/hooks.ts';
import { setOrderStatus, setPaymentStatus } from '../../db/mutations.ts';
import { serverOutcome, type ServerOutcome } from '../../db/server-outcome.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { capitalize } from '../../lib/format.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { saveBlobAs } from '../../lib/save-file.ts';
import { getAccessToken } from '../../lib/supabase.ts';
import { deliversAutomatically, markPaidForAutoDelivery } from './auto-delivery.ts';
import { exportCsvUrl, type OrderFilters } from './order-filters.ts';

/** A change's toast: done, or kept on this device until it syncs. */
const changedMessage = (done: string, outcome: ServerOutcome) =>
  outcome === 'confirmed' ? `${done}.` : `${done} on this device; it syncs when the connection returns.`;

/**
 * What staff do to an order from the list: its status and payment status (queued on the device), and the
 * delete. `onDeliver` opens the credentials modal: 'paid' saves nothing until Approve & Deliver (spec).
 */
export function useOrderActions(userId: string, reload: () => void, onDeliver: (order: Order) => void) {
  const toast = useToast();
  const confirm = useConfirm();
  const db = useUserDb();

  const changeOrderStatus = async (order: Order, orderStatus: OrderStatus) => {
    if (orderStatus === order.orderStatus) return;
    try {
      const handle = setOrderStatus(
        userId,
        { orderId: order.id, orderStatus, version: order.version, from: order.orderStatus },
        { shown: { orders: [order] } },
      );
      const outcome = await serverOutcome(handle.done);
      toast.success(changedMessage(`Order #${shortOrderId(order.id)} is now ${capitalize(orderStatus)}`, outcome));
    } catch (error) {
      console.error('Order status update failed', error);
      toast.error('Failed to update order status.');
    }
  };

  const markPaid = async (order: Order) => {
    // A service that delivers by itself (decision 061): 'paid' is saved, and the server delivers from stock.
    if (!db || !(await deliversAutomatically(order))) return onDeliver(order);
    try {
      const told = await markPaidForAutoDelivery(userId, db, order);
      if (told.ok) toast.success(told.text);
      else toast.error(told.text, 8000);
    } catch (error) {
      console.error('Payment status update failed', error);
      toast.error('Failed to update payment status.');
    }
  };

  const changePaymentStatus = async (order: Order, paymentStatus: PaymentStatus) => {
    if (paymentStatus === order.paymentStatus) return;
    if (paymentStatus === 'paid') return markPaid(order);
    try {
      const handle = setPaymentStatus(
        userId,
        { orderId: order.id, paymentStatus, version: order.version, from: order.paymentStatus },
        { shown: { orders: [order] } },
      );
      const outcome = await serverOutcome(handle.done);
      toast.success(changedMessage(`Payment of order #${shortOrderId(order.id)} is now ${capitalize(paymentStatus)}`, outcome));
    } catch (error) {
      console.error('Payment status update failed', error);
      toast.error('Failed to update payment status.');
    }
  };

  const deleteOrder = async (order: Order) => {
    const confirmed = await confirm({
      title: 'Delete order?',
      subject: [`Order #${shortOrderId(order.id)}: ${order.title}`, `${order.userName || 'Unknown User'} (${order.userEmail}), $${order.price}`],
      text: 'Are you sure you want to delete this order?',
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await unwrap(api.admin.orders[':id'].$delete({ param: { id: order.id } }));
      if (db) await forgetOnDevice(db, { orders: [order.id] });
      toast.success(`Order #${shortOrderId(order.id)} deleted.`);
      reload();
    } catch (error) {
      console.error('Order delete failed', error);
      toast.error('Failed to delete order.');
    }
  };

  return { changeOrderStatus, changePaymentStatus, deleteOrder };
}

function filenameFrom(disposition: string | null): string {
  const match = disposition?.match(/filename="?([^";]+)"?/i);
  return match?.[1] ?? `orders-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** The CSV export of the orders the filters select; `exporting` while it downloads. */
export function useOrdersExport(filters: OrderFilters) {
  const toast = useToast();
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      const token = await getAccessToken();
      const response = await fetch(exportCsvUrl(filters), { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!response.ok) throw new Error(`Export failed (${response.status})`);
      saveBlobAs(await response.blob(), filenameFrom(response.headers.get('content-disposition')));
    } catch (error) {
      console.error('Order export failed', error);
      toast.error('Failed to export orders.');
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportCsv };
}
