/**
 * Payments confirmed by the rails themselves (issue 26; decisions 200-203): what the customer's order
 * shows of a payment under way, what staff see of each inbound event, and the admin's rail settings.
 */

/** The rails a shop can switch on; every other payment method stays manual, with a proof (decision 060). */
export const paymentRails = ['usdt_trc20', 'binance_pay', 'bkash'] as const;
export type PaymentRail = (typeof paymentRails)[number];
export const isPaymentRail = (value: unknown): value is PaymentRail => (paymentRails as readonly unknown[]).includes(value);

export const railNames: Record<PaymentRail, string> = {
  usdt_trc20: 'USDT (TRC20)',
  binance_pay: 'Binance Pay',
  bkash: 'bKash',
};

/** The payment method id (as services and orders name them) each rail confirms by itself. */
export const railMethods: Record<PaymentRail, string> = { usdt_trc20: 'usdt', binance_pay: 'binance', bkash: 'bkash' };
export const railForMethod = (method: string | null | undefined): PaymentRail | undefined =>
  paymentRails.find((rail) => railMethods[rail] === method?.toLowerCase());

/**
 * Where a payment stands, as the customer and staff see it:
 * - waiting: the amount is shown; nothing has arrived yet
 * - paid: the rail confirmed the amount due; the order is paid (and delivered when it delivers by itself)
 * - underpaid, overpaid, late, duplicate: money arrived but was not accepted on its own; staff decide
 * - expired: the window passed unpaid; the order was cancelled
 * - refunded: the rail reported the money returned
 */
export type PaymentState = 'waiting' | 'paid' | 'underpaid' | 'overpaid' | 'late' | 'duplicate' | 'expired' | 'refunded';

/** The payment under way on an order (Order.payment): amounts as decimal text, to the last digit. */
export interface OrderPayment {
  rail: PaymentRail;
  state: PaymentState;
  currency: string;
  /** Exactly what to pay, e.g. "30.000137". */
  amount: string;
  /** What arrived, when it differs from the amount (underpaid, overpaid). */
  amountReceived?: string;
  /** Where to send it: the shop's TRON address. */
  payTo?: string;
  /** Where to pay: Binance Pay's checkout or bKash's page. */
  payUrl?: string;
  /** What the QR code holds. */
  qrContent?: string;
  expiresAt: string;
}

/** The outcome an inbound event had: what it changed, or why it changed nothing. */
export type PaymentOutcome = 'paid' | 'underpaid' | 'overpaid' | 'late' | 'already_paid' | 'unmatched' | 'refunded' | 'closed' | 'ignored';

/** One inbound event from a rail, as staff see it in the order's history. */
export interface PaymentEventView {
  id: string;
  rail: PaymentRail;
  kind: string;
  reference: string;
  amount: string | null;
  currency: string;
  outcome: PaymentOutcome;
  /** How often the rail told us (a replayed webhook counts here and changes nothing). */
  seen: number;
  receivedAt: string;
  lastSeenAt: string;
}

/** A rail as the admin sees it: the settings in clear, each secret only as whether it is set. */
export interface PaymentRailView {
  rail: PaymentRail;
  enabled: boolean;
  settings: Record<string, string>;
  secretsSet: string[];
  /** What the rail still needs before it can be switched on. */
  missing: string[];
}

/** GET /api/admin/payments. */
export interface PaymentSettingsView {
  expiryMinutes: number;
  /** Taka per US dollar, for bKash amounts of USD prices (and USDT amounts of BDT prices); null: not set. */
  bdtPerUsd: string | null;
  rails: PaymentRailView[];
  /** Where the rails send their callbacks: what the owner gives Binance and bKash. */
  webhookUrls: { binancePay: string; bkash: string };
}

/** The settings and secrets each rail takes; a secret is written, never read back. */
export const railFields: Record<PaymentRail, { settings: readonly string[]; secrets: readonly string[]; required: readonly string[] }> = {
  usdt_trc20: { settings: ['address', 'contract'], secrets: ['apiKey'], required: ['address'] },
  binance_pay: { settings: [], secrets: ['apiKey', 'secretKey'], required: ['apiKey', 'secretKey'] },
  bkash: { settings: [], secrets: ['appKey', 'appSecret', 'username', 'password'], required: ['appKey', 'appSecret', 'username', 'password'] },
};

/** Tether's USDT contract on TRON mainnet. */
export const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** What a rail still lacks before it can take payments. */
export const missingFields = (rail: PaymentRail, settings: Record<string, string>, secretNames: readonly string[]) =>
  railFields[rail].required.filter((field) => !(settings[field] || secretNames.includes(field)));
