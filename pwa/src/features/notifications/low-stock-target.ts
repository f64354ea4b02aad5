import { useLiveQuery } from 'dexie-react-hooks';
import type { StaffNotification } from '../../../../edge-api/src/contract/notifications.ts';
import { useUserDb } from '../../db/hooks.ts';
import { getPublicDb } from '../../db/local-db.ts';
import { useAuthorization } from '../../lib/authorization.tsx';

/**
 * What a staff member may do about stock, and which services keep stock of their own (decision 072: any
 * live item, and every server-login or lines service, which never draws on the Wise pool).
 */
export interface StockAccess {
  /** Adds stock: Wise stock and a service's own (admins). */
  canAdd: boolean;
  ownStock: ReadonlySet<string>;
  /** Service titles by id, for the button's words. */
  titles: ReadonlyMap<string, string>;
}

export interface StockTarget {
  to: string;
  label: string;
}

/** The stock page of a service that keeps its own: All Services with that service's stock open. */
export const serviceStockPath = (serviceId: string) => `/dashboard/admin-services?stock=${encodeURIComponent(serviceId)}`;

/**
 * Where a low-stock warning's button leads (decision 197): a service that keeps its own stock to that
 * stock, the Wise pool (the shop-wide warning, or a service drawing on the pool) to Add Wise Stock; null
 * for someone who cannot add stock (a moderator gets no button).
 */
export function lowStockTarget(notification: Pick<StaffNotification, 'serviceId'>, access: StockAccess): StockTarget | null {
  if (!access.canAdd) return null;
  const { serviceId } = notification;
  if (serviceId && access.ownStock.has(serviceId)) {
    const title = access.titles.get(serviceId);
    return { to: serviceStockPath(serviceId), label: title ? `Add stock for ${title}` : 'Add stock for this service' };
  }
  return { to: '/dashboard/add-wise-stocks', label: 'Add Wise Stock' };
}

/**
 * Where a low-stock notification's title leads: the same stock as the banner for someone who can add
 * to it; for someone who cannot, the Wise stock list (which moderators read), or nowhere for a service's
 * own stock (its screen is the admins').
 */
export function lowStockLink(notification: Pick<StaffNotification, 'serviceId'>, access: StockAccess): string | null {
  const target = lowStockTarget(notification, access);
  if (target) return target.to;
  return notification.serviceId && access.ownStock.has(notification.serviceId) ? null : '/dashboard/all-wise-stocks';
}

const NO_STOCK: StockAccess = { canAdd: false, ownStock: new Set(), titles: new Map() };

/** The signed-in staff member's StockAccess, from the services and stock synced to this device. */
export function useStockAccess(): StockAccess {
  const db = useUserDb();
  const { can } = useAuthorization();
  const canAdd = can('stocks:manage') && can('services:manage');
  const found = useLiveQuery(async () => {
    const services = await getPublicDb().services.toArray();
    const stocked = db ? ((await db.serviceStocks.orderBy('serviceId').uniqueKeys()) as string[]) : [];
    const own = new Set([
      ...stocked,
      ...services.filter((service) => service.deliveryKind === 'server' || service.deliveryKind === 'lines').map((service) => service.id),
    ]);
    return { ownStock: own, titles: new Map(services.map((service) => [service.id, service.title])) };
  }, [db]);
  return found ? { canAdd, ...found } : { ...NO_STOCK, canAdd };
}
