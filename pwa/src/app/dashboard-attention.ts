import { useLiveQuery } from 'dexie-react-hooks';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { AttentionItem } from '../components/notification-bell.tsx';
import { useUserDb } from '../db/hooks.ts';
import { useSyncStatus } from '../db/sync-status.ts';
import { isOrderChange } from '../features/admin-orders/outbox-change.ts';
import { normalizeOrderStatus, normalizePaymentStatus } from '../lib/order-rules.ts';

/**
 * What staff can act on now, from the orders on this device (the staff working set: every order not yet
 * delivered) and the changes the server refused: the bell's list.
 */
export function attentionItems(orders: readonly Pick<Order, 'orderStatus' | 'paymentStatus' | 'wiseEmail'>[], refusedChanges: number): AttentionItem[] {
  let awaitingPayment = 0;
  let awaitingDelivery = 0;
  for (const order of orders) {
    const status = normalizeOrderStatus(order.orderStatus);
    if (status !== 'pending' && status !== 'processing') continue;
    const payment = normalizePaymentStatus(order.paymentStatus);
    if (payment === 'pending') awaitingPayment++;
    else if (payment === 'paid' && !order.wiseEmail) awaitingDelivery++;
  }
  return [
    { id: 'payment-checks', count: awaitingPayment, text: 'Orders waiting for a payment check', to: '/dashboard?paymentStatus=pending' },
    { id: 'deliveries', count: awaitingDelivery, text: 'Paid orders waiting for delivery', to: '/dashboard?paymentStatus=paid' },
    { id: 'refused-changes', count: refusedChanges, text: 'Changes the server refused', to: '/dashboard' },
  ];
}

/** The bell's items, kept up to date as orders sync; undefined while the device is read. */
export function useAttentionItems(): AttentionItem[] | undefined {
  const db = useUserDb();
  const { failed } = useSyncStatus();
  // Only the payment states that can need someone, read through the index.
  const orders = useLiveQuery(async () => (db ? db.orders.where('paymentStatus').anyOf(['pending', 'paid']).toArray() : []), [db]);
  return orders === undefined ? undefined : attentionItems(orders, failed.filter(isOrderChange).length);
}
