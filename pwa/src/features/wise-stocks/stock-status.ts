import { isStockStatus, type StockStatus } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { capitalize } from '../../lib/format.ts';

/** 'available' reads 'Available'; an unknown status is shown raw (spec section 4). */
export const statusLabel = (status: string): string => (isStockStatus(status) ? capitalize(status) : status);

const badgeClasses: Record<StockStatus, string> = {
  available: 'badge-success',
  sold: 'badge-info',
  active: 'badge-primary',
  suspended: 'badge-warning',
  disabled: 'badge-error',
  used: 'badge-neutral',
};

export const statusBadgeClass = (status: string): string => `badge ${isStockStatus(status) ? badgeClasses[status] : 'badge-ghost'}`;
