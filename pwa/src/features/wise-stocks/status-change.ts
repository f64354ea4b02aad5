import type { WiseStock } from '../../../../edge-api/src/contract.ts';
import type { MutationArgs } from '../../db/sync-engine.ts';
import { isStockStatus } from './stock-status.ts';

export const SELECT_STATUS_MESSAGE = 'Please select a status';
export const SELECT_USER_MESSAGE = 'Please select a user when marking as sold';
export const STATUS_UPDATED_MESSAGE = 'Stock status updated successfully';
export const STATUS_FAILED_MESSAGE = 'Failed to update stock status';

export interface StatusForm {
  status: string;
  soldTo: string;
  notes: string;
}

/** Spec section 5: a status is required, and a buyer when it is sold. */
export function statusFormProblem(form: StatusForm): string | null {
  if (!isStockStatus(form.status)) return SELECT_STATUS_MESSAGE;
  if (form.status === 'sold' && !form.soldTo) return SELECT_USER_MESSAGE;
  return null;
}

/**
 * What setStockStatus queues: the buyer only for a sale (any other status clears it on the server), notes
 * only when some were written, and the version the admin saw.
 */
export function toStatusChange(stock: Pick<WiseStock, 'id' | 'version'>, form: StatusForm): MutationArgs['setStockStatus'] {
  if (!isStockStatus(form.status)) throw new Error(SELECT_STATUS_MESSAGE);
  const change: MutationArgs['setStockStatus'] = { stockId: stock.id, status: form.status, version: stock.version };
  if (form.status === 'sold') change.soldTo = form.soldTo;
  const notes = form.notes.trim();
  if (notes) change.notes = notes;
  return change;
}
