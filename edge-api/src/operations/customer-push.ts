import type { Transaction } from 'kysely';
import { queuePush } from '../db/push.ts';
import type { Database, OrderRow, PushPayload } from '../db/schema.ts';

const statusWords: Record<string, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};
const paymentWords: Record<string, string> = { pending: 'Pending', paid: 'Paid', failed: 'Payment Failed', refunded: 'Refunded' };

/** The page a click on the notification opens: the order on My Orders. */
export const orderPage = (orderId: string) => `/my-orders#order-${orderId}`;

/**
 * What the customer is told of a change to their order by staff, if anything (decision 067): a first
 * delivery, a replacement, a rotated password, an answered problem report, or a new status. No
 * credential ever goes in a message: it says where to look.
 */
export function customerNotice(before: OrderRow, after: OrderRow): PushPayload | null {
  const of = (title: string, body: string): PushPayload => ({ title, body: `${after.title}: ${body}`, url: orderPage(after.id), tag: `order-${after.id}` });
  const rotated = after.credentials_rotated_at !== null && after.credentials_rotated_at.getTime() !== before.credentials_rotated_at?.getTime();
  if (rotated) return of('Password changed', 'the password of your delivery was changed. Open the order to see the new one.');
  if (after.wise_email !== null && before.wise_email === null) return of('Order delivered', 'your order is delivered. Open it to see your credentials.');
  if (after.wise_email !== null && (after.wise_email !== before.wise_email || after.wise_password_enc !== before.wise_password_enc)) {
    return of('Delivery replaced', 'your delivery was replaced. Open the order to see the new credentials.');
  }
  if (before.report_status === 'open' && after.report_status === 'declined') return of('Problem report answered', 'the shop answered your problem report.');
  if (after.order_status !== before.order_status)
    return of('Order status changed', `your order is now ${statusWords[after.order_status] ?? after.order_status}.`);
  if (after.payment_status !== before.payment_status)
    return of('Payment status changed', `payment is now ${paymentWords[after.payment_status] ?? after.payment_status}.`);
  return null;
}

/** Queues the customer's message in the change's transaction; sent once it commits (push/send.ts). */
export async function tellCustomer(trx: Transaction<Database>, before: OrderRow, after: OrderRow): Promise<void> {
  const notice = customerNotice(before, after);
  if (notice) await queuePush(trx, { userId: after.user_id }, notice);
}
