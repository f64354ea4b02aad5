import { Hono } from 'hono';
import { idParam } from '../contract/fields.ts';
import { serviceStockBatchesQuery, type ServiceStockBatchWithdrawal } from '../contract/service-stock-changes.ts';
import { recordAudit } from '../db/audit.ts';
import { findServiceStockBatch, listServiceStockBatchesPage, lockServiceStockBatch, withdrawServiceStockBatchItems } from '../db/service-stock-batches.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, requireStaff, type AppEnv } from '../middleware/session.ts';
import { answerListPage } from '../operations/list-page.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { toServiceStockBatch } from '../presenters/service-stock-batches.ts';

/**
 * /api/service-stocks/batches: a service's own stock imported in bulk, one batch per import (decision
 * 228), as /api/stock-batches for the Wise pool. Staff list; admins withdraw a batch's available items.
 */
export function serviceStockBatchRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get('/', requireStaff, validate('query', serviceStockBatchesQuery), async (c) => {
      c.header('cache-control', 'no-store');
      // A page of the service's imports, newest first; the next page's cursor in X-Next-Cursor (decision 242).
      const { serviceId, ...page } = c.req.valid('query');
      return c.json((await answerListPage(c, page, (limit, after) => listServiceStockBatchesPage(deps.db, serviceId, limit, after))).map(toServiceStockBatch));
    })
    .post('/:id/withdraw', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      const result = await deps.db.transaction().execute(async (trx) => {
        const batch = await lockServiceStockBatch(trx, id);
        if (!batch) throw notFound('Stock batch');
        const withdrawn = await withdrawServiceStockBatchItems(trx, id, await nextVersion(trx));
        await watchStockLevel(trx);
        await recordAudit(trx, c.get('user'), {
          action: 'service_stock_batch.withdraw',
          entity: 'stock_batch',
          entityId: id,
          details: { serviceId: batch.service_id, withdrawn: withdrawn.length },
        });
        return { batch: toServiceStockBatch((await findServiceStockBatch(trx, id))!), withdrawn: withdrawn.length } satisfies ServiceStockBatchWithdrawal;
      });
      c.header('cache-control', 'no-store');
      return c.json(result);
    });
}
