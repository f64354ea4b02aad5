import type { ColumnType, Generated, Selectable } from 'kysely';
import type { OrderStatus, PaymentStatus, ReportStatus } from '../contract/orders.ts';
import type { Role } from '../contract/users.ts';
import type { StockStatus } from '../contract/wise-stocks.ts';
import type { DeliveryDetails, DeliveryKind, OtherDeliveryKind } from '../contract/deliveries.ts';
import type {
  MailOutboxTable,
  PaymentEventsTable,
  PaymentIntentsTable,
  PaymentRailsTable,
  PaymentSessionColumn,
  PaymentSettingsTable,
} from './payment-schema.ts';
import type { CouponsTable, CouponUsesTable } from './coupon-schema.ts';
import type { TicketMessagesTable, TicketsTable } from './ticket-schema.ts';
import type { ApiKeysTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './partner-schema.ts';
import type { DeviceVaultsTable } from './vault-schema.ts';
import type { CustomerPricesTable, ServicePriceTiersTable } from './pricing-schema.ts';
import type { AuthOneTimeTokensTable, AuthRefreshTokensTable, AuthSessionsTable, AuthUsersTable } from './auth-schema.ts';
import type { Json, JsonWithDefault, NullableTime, Timestamp } from './column-types.ts';

/** Other orders that already used an order's payment proof (issue 17). */
export interface ProofReuse {
  transactionId: string[];
  screenshot: string[];
}

/** Both drivers are set to parse int8 as a JS number; versions stay far below 2^53. */
type Version = ColumnType<number, number, number>;

interface Synced {
  created_at: Timestamp;
  updated_at: Timestamp;
  version: Version;
  deleted_at: NullableTime;
}

export interface UsersTable extends Synced {
  id: string;
  email: string;
  display_name: Generated<string>;
  mobile: Generated<string>;
  user_role: Generated<Role>;
}

export interface ServicesTable extends Synced {
  id: string;
  title: string;
  description: string;
  category: string;
  features: JsonWithDefault<string[]>;
  popular: Generated<boolean>;
  image: Generated<string>;
  price: string;
  delivery_time: string;
  payment_methods: JsonWithDefault<string[]>;
  /** Delivers from stock by itself when an order is marked paid (decision 061). */
  auto_deliver: Generated<boolean>;
  /** Below this many available stock accounts, staff are warned; null: the shop's threshold. */
  low_stock_threshold: ColumnType<number | null, number | null | undefined, number | null>;
  needs_details: Generated<boolean>;
  details_hint: Generated<string>;
  /** Days after delivery in which a customer may report a problem; 0: no warranty (decision 063). */
  warranty_days: Generated<number>;
  /** What an order of it delivers (decision 069). */
  delivery_kind: Generated<DeliveryKind>;
}

export interface OrdersTable extends Synced {
  id: string;
  product_id: string;
  title: string;
  description: Generated<string>;
  category: Generated<string>;
  image: Generated<string>;
  price: string;
  delivery_time: Generated<string>;
  user_id: string;
  user_email: string;
  user_name: Generated<string>;
  payment_status: Generated<PaymentStatus>;
  order_status: Generated<OrderStatus>;
  order_date: Timestamp;
  wise_email: string | null;
  wise_email_index: string | null;
  wise_password_enc: string | null;
  wise_password_index: string | null;
  wise_image: string | null;
  stock_id: string | null;
  /** The item of a service's own stock it was delivered from (decision 072). */
  service_stock_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The customer's note to the shop, and the payment method chosen when ordering (issue 17). */
  note: Generated<string>;
  payment_method: string | null;
  /** What the service was listed at, the coupon used and its discount, when a coupon changed the price (decision 220). */
  list_price: ColumnType<string | null, string | null | undefined, string | null>;
  coupon_code: ColumnType<string | null, string | null | undefined, string | null>;
  discount: ColumnType<string | null, string | null | undefined, string | null>;
  /** Ordered with just an email (decision 177): the SHA-256 of the placing device's order-state token, and its end. */
  status_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  status_token_expires_at: NullableTime;
  /** How many were bought, the unit price charged and the rule that set it (decision 178): kept as placed. */
  quantity: ColumnType<number, number | undefined, number>;
  unit_price: ColumnType<string | null, string | null | undefined, string | null>;
  price_rule: ColumnType<string | null, string | null | undefined, string | null>;
  /** The customer's payment proof: a transaction id, a screenshot (blob ref) and the SHA-256 of its bytes. */
  payment_reference: string | null;
  payment_proof: string | null;
  payment_proof_hash: string | null;
  proof_at: NullableTime;
  /** The other orders that used the same transaction id or screenshot when this proof came. */
  proof_reuse: ColumnType<ProofReuse | null, string | null | undefined, string | null>;
  /** Set when the customer cancelled the order. */
  cancelled_at: NullableTime;
  /** Set by the trigger orders_first_delivery when credentials first land (decision 063). */
  delivered_at: NullableTime;
  warranty_ends_at: NullableTime;
  report_status: ColumnType<ReportStatus | null, ReportStatus | null | undefined, ReportStatus | null>;
  report_reason: ColumnType<string | null, string | null | undefined, string | null>;
  report_note: Generated<string>;
  report_image: ColumnType<string | null, string | null | undefined, string | null>;
  reported_at: NullableTime;
  report_reply: Generated<string>;
  report_resolved_at: NullableTime;
  /** The deliveries this order had before, oldest first, passwords still sealed. */
  delivery_history: JsonWithDefault<StoredDelivery[]>;
  credentials_rotated_at: NullableTime;
  /** The customer's reveals of the delivered password: how many, and the first (decision 066). */
  reveal_count: Generated<number>;
  first_revealed_at: NullableTime;
  first_reveal_device: ColumnType<string | null, string | null | undefined, string | null>;
  /** A delivery other than an account (decision 069): null while none, or when the Wise columns hold it. */
  delivery_kind: ColumnType<OtherDeliveryKind | null, OtherDeliveryKind | null | undefined, OtherDeliveryKind | null>;
  /** What may be shown of it: host, port, user; the file's private reference, name and size; the line count. */
  delivery_details: ColumnType<DeliveryDetails | null, string | null | undefined, string | null>;
  /** The secret, sealed with the credentials key: the server password, or the lines joined by newlines. */
  delivery_secret_enc: ColumnType<string | null, string | null | undefined, string | null>;
  /** A blind index of each secret (the server password; each line) for the duplicate checks. */
  delivery_secret_indexes: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /** The payment under way on a rail (issue 26): what the customer's device shows. */
  payment_session: PaymentSessionColumn;
}

/** One earlier delivery of an order, as orders.delivery_history keeps it. */
export interface StoredDelivery {
  /** When it stopped being the order's delivery. */
  at: string;
  /** Why: replaced by staff (after a report or not), or its password rotated in stock. */
  kind: 'replaced' | 'rotated';
  wiseEmail: string;
  /** Sealed as orders.wise_password_enc was: never opened for anyone. */
  wisePasswordEnc: string | null;
  wiseImage: string | null;
  stockId: string | null;
  /** The item of a service's own stock it came from (decision 072). */
  serviceStockId?: string;
  /** Who made the change. */
  byEmail: string;
  /** A delivery of another kind than an account (decision 069): its kind, what may be shown, the secret still sealed. */
  deliveryKind?: OtherDeliveryKind;
  deliveryDetails?: DeliveryDetails;
  deliverySecretEnc?: string | null;
}

export interface WiseStocksTable extends Synced {
  id: string;
  wise_name: string;
  wise_email: string;
  wise_password_enc: string;
  wise_password_index: string;
  auth_image: string;
  doc_img1: Generated<string>;
  doc_img2: Generated<string>;
  user_name: string;
  user_email: Generated<string>;
  added_by: string | null;
  service_name: Generated<string>;
  status: Generated<StockStatus>;
  sold_to: string | null;
  order_id: string | null;
  notes: Generated<string>;
  /** The import batch it came in with; null when added one at a time. */
  batch_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Replaced as faulty on an order: never available again (a check constraint holds it). */
  faulty_at: NullableTime;
}

/** What may be shown of an item of a service's own stock (decision 072). */
export type ServiceStockDetails =
  { kind: 'account'; email: string; name: string } | { kind: 'server'; host: string; port: number; user: string } | { kind: 'lines'; count: number };

/** Stock kept for one service, of its kind (decision 072); the Wise pool stays in wise_stocks. */
export interface ServiceStocksTable extends Synced {
  id: string;
  service_id: string;
  kind: 'account' | 'server' | 'lines';
  details: ColumnType<ServiceStockDetails, string, string>;
  /** An account's email, trimmed (null for another kind): shown and duplicate-checked like Wise stock emails. */
  email: string | null;
  /** The password, or the lines joined by newlines, sealed with the credentials key. */
  secret_enc: string;
  /** A blind index of each secret (the password; each line). */
  secret_indexes: string[];
  status: Generated<'available' | 'sold' | 'disabled'>;
  sold_to: string | null;
  order_id: string | null;
  notes: Generated<string>;
  added_by: string | null;
  faulty_at: NullableTime;
  /** The import it came in with (decision 228); null when added one at a time. */
  batch_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A service's own stock imported together (decision 228), as stock_batches for the Wise pool. */
export interface ServiceStockBatchesTable {
  id: string;
  service_id: string;
  kind: 'account' | 'server' | 'lines';
  label: string;
  added_by: string;
  user_name: string;
  user_email: string;
  item_count: number;
  withdrawn_count: Generated<number>;
  withdrawn_at: NullableTime;
  created_at: Generated<Date>;
}

export interface StockBatchesTable {
  id: string;
  label: string;
  added_by: string;
  user_name: string;
  user_email: string;
  item_count: number;
  withdrawn_count: Generated<number>;
  withdrawn_at: NullableTime;
  created_at: Generated<Date>;
}

export interface SettingsTable extends Synced {
  id: string;
  value: Json<Record<string, unknown>>;
}

export interface NotificationsTable extends Synced {
  id: string;
  kind: string;
  title: string;
  body: Generated<string>;
  order_id: string | null;
  service_id: string | null;
  /** One open notification per key (a low-stock scope, a paid order waiting for stock). */
  dedupe_key: string | null;
  resolved_at: NullableTime;
}

export interface NotificationReadsTable {
  notification_id: string;
  user_id: string;
  read_at: Timestamp;
  version: Version;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_email: string;
  action: string;
  entity: string;
  entity_id: string;
  details: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  key: string;
  user_id: string;
  status: number;
  response: Json<unknown>;
  /** A keyed hash of the request the key was first used with; null for keys stored before it was kept. */
  request_hash: string | null;
  created_at: Timestamp;
}

export interface DataKeysTable {
  name: 'CREDENTIALS_KEY' | 'BLIND_INDEX_KEY';
  key_id: string;
  created_at: Generated<Date>;
}

/** One reveal of a delivered password by the order's owner (decision 066). */
export interface CredentialRevealsTable {
  id: Generated<string>;
  order_id: string;
  user_id: string;
  device_id: string;
  device_label: string;
  revealed_at: ColumnType<Date, Date | string, Date | string>;
  recorded_at: Timestamp;
}

/** A device that allowed notifications (decision 067). */
export interface PushSubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  device_id: string;
  device_label: string;
  created_at: Timestamp;
}

/** A push message written in a change's transaction, sent once it committed (decision 067). */
export interface PushOutboxTable {
  id: Generated<string>;
  user_id: string | null;
  to_staff: Generated<boolean>;
  payload: ColumnType<PushPayload, string, string>;
  created_at: Timestamp;
  /** Sends begun (counted when taken), the time it is due again, and the lease of the sender that has it. */
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  claimed_until: NullableTime;
  /** Subscriptions that have had their final answer: a retry goes to the others only. */
  sent_to: ColumnType<string[], string[] | undefined, string[]>;
}

/** What the service worker shows: a title, a line, the page a click opens and a tag that replaces older ones. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export interface Database {
  users: UsersTable;
  services: ServicesTable;
  orders: OrdersTable;
  wise_stocks: WiseStocksTable;
  service_stocks: ServiceStocksTable;
  stock_batches: StockBatchesTable;
  service_stock_batches: ServiceStockBatchesTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  auth_users: AuthUsersTable;
  service_price_tiers: ServicePriceTiersTable;
  customer_prices: CustomerPricesTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_one_time_tokens: AuthOneTimeTokensTable;
  data_keys: DataKeysTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  credential_reveals: CredentialRevealsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_outbox: PushOutboxTable;
  payment_settings: PaymentSettingsTable;
  payment_rails: PaymentRailsTable;
  payment_intents: PaymentIntentsTable;
  payment_events: PaymentEventsTable;
  mail_outbox: MailOutboxTable;
  coupons: CouponsTable;
  coupon_uses: CouponUsesTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  device_vaults: DeviceVaultsTable;
}

export type UserRow = Selectable<UsersTable>;
export type ServiceRow = Selectable<ServicesTable>;
export type OrderRow = Selectable<OrdersTable>;
export type StockRow = Selectable<WiseStocksTable>;
export type ServiceStockRow = Selectable<ServiceStocksTable>;
export type StockBatchRow = Selectable<StockBatchesTable>;
export type AuditRow = Selectable<AuditLogTable>;
export type NotificationRow = Selectable<NotificationsTable>;
