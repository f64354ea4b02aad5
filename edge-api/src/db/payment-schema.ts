import type { ColumnType, Selectable } from 'kysely';
import type { OrderPayment, PaymentOutcome, PaymentRail } from '../contract/payments.ts';
import type { NullableTime, Timestamp } from './column-types.ts';

/** numeric columns: pg answers them as text, to the last digit. */
type Decimal = ColumnType<string, string, string>;

/** The one row of the shop's payment window and exchange rate (decision 200). */
export interface PaymentSettingsTable {
  id: 'payments';
  expiry_minutes: ColumnType<number, number | undefined, number>;
  bdt_per_usd: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

/** A rail the admin set up: settings in clear, secrets sealed with the credentials key. */
export interface PaymentRailsTable {
  rail: PaymentRail;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  settings: ColumnType<Record<string, string>, string | undefined, string>;
  secrets_enc: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

export type IntentStatus = 'open' | 'paid' | 'held' | 'expired' | 'replaced' | 'refunded';

/** What an order asks a customer to pay on one rail (decision 201). */
export interface PaymentIntentsTable {
  id: string;
  order_id: string;
  rail: PaymentRail;
  currency: string;
  amount: Decimal;
  pay_to: string | null;
  /** The exact USDT amount's identifying micro-units (1..9999), or null on other rails. */
  tail: number | null;
  /** The rail's id of it: Binance's prepayId, bKash's paymentID. */
  reference: string | null;
  checkout_url: string | null;
  qr_content: string | null;
  status: ColumnType<IntentStatus, IntentStatus | undefined, IntentStatus>;
  amount_received: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
  closed_at: NullableTime;
}

/** One inbound fact from a rail, recorded once by its key before it changes anything (decision 202). */
export interface PaymentEventsTable {
  id: string;
  event_key: string;
  rail: PaymentRail;
  kind: string;
  order_id: string | null;
  intent_id: string | null;
  reference: ColumnType<string, string | undefined, string>;
  amount: ColumnType<string | null, string | null | undefined, string | null>;
  currency: ColumnType<string, string | undefined, string>;
  outcome: PaymentOutcome;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  seen_count: ColumnType<number, number | undefined, number>;
  received_at: Timestamp;
  last_seen_at: Timestamp;
}

/** A receipt written in the payment's transaction, sent once it committed. */
export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  link: string;
  created_at: Timestamp;
}

/** orders.payment_session: what the customer's device shows of the payment under way. */
export type PaymentSessionColumn = ColumnType<OrderPayment | null, string | null | undefined, string | null>;

export type PaymentIntentRow = Selectable<PaymentIntentsTable>;
export type PaymentEventRow = Selectable<PaymentEventsTable>;
export type PaymentRailRow = Selectable<PaymentRailsTable>;
