/**
 * The shapes the API answers with (camelCase JSON, ids as UUID strings). The PWA imports these types,
 * so the client and the server cannot drift apart.
 */
import type { OrderStatus, PaymentStatus, Role, StockStatus } from './db/schema.ts';
import type { Service } from './db/services.ts';

export type { OrderStatus, PaymentStatus, Role, Service, StockStatus };

export interface User {
  uid: string;
  email: string;
  displayName: string;
  mobile: string;
  userRole: Role;
  createdAt: string;
  updatedAt: string;
  version: number;
}

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
  /** A URL the browser can load (signed and short-lived for the private bucket). */
  wiseImage?: string;
  /** The inventory account the credentials came from, if any (staff only). */
  stockId?: string | null;
}

export interface WiseStock {
  id: string;
  wiseName: string;
  wiseEmail: string;
  wisePassword: string;
  authImage: string;
  docImg1: string;
  docImg2: string;
  userName: string;
  userEmail: string;
  serviceName: string;
  status: StockStatus;
  soldTo: string | null;
  orderId: string | null;
  notes: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** Everything the spec leaves as `{phone}` or a link; editable by an admin. */
export interface SiteSettings {
  brandName: string;
  contactChatUrl: string;
  providerChatUrl: string;
  telegramBotUrl: string;
  salesHandle: string;
  supportEmail: string;
  supportPhone: string;
  address: string;
  socialLinks: { facebook: string; twitter: string; instagram: string; linkedin: string; telegram: string; whatsapp: string };
  wallets: { name: string; number: string }[];
}

export interface AdminOrderPage {
  orders: Order[];
  /** Exact up to a cap (at least 10,000 and always past the current page); beyond it a lower bound. */
  total: number;
  /** True when there are more matching orders than `total` counted. */
  totalIsLowerBound: boolean;
  page: number;
  limit: number;
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

export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorEmail: string;
  action: string;
  entity: string;
  entityId: string;
  details: Record<string, unknown>;
  createdAt: string;
}

/** GET /api/sync?scope=&cursor= : what changed since `cursor` that the caller may see. */
export interface SyncResponse {
  cursor: number;
  /** The cursor was too old or from another database: wipe the local copy and take this one whole. */
  reset: boolean;
  /** More changes wait past `cursor`: pull again from it at once. A pull carries about SYNC_PAGE_ROWS rows. */
  hasMore: boolean;
  changes: {
    services?: Service[];
    settings?: SiteSettings[];
    users?: User[];
    orders?: Order[];
    wiseStocks?: WiseStock[];
  };
  deleted: {
    services?: string[];
    users?: string[];
    orders?: string[];
    wiseStocks?: string[];
  };
}

export interface ApiErrorBody {
  error: { code: string; message: string; details?: unknown };
}
