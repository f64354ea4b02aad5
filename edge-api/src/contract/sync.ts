import type { StaffNotification } from './notifications.ts';
import type { Order } from './orders.ts';
import type { Service } from './services.ts';
import type { SiteSettings } from './settings.ts';
import type { User } from './users.ts';
import type { WiseStock } from './wise-stocks.ts';
import type { ServiceStock } from './service-stocks.ts';
import type { Ticket } from './tickets.ts';

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
    /** Staff only: the notification centre, with the caller's read state (decision 062). */
    notifications?: StaffNotification[];
    /** Staff only: stock kept for a service (decision 072); secrets masked for moderators. */
    serviceStocks?: ServiceStock[];
    /** Support tickets with their messages (decision 170): a customer's own, every live one for staff. */
    tickets?: Ticket[];
  };
  deleted: {
    services?: string[];
    users?: string[];
    orders?: string[];
    wiseStocks?: string[];
    notifications?: string[];
    serviceStocks?: string[];
    tickets?: string[];
  };
}
