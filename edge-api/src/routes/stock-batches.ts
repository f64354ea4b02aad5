import { Hono } from 'hono';
import { idParam } from '../contract/fields.ts';
import { importBody, importPreviewBody, type ImportResult, type WithdrawResult } from '../contract/stock-batches.ts';
import { listPageQuery } from '../contract/list-pages.ts';
import { recordAudit } from '../db/audit.ts';
import { findBatch, insertBatch, listBatchesPage, lockBatch, withdrawBatchItems } from '../db/stock-batches.ts';
import { lockStockAdditions } from '../db/wise-stocks.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { answerListPage } from '../operations/list-page.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, requireStaff, type AppEnv } from '../middleware/session.ts';
import { parseStockLines, planImport, toPreview } from '../operations/stock-import.ts';
import { toStockBatch } from '../presenters/stock-batches.ts';

/** /api/stock-batches: Wise stock imported in bulk, one batch per import (docs/stock-import.md). */
export function stockBatchRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get('/', requireStaff, validate('query', listPageQuery), async (c) =>
      c.json((await answerListPage(c, c.req.valid('query'), (limit, after) => listBatchesPage(deps.db, limit, after))).map(toStockBatch)),
    )
    .post('/preview', requireAdmin, validate('json', importPreviewBody), async (c) => {
      const planned = await planImport(deps.db, deps.secrets.blindIndex, parseStockLines(c.req.valid('json').text));
      return c.json(toPreview(planned));
    })
    .post('/', requireAdmin, validate('json', importBody), async (c) => {
      const { id = crypto.randomUUID(), label, text } = c.req.valid('json');
      const user = c.get('user')!;
      const raw = parseStockLines(text);
      const result = await deps.db.transaction().execute(async (trx) => {
        // Additions take turns: the lines are classified against stock as it is when they are written.
        await lockStockAdditions(trx);
        const earlier = await findBatch(trx, id);
        if (earlier) throw conflict('This import was done already', { batch: toStockBatch(earlier) });
        const planned = await planImport(trx, deps.secrets.blindIndex, raw);
        const accepted = planned.filter((line) => line.status === 'new');
        if (accepted.length === 0) throw badRequest('No line of this import is new: nothing was imported', [{ path: 'text', message: 'holds no new line' }]);
        const items = await Promise.all(
          accepted.map(async (line) => ({
            id: crypto.randomUUID(),
            wiseName: line.name,
            wiseEmail: line.email,
            wisePasswordEnc: await deps.secrets.encrypt(line.password),
            wisePasswordIndex: line.keys!.passwordIndex!,
            notes: line.notes,
          })),
        );
        await insertBatch(
          trx,
          { id, label, addedBy: user.id, userName: user.display_name || user.email, userEmail: user.email },
          items,
          await nextVersion(trx),
        );
        await watchStockLevel(trx);
        const preview = toPreview(planned);
        await recordAudit(trx, user, {
          action: 'stock_batch.import',
          entity: 'stock_batch',
          entityId: id,
          details: { label, imported: accepted.length, counts: preview.counts },
        });
        return { batch: toStockBatch((await findBatch(trx, id))!), preview } satisfies ImportResult;
      });
      return c.json(result, 201);
    })
    .post('/:id/withdraw', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      const result = await deps.db.transaction().execute(async (trx) => {
        if (!(await lockBatch(trx, id))) throw notFound('Stock batch');
        const withdrawn = await withdrawBatchItems(trx, id, await nextVersion(trx));
        await watchStockLevel(trx);
        await recordAudit(trx, c.get('user'), { action: 'stock_batch.withdraw', entity: 'stock_batch', entityId: id, details: { withdrawn } });
        return { batch: toStockBatch((await findBatch(trx, id))!), withdrawn } satisfies WithdrawResult;
      });
      return c.json(result);
    });
}
