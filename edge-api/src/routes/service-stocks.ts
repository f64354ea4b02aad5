import { Hono, type Context } from 'hono';
import { idParam } from '../contract/fields.ts';
import { serviceStockPasswordBody } from '../contract/service-stock-changes.ts';
import {
  newServiceStockBody,
  serviceStockImportBody,
  serviceStockImportPreviewBody,
  serviceStockExportQuery,
  serviceStockListQuery,
  withdrawServiceStockBody,
} from '../contract/service-stocks.ts';
import { recordAudit } from '../db/audit.ts';
import type { UserRow } from '../db/schema.ts';
import { listServiceStocks, listServiceStocksPage, lockServiceStock, setServiceStockStatus } from '../db/service-stocks.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { requireAdmin, requireStaff, type AppEnv, type SignedInEnv } from '../middleware/session.ts';
import { addServiceStock } from '../operations/add-service-stock.ts';
import { answerListPage } from '../operations/list-page.ts';
import { importServiceStock, stockedService } from '../operations/import-service-stock.ts';
import { rotateServiceStockPassword } from '../operations/rotate-service-stock-password.ts';
import { parseServiceStockRows, planServiceStockImport, toImportPreview } from '../operations/service-stock-import.ts';
import { createStaffRevealGuard } from '../operations/staff-reveals.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { serviceStockCsvHeader, serviceStockCsvRow } from '../presenters/service-stock-csv.ts';
import { toServiceStock } from '../presenters/service-stocks.ts';
import type { StockViewer } from '../presenters/wise-stocks.ts';

/** A service's live items of its kind as CSV, secrets only when asked (decision 198); audited before anything is sent. */
async function exportCsv(deps: Deps, user: UserRow, serviceId: string, passwords: boolean, limitReveals: ReturnType<typeof createStaffRevealGuard>) {
  const service = await stockedService(deps.db, serviceId);
  // Every secret of the service at once: the whole of the admin's reveal budget, as the Wise export (decision 160).
  if (passwords) await limitReveals(user, 'GET /api/service-stocks/export.csv', Number.POSITIVE_INFINITY);
  // Recorded before anything is sent: an export that starts is an export that happened.
  await recordAudit(deps.db, user, { action: 'service_stock.export', entity: 'service', entityId: serviceId, details: { passwords, kind: service.kind } });
  const rows = (await listServiceStocks(deps.db, serviceId)).filter((row) => row.kind === service.kind);
  const secrets = passwords
    ? await Promise.all(rows.map(async (row) => (await deps.secrets.open(row.secret_enc, { entity: 'service_stock', id: row.id })) ?? ''))
    : [];
  const body = serviceStockCsvHeader(service.kind, passwords) + rows.map((row, i) => serviceStockCsvRow(row, passwords ? secrets[i] : undefined)).join('');
  const day = deps.clock().toISOString().slice(0, 10);
  return { body, fileName: `service-stock-${service.kind}-${day}${passwords ? '-with-passwords' : ''}.csv` };
}

/** An available item leaves the shelf (status disabled), at the version the admin saw. */
async function withdrawItem(deps: Deps, user: UserRow, id: string, version: number | undefined) {
  return deps.db.transaction().execute(async (trx) => {
    const current = await lockServiceStock(trx, id);
    if (!current) throw notFound('Stock item');
    assertVersion(current.version, version, 'stock item');
    if (current.status !== 'available')
      throw new ApiError('stock_unavailable', `This stock item is ${current.status}, not available: only an available item can be withdrawn.`);
    const updated = await setServiceStockStatus(trx, id, 'disabled', await nextVersion(trx));
    await recordAudit(trx, user, { action: 'service_stock.withdraw', entity: 'service_stock', entityId: id, details: { serviceId: current.service_id } });
    await watchStockLevel(trx);
    return updated;
  });
}

/**
 * Stock kept for one service, of its kind (decision 072). The Wise stock pool (/api/wise-stocks) stays as
 * it is. Staff list; admins add, import (one batch each, decision 228), change a password in place and
 * withdraw. Secrets are sealed before any row is locked, checked for duplicates by blind index (409
 * duplicate_credentials unless overridden, as decision 055).
 */
export function serviceStockRoutes(deps: Deps) {
  const viewerOf = (c: Context<SignedInEnv>): StockViewer => (c.get('user').user_role === 'admin' ? 'admin' : 'moderator');
  const limitReveals = createStaffRevealGuard(deps);

  return new Hono<AppEnv>()
    .get('/export.csv', requireAdmin, validate('query', serviceStockExportQuery), async (c) => {
      const { serviceId, passwords } = c.req.valid('query');
      const { body, fileName } = await exportCsv(deps, c.get('user')!, serviceId, passwords, limitReveals);
      return c.body(body, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${fileName}"`,
        'cache-control': 'no-store',
      });
    })
    .get('/', requireStaff, validate('query', serviceStockListQuery), async (c) => {
      const viewer = viewerOf(c);
      const { serviceId, ...page } = c.req.valid('query');
      // A page of the service's items, newest first; the next page's cursor in X-Next-Cursor (decision 242).
      const rows = await answerListPage(c, page, (limit, after) => listServiceStocksPage(deps.db, serviceId, limit, after));
      c.header('cache-control', 'no-store');
      return c.json(await Promise.all(rows.map((row) => toServiceStock(row, deps.secrets, viewer))));
    })
    .post('/', requireAdmin, validate('json', newServiceStockBody), async (c) => {
      const result = await addServiceStock(deps, c.get('user')!, c.req.valid('json'));
      c.header('cache-control', 'no-store');
      return c.json(await toServiceStock(result.row, deps.secrets, 'admin'), result.replay ? 200 : 201);
    })
    .post('/preview', requireAdmin, validate('json', serviceStockImportPreviewBody), async (c) => {
      const { serviceId, text, split } = c.req.valid('json');
      const service = await stockedService(deps.db, serviceId);
      const planned = await planServiceStockImport(deps.db, deps, service.kind, parseServiceStockRows(service.kind, text, split));
      c.header('cache-control', 'no-store');
      return c.json(toImportPreview(service.id, service.kind, planned));
    })
    .post('/batch', requireAdmin, validate('json', serviceStockImportBody), async (c) => {
      const { result, replayed } = await importServiceStock(deps, c.get('user')!, c.req.valid('json'));
      c.header('cache-control', 'no-store');
      return c.json(result, replayed ? 200 : 201);
    })
    .post('/:id/password', requireAdmin, validate('param', idParam), validate('json', serviceStockPasswordBody), async (c) => {
      const answer = await rotateServiceStockPassword(deps, c.get('user')!, c.req.valid('param').id, c.req.valid('json'));
      c.header('cache-control', 'no-store');
      return c.json(answer);
    })
    .post('/:id/withdraw', requireAdmin, validate('param', idParam), validate('json', withdrawServiceStockBody), async (c) => {
      const row = await withdrawItem(deps, c.get('user')!, c.req.valid('param').id, c.req.valid('json').version);
      c.header('cache-control', 'no-store');
      return c.json(await toServiceStock(row, deps.secrets, 'admin'));
    });
}
