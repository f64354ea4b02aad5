import { useLiveQuery } from 'dexie-react-hooks';
import { awaitsDelivery, awaitsPaymentCheck, type AttentionFields } from '../../../edge-api/src/contract/order-attention.ts';
import type { AttentionItem } from '../components/notification-bell.tsx';
import { useUserDb } from '../db/hooks.ts';
import { useSyncStatus } from '../db/sync-status.ts';
import { isOrderChange } from '../features/admin-orders/outbox-change.ts';

/**
 * What staff can act on now, from the orders on this device (the staff working set: every order not yet
 * delivered) and the changes the server refused: the bell's list.
 */
export function attentionItems(orders: readonly AttentionFields[], refusedChanges: number): AttentionItem[] {
  const awaitingPayment = orders.filter(awaitsPaymentCheck).length;
  const awaitingDelivery = orders.filter(awaitsDelivery).length;
  return [
    { id: 'payment-checks', count: awaitingPayment, text: 'Orders waiting for a payment check', to: '/dashboard?attention=payment-check' },
    { id: 'deliveries', count: awaitingDelivery, text: 'Paid orders waiting for delivery', to: '/dashboard?attention=delivery' },
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
