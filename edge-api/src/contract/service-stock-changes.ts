/**
 * A service's own stock, the capabilities Wise stock has had (issue 33 item 1, decision 228): a password
 * change in place (rotation, as decision 064) and batches (an import is one batch, as /api/stock-batches).
 */
import * as z from 'zod';
import { expectedVersion, uuid } from './fields.ts';
import { listPageQuery } from './list-pages.ts';
import type { ServiceStock, ServiceStockKind } from './service-stocks.ts';
import { newStockPassword } from './wise-stock-requests.ts';

/**
 * POST /api/service-stocks/{id}/password: a new password for an account or a server login of a service's
 * stock. When the item was sold, the order holding it shows the new password at once, the old one kept in
 * its history. The rule is a Wise stock rotation's (decision 221): registration's shortest length.
 */
export const serviceStockPasswordBody = z
  .object({
    password: newStockPassword,
    /** Use it although the password is already in stock or delivered (answered 409 duplicate_credentials without). */
    overrideDuplicates: z.boolean({ error: 'must be true or false' }).optional(),
    version: expectedVersion,
  })
  .strict();

export interface ServiceStockPasswordChange {
  stock: ServiceStock;
  /** The order that now shows the new password, when the item was sold. */
  orderId: string | null;
}

/** GET /api/service-stocks/batches?serviceId=: a page of the service's imports, newest first (decision 242). */
export const serviceStockBatchesQuery = z.object({ serviceId: uuid, ...listPageQuery.shape });

/** An import of a service's stock: its id is the import's id. */
export interface ServiceStockBatch {
  id: string;
  serviceId: string;
  kind: ServiceStockKind;
  label: string;
  userName: string;
  userEmail: string;
  itemCount: number;
  /** Items of the batch still available now. */
  availableCount: number;
  withdrawnCount: number;
  withdrawnAt: string | null;
  createdAt: string;
}

export interface ServiceStockBatchWithdrawal {
  batch: ServiceStockBatch;
  withdrawn: number;
}
