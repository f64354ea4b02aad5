import type { AuditEntry } from '../../../../edge-api/src/contract/audit.ts';
import { formatDateTime } from '../../lib/format.ts';

interface StatusPair {
  paymentStatus?: unknown;
  orderStatus?: unknown;
}

const asPair = (value: unknown): StatusPair => (value && typeof value === 'object' ? (value as StatusPair) : {});

/** One audit entry as a sentence: what changed on the order. */
export function describeAuditEntry(entry: AuditEntry): string {
  const details = entry.details ?? {};
  const from = asPair(details.from);
  const to = asPair(details.to);
  const changes: string[] = [];
  if (to.orderStatus !== undefined && to.orderStatus !== from.orderStatus) changes.push(`order status ${String(from.orderStatus)} → ${String(to.orderStatus)}`);
  if (to.paymentStatus !== undefined && to.paymentStatus !== from.paymentStatus) {
    changes.push(`payment status ${String(from.paymentStatus)} → ${String(to.paymentStatus)}`);
  }
  switch (entry.action) {
    case 'order.deliver': {
      const source = details.delivered === 'stock' ? 'from stock' : 'typed credentials';
      const email = typeof details.wiseEmail === 'string' ? ` (${details.wiseEmail})` : '';
      const proof = details.proofImage ? ', with proof image' : '';
      return `Delivered ${source}${email}${proof}${changes.length ? `; ${changes.join(', ')}` : ''}`;
    }
    case 'order.update':
      return changes.length ? `Changed ${changes.join(', ')}` : 'Updated the order';
    case 'order.create':
      return 'Placed the order';
    case 'order.delete':
      return 'Deleted the order';
    case 'order.first_view': {
      const device = typeof details.deviceLabel === 'string' && details.deviceLabel ? ` (${details.deviceLabel})` : '';
      const at = typeof details.revealedAt === 'string' ? ` on ${formatDateTime(details.revealedAt)}` : '';
      return `The customer first viewed the password${at}${device}`;
    }
    case 'order.cancel':
      return 'The customer cancelled the order';
    case 'order.payment_proof': {
      const reference = typeof details.transactionId === 'string' ? ` transaction ID ${details.transactionId}` : '';
      const screenshot = details.screenshot ? `${reference ? ' and' : ''} a screenshot` : '';
      const reused =
        Array.isArray(details.reusedOn) && details.reusedOn.length > 0
          ? ` (already used on ${details.reusedOn.length} other order${details.reusedOn.length === 1 ? '' : 's'})`
          : '';
      return `Sent a payment proof:${reference}${screenshot}${reused}`;
    }
    default:
      return changes.length ? `${entry.action}: ${changes.join(', ')}` : entry.action;
  }
}
