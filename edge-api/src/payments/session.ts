import type { OrderPayment, PaymentOutcome, PaymentState } from '../contract/payments.ts';
import type { PaymentIntentRow } from '../db/payment-schema.ts';

/** What the customer's order shows of an intent in `state` (orders.payment_session). */
export function sessionOf(intent: PaymentIntentRow, state: PaymentState, amountReceived?: string | null): OrderPayment {
  return {
    rail: intent.rail,
    state,
    currency: intent.currency,
    amount: intent.amount,
    ...(amountReceived && { amountReceived }),
    ...(intent.pay_to && { payTo: intent.pay_to }),
    ...(intent.checkout_url && { payUrl: intent.checkout_url }),
    ...(intent.qr_content && { qrContent: intent.qr_content }),
    expiresAt: new Date(intent.expires_at).toISOString(),
  };
}

/** The state an order shows after an event with this outcome. */
export const stateForOutcome: Partial<Record<PaymentOutcome, PaymentState>> = {
  paid: 'paid',
  underpaid: 'underpaid',
  overpaid: 'overpaid',
  late: 'late',
  already_paid: 'duplicate',
  refunded: 'refunded',
};
