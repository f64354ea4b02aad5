import { isStockStatus, statusChangeProblem, type WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import type { MutationArgs } from '../../db/mutators.ts';

export const STATUS_UPDATED_MESSAGE = 'Stock status updated successfully';
export const STATUS_FAILED_MESSAGE = 'Failed to update stock status';

export interface StatusForm {
  status: string;
  soldTo: string;
  notes: string;
}

/** Spec section 5: a status is required, and a buyer when it is sold (the API's own rule). */
export const statusFormProblem = (form: StatusForm): string | null => statusChangeProblem(form)?.message ?? null;

/**
 * What setStockStatus queues: the buyer only for a sale (any other status clears it on the server), notes
 * only when some were written, and the version the admin saw.
 */
export function toStatusChange(stock: Pick<WiseStock, 'id' | 'version'>, form: StatusForm): MutationArgs['setStockStatus'] {
  if (!isStockStatus(form.status)) throw new Error(statusFormProblem(form) ?? 'Please select a status');
  const change: MutationArgs['setStockStatus'] = { stockId: stock.id, status: form.status, version: stock.version };
  if (form.status === 'sold') change.soldTo = form.soldTo;
  const notes = form.notes.trim();
  if (notes) change.notes = notes;
  return change;
}
