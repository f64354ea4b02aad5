import type { OtherDeliveryKind } from './deliveries.ts';
import type { OrderPayment } from './payments.ts';
export type OrderStatus = 'pending' | 'processing' | 'completed' | 'delivered' | 'cancelled';
export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'refunded';

export const orderStatuses: readonly OrderStatus[] = ['pending', 'processing', 'completed', 'delivered', 'cancelled'];
export const paymentStatuses: readonly PaymentStatus[] = ['pending', 'paid', 'failed', 'refunded'];
export const isOrderStatus = (value: unknown): value is OrderStatus => (orderStatuses as readonly unknown[]).includes(value);
export const isPaymentStatus = (value: unknown): value is PaymentStatus => (paymentStatuses as readonly unknown[]).includes(value);

export interface Order {
  id: string;
  productId: string;
  title: string;
  description: string;
  category: string;
  image: string;
  price: string;
  deliveryTime: string;
  userId: string;
  userEmail: string;
  userName: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  orderDate: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  /** Present once delivered: for the customer who owns the order, and for staff except the password. */
  wiseEmail?: string;
  wisePassword?: string;
  /**
   * Set instead of the delivered secrets (wisePassword, serverPassword, deliveryLines) when the owner keeps
   * them in a device vault and this request neither names that vault nor carries an unlock (decision 182).
   */
  secretsInVault?: true;
  /** Set instead of wisePassword when the stored password cannot be read with this server's CREDENTIALS_KEY. */
  wisePasswordUnreadable?: true;
  /** A URL the browser can load (signed and short-lived for the private bucket). */
  wiseImage?: string;
  /** The inventory account the credentials came from, if any (staff only). */
  stockId?: string | null;
  /** The item of the service's own stock it was delivered from, if any (staff only, decision 072). */
  serviceStockId?: string;
  /** The customer's note to the shop ('' when none), and the payment method chosen when ordering. */
  note?: string;
  paymentMethod?: string | null;
  /** The coupon that priced the order (decision 220): `price` is what is due, `listPrice` what it was listed at. */
  coupon?: { code: string; listPrice: string; discount: string };
  /**
   * How the unit price was set (decision 178), kept as placed: the list unit price, the quantity, the unit
   * price charged before any coupon and the rule (`tier` names its minimum, `customer` its percentage, if any).
   */
  pricing?: { quantity: number; listUnit: string; unitPrice: string; rule: 'list' | 'tier' | 'customer'; minQuantity?: number; percentOff?: number };
  /** The payment proof the customer sent, if any. */
  paymentProof?: PaymentProof;
  /** When the customer cancelled the order. */
  cancelledAt?: string;
  /** When credentials were first delivered. */
  deliveredAt?: string;
  /** Until when a problem can be reported (the service's warranty at delivery); absent: no warranty. */
  warrantyEndsAt?: string;
  /** The customer's latest problem report and its outcome (decision 063). */
  report?: OrderReport;
  /** The deliveries this order had before, oldest first: the email masked for the customer, never a password. */
  deliveryHistory?: PastDelivery[];
  /** The password of the delivered account was changed in stock at this time (decision 064): the customer is told. */
  credentialsRotatedAt?: string;
  /** The owner's reveals of the delivered password (decision 066); absent until the first. */
  views?: OrderViews;
  /**
   * A delivery of another kind than an account (decision 069): a server login, a list of lines or a file.
   * Its secrets (serverPassword, deliveryLines; see deliveredSecretFields) go to the customer only.
   */
  deliveryKind?: OtherDeliveryKind;
  serverHost?: string;
  serverPort?: number;
  serverUser?: string;
  serverPassword?: string;
  deliveryLines?: string[];
  /** How many lines were delivered (staff see this, never the lines). */
  deliveryLineCount?: number;
  /** The delivered file: its name and size; its bytes at GET /api/orders/{id}/file (the customer and staff only). */
  deliveryFile?: { name: string; size: number };
  /** Set instead of the secret when the server cannot read it with its CREDENTIALS_KEY. */
  deliverySecretUnreadable?: true;
  /** The payment under way on a rail the shop switched on (issue 26): what to pay, where, until when, and how it stands. */
  payment?: OrderPayment;
}

/** How often the customer showed the delivered password, and the first time: when and on which device. */
export interface OrderViews {
  count: number;
  firstAt: string;
  firstDevice: string;
}

export type ReportStatus = 'open' | 'replaced' | 'declined';
export type ReportReason = 'login_fails' | 'wrong_password' | 'locked' | 'other';
export const reportReasons: readonly ReportReason[] = ['login_fails', 'wrong_password', 'locked', 'other'];
export const reportReasonLabels: Record<ReportReason, string> = {
  login_fails: 'I cannot log in',
  wrong_password: 'The password is wrong',
  locked: 'The account is locked or suspended',
  other: 'Something else',
};

export interface OrderReport {
  status: ReportStatus;
  reason: ReportReason;
  note: string;
  /** A URL the browser can load (signed, short-lived), when a screenshot came with the report. */
  image?: string;
  reportedAt: string;
  /** Staff's message when they declined. */
  reply?: string;
  resolvedAt?: string;
}

export interface PastDelivery {
  at: string;
  kind: 'replaced' | 'rotated';
  /** In full for staff; masked (jo•••@example.com) for the customer. */
  wiseEmail: string;
  /** Staff only. */
  stockId?: string | null;
  /** A delivery of another kind (decision 069), named by a label: host and user, the file's name, the line count. */
  deliveryKind?: OtherDeliveryKind;
  label?: string;
}

/** A customer's payment proof on an order. */
export interface PaymentProof {
  transactionId: string | null;
  /** A URL the browser can load (signed, short-lived), when a screenshot was sent. */
  screenshotUrl?: string;
  sentAt: string;
  /** Staff only: the other orders (ids) that had already used the same transaction id, or the identical screenshot. */
  reusedTransactionIdOn?: string[];
  reusedScreenshotOn?: string[];
}

/**
 * A customer may cancel an order only while nothing has happened to it yet (no payment, no processing, no
 * delivery). A delivery is told by its time too: the customer sees none of its credentials until the order
 * is paid and delivered, so an order staff delivered and then set back to pending and unpaid has only its
 * `deliveredAt` on the customer's device (deliveries replace each other and are never removed).
 */
export const isCancellable = (order: Pick<Order, 'orderStatus' | 'paymentStatus' | 'wiseEmail' | 'deliveryKind' | 'deliveredAt'>) =>
  order.orderStatus === 'pending' &&
  (order.paymentStatus === 'pending' || order.paymentStatus === 'failed') &&
  !order.wiseEmail &&
  !order.deliveryKind &&
  !order.deliveredAt;

/** A customer may send a payment proof while the order waits for payment. */
export const acceptsPaymentProof = (order: Pick<Order, 'orderStatus' | 'paymentStatus'>) =>
  (order.paymentStatus === 'pending' || order.paymentStatus === 'failed') && (order.orderStatus === 'pending' || order.orderStatus === 'processing');

/** The page sizes the admin order list offers. */
export const orderPageSizes = [10, 25, 50, 100] as const;

export interface AdminOrderPage {
  orders: Order[];
  /** Exact up to a cap (at least 10,000 and always past the current page); beyond it a lower bound. */
  total: number;
  /** True when there are more matching orders than `total` counted. */
  totalIsLowerBound: boolean;
  page: number;
  limit: number;
  /** The page after this one (query `cursor`), when there is one. */
  nextCursor?: string;
  /** The page before this one, when this is not the first. */
  prevCursor?: string;
}

export interface OrderStats {
  totalOrders: number;
  totalRevenue: number;
  activeCustomers: number;
  pendingPayments: number;
  delivered: number;
  recentOrders: Order[];
  /** The last 30 days, oldest first, one entry per day (UTC), including days with no orders. */
  daily: { date: string; orders: number; revenue: number }[];
}

export interface CredentialsCheck {
  exactMatch: boolean;
  emailExists: boolean;
  passwordExists: boolean;
}
