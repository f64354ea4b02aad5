import type { StockStatus } from '../../../../edge-api/src/contract.ts';
import { capitalize } from '../../lib/format.ts';

/** The six statuses of a Wise stock (spec section 4), in the order the filter and the modal list them. */
export const stockStatuses: readonly StockStatus[] = ['available', 'sold', 'active', 'suspended', 'disabled', 'used'];

export const isStockStatus = (value: string): value is StockStatus => (stockStatuses as readonly string[]).includes(value);

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
