import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { Confirm, ConfirmOptions } from '../../components/confirm-dialog.tsx';
import { shortOrderId } from '../../lib/order-rules.ts';

/** Whether a delivery now changes what the customer already sees on the order: a replacement, or any delivery over one. */
const changesWhatCustomerSees = (order: Order, replace: boolean): boolean =>
  replace || Boolean(order.wiseEmail || order.deliveryKind || order.stockId || order.serviceStockId);

/**
 * The question asked before a delivery replaces what a customer sees (issue 33 item 2, decision 229): it
 * names the order and its customer first, and says what happens to what they see now.
 */
function deliveryChangeQuestion(order: Order, what: string): ConfirmOptions {
  const id = shortOrderId(order.id);
  return {
    title: 'Change what the customer sees?',
    subject: [`Order #${id}: ${order.title}`, order.userName ? `${order.userName} (${order.userEmail})` : order.userEmail],
    text: `${what} This order shows it at once in place of its current delivery (kept in the order's history), and its customer is told.`,
    confirmLabel: `Change order #${id}`,
  };
}

/**
 * Whether a delivery may go on (decision 229): at once when it changes nothing the customer sees yet,
 * else only once staff confirmed the question naming the order and its customer. `what` says what the
 * delivery puts in place ("These WISE credentials replace what the customer sees.").
 */
export async function confirmDeliveryChange(confirm: Confirm, order: Order, replace: boolean, what: string): Promise<boolean> {
  return !changesWhatCustomerSees(order, replace) || confirm(deliveryChangeQuestion(order, what));
}
