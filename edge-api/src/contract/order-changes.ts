/**
 * What an order looks like after a change (decision 249): one pure function, used by the device for its
 * optimistic copy and by the server for the values it writes, so the two cannot drift apart. It owns the
 * fields a change sets from the order as it is and the change's clock: the statuses, the cancel time, the
 * payment proof's reference and time, the problem report, the count of password views. What only the
 * server can know (a signed screenshot URL, sealed secrets, a stock claimed under a lock) stays with it.
 */
import type { Order, OrderStatus, PaymentStatus, ReportReason } from './orders.ts';

/** Every change a device can queue on an order, as the module sees it (the outbox carries more: ids, pictures, secrets). */
export type OrderChange =
  | { kind: 'setOrderStatus'; orderStatus: OrderStatus }
  | { kind: 'setPaymentStatus'; paymentStatus: PaymentStatus }
  /** A delivery of any kind: the order becomes paid and delivered; its credentials or stock are each side's own. */
  | { kind: 'deliver' }
  | { kind: 'cancel' }
  | { kind: 'sendPaymentProof'; transactionId?: string }
  | { kind: 'reportProblem'; reason: ReportReason; note: string }
  | { kind: 'declineReport'; message: string }
  /** `revealedAt`: when the device showed the password, perhaps long before it was sent. */
  | { kind: 'logReveal'; revealedAt: string; deviceLabel: string };

/** The order's fields a change reads. */
export type OrderBeforeChange = Pick<
  Order,
  'orderStatus' | 'paymentStatus' | 'paymentProof' | 'report' | 'views' | 'deliveredAt' | 'wiseEmail' | 'deliveryKind'
>;

/** The fields the module owns: what a change sets on the order. */
export type OrderChangeFields = Partial<Pick<Order, 'orderStatus' | 'paymentStatus' | 'cancelledAt' | 'paymentProof' | 'report' | 'views' | 'updatedAt'>>;

/** The change's clock: the device's when it is made, the server's when it is taken. */
export interface OrderChangeContext {
  now: Date;
}

/** When a logged view happened: as the device said, but never ahead of the clock nor before the delivery. */
export function revealTime(revealedAt: string, order: OrderBeforeChange, now: Date): Date {
  let at = new Date(revealedAt);
  if (at.getTime() > now.getTime()) at = now;
  if (order.deliveredAt && at.getTime() < new Date(order.deliveredAt).getTime()) at = new Date(order.deliveredAt);
  return at;
}

/** The fields `change` sets on `order`, and nothing else; `updatedAt` is the change's time (the server writes its own). */
export function orderChangeFields(order: OrderBeforeChange, change: OrderChange, { now }: OrderChangeContext): OrderChangeFields {
  const at = now.toISOString();
  switch (change.kind) {
    case 'setOrderStatus':
      return { orderStatus: change.orderStatus, updatedAt: at };
    case 'setPaymentStatus':
      return { paymentStatus: change.paymentStatus, updatedAt: at };
    case 'deliver': {
      // A delivery in place of another answers an open problem report (decision 063).
      const replacing = !!order.wiseEmail || !!order.deliveryKind;
      if (!replacing || order.report?.status !== 'open') return { paymentStatus: 'paid', orderStatus: 'delivered', updatedAt: at };
      const { reply: _reply, ...report } = order.report;
      return { paymentStatus: 'paid', orderStatus: 'delivered', report: { ...report, status: 'replaced', resolvedAt: at }, updatedAt: at };
    }
    case 'cancel':
      return { orderStatus: 'cancelled', cancelledAt: at, updatedAt: at };
    case 'sendPaymentProof': {
      // A second proof adds to the first: a transaction id sent after the screenshot keeps the screenshot.
      const before = order.paymentProof;
      const transactionId = change.transactionId || before?.transactionId || null;
      return { paymentProof: { transactionId, sentAt: at, ...(before?.screenshotUrl ? { screenshotUrl: before.screenshotUrl } : {}) }, updatedAt: at };
    }
    case 'reportProblem':
      return { report: { status: 'open', reason: change.reason, note: change.note, reportedAt: at }, updatedAt: at };
    case 'declineReport': {
      const report = order.report ?? { status: 'open' as const, reason: 'other' as const, note: '', reportedAt: at };
      return { report: { ...report, status: 'declined', reply: change.message, resolvedAt: at }, updatedAt: at };
    }
    case 'logReveal': {
      const seen = revealTime(change.revealedAt, order, now);
      const before = order.views;
      const first = !before || seen.getTime() < new Date(before.firstAt).getTime();
      const views = {
        count: (before?.count ?? 0) + 1,
        firstAt: first ? seen.toISOString() : before.firstAt,
        firstDevice: first ? change.deviceLabel : before.firstDevice,
      };
      return { views, updatedAt: at };
    }
  }
}

/** The order once `change` is taken: the fields it sets over the order as it was. */
export function orderAfterChange<O extends OrderBeforeChange>(order: O, change: OrderChange, context: OrderChangeContext): O & OrderChangeFields {
  return { ...order, ...orderChangeFields(order, change, context) };
}

/** The fields of `order` the module owns, for comparing two copies of one order. */
export function ownedFields(order: Partial<Order>): OrderChangeFields {
  const { orderStatus, paymentStatus, cancelledAt, paymentProof, report, views } = order;
  const proof = paymentProof && { transactionId: paymentProof.transactionId, sentAt: paymentProof.sentAt };
  const ownReport = report && {
    status: report.status,
    reason: report.reason,
    note: report.note,
    reportedAt: report.reportedAt,
    ...(report.reply ? { reply: report.reply } : {}),
    ...(report.resolvedAt ? { resolvedAt: report.resolvedAt } : {}),
  };
  return JSON.parse(JSON.stringify({ orderStatus, paymentStatus, cancelledAt, paymentProof: proof, report: ownReport, views })) as OrderChangeFields;
}
