import type { OutboxEntry } from '../../db/local-db.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

/** A queued change as the admin would say it, for the list of changes the server refused. */
export function describeChange(entry: Pick<OutboxEntry, 'name' | 'args' | 'target'>): string {
  const args = entry.args;
  const orderId = typeof args.orderId === 'string' ? args.orderId : entry.target?.id;
  const order = orderId ? `order #${shortOrderId(orderId)}` : 'an order';
  switch (entry.name) {
    case 'setOrderStatus':
      return `Set ${order} status to ${String(args.orderStatus)}`;
    case 'setPaymentStatus':
      return `Set ${order} payment to ${String(args.paymentStatus)}`;
    case 'deliverOrder':
      return typeof args.stockId === 'string'
        ? `Deliver ${order} from stock`
        : `Deliver ${order} with ${typeof args.wiseEmail === 'string' ? args.wiseEmail : 'typed credentials'}`;
    case 'setStockStatus':
      return `Set stock status to ${String(args.status)}`;
    case 'placeOrder':
      return 'Place an order';
    case 'reportProblem':
      return `Report a problem with ${order}`;
    case 'declineReport':
      return `Decline the problem report of ${order}`;
    default:
      return String(entry.name);
  }
}

/** Only the order screen's own kinds of change are listed there. */
export const isOrderChange = (entry: Pick<OutboxEntry, 'name'>) =>
  entry.name === 'setOrderStatus' || entry.name === 'setPaymentStatus' || entry.name === 'deliverOrder' || entry.name === 'declineReport';
