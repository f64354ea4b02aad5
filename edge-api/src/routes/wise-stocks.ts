import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { UserRow } from '../db/schema.ts';
import { idParam } from '../contract/fields.ts';
import { newStockBody, stockChangeBody, stockCheckQuery, stockExportQuery, stockPasswordBody } from '../contract/wise-stock-requests.ts';
import { hasDuplicate, statusChangeProblem, stockImageFields, type StockStatus, type WiseStockReveal } from '../contract/wise-stocks.ts';
import { listPageQuery } from '../contract/list-pages.ts';
import { recordAudit } from '../db/audit.ts';
import { credentialsKeys, duplicateCheck, findKnownCredentials } from '../db/credentials.ts';
import { createCredentialCheckGuard } from '../operations/credential-checks.ts';
import { createStaffRevealGuard } from '../operations/staff-reveals.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { nextVersion } from '../db/versions.ts';
import {
  exportStockBatch,
  findStock,
  findStockIncludingDeleted,
  insertStock,
  lockStockAdditions,
  listStocksPage,
  lockStock,
  setStockImage,
  setStockStatus,
  softDeleteStock,
} from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict, misconfigured, notFound } from '../errors.ts';
import { answerListPage } from '../operations/list-page.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { requireAdmin, requireStaff, type AppEnv, type SignedInEnv } from '../middleware/session.ts';
import { stockCsvHeader, stockCsvRow } from '../presenters/stock-csv.ts';
import { toWiseStock, type StockViewer } from '../presenters/wise-stocks.ts';
import { rotateStockPassword } from '../operations/rotate-password.ts';

const EXPORT_BATCH = 1000;

const field = (path: string, message: string) => [{ path, message }];

/** The CSV streamed in keyset batches: a large export never sits in memory whole. */
function exportStream(deps: Deps, passwords: boolean, status: StockStatus | undefined) {
  const encoder = new TextEncoder();
  let after: string | null = null;
  let started = false;
  // Streamed in keyset batches: a large export never sits in memory whole.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(stockCsvHeader(passwords)));
        return;
      }
      try {
        const rows = await exportStockBatch(deps.db, { status }, after, EXPORT_BATCH);
        if (rows.length > 0) {
          const opened = await Promise.all(
            rows.map(async (row) => (passwords ? ((await deps.secrets.open(row.wise_password_enc, { entity: 'wise_stock', id: row.id })) ?? '') : undefined)),
          );
          controller.enqueue(encoder.encode(rows.map((row, i) => stockCsvRow(row, opened[i])).join('')));
          after = rows[rows.length - 1]!.id;
        }
        if (rows.length < EXPORT_BATCH) controller.close();
      } catch (error) {
        deps.logger.error('stock export failed', { error: String(error) });
        controller.error(error);
      }
    },
  });
  return body;
}

type StockChange = z.infer<typeof stockChangeBody>;

/** One image of a stock set or removed (the auth image cannot be removed), at the version the admin saw. */
async function changeImage(deps: Deps, user: UserRow, id: string, image: (typeof stockImageFields)[number], body: StockChange) {
  const value = body[image]!;
  if (image === 'authImage' && value === '') throw badRequest('authImage: is required', field('authImage', 'is required'));
  return deps.db.transaction().execute(async (trx) => {
    const current = await lockStock(trx, id);
    if (!current) throw notFound('Wise stock');
    assertVersion(current.version, body.version, 'Wise stock');
    const updated = await setStockImage(trx, id, image, value, await nextVersion(trx));
    await recordAudit(trx, user, { action: 'wise_stock.image', entity: 'wise_stock', entityId: id, details: { field: image, removed: value === '' } });
    return updated;
  });
}

/** A stock's status (and buyer, notes) changed by hand; a faulty stock never comes back to available. */
async function changeStatus(deps: Deps, user: UserRow, id: string, body: StockChange, change: { status?: string; soldTo?: string; notes?: string }) {
  const { status, soldTo, notes } = change;
  const problem = statusChangeProblem({ status, soldTo });
  if (problem) throw badRequest(problem.message, field(problem.field, problem.fieldMessage));
  const newStatus = status as StockStatus; // statusChangeProblem found one
  return deps.db.transaction().execute(async (trx) => {
    const current = await lockStock(trx, id);
    if (!current) throw notFound('Wise stock');
    assertVersion(current.version, body.version, 'Wise stock');
    if (current.faulty_at && newStatus === 'available') {
      throw new ApiError('stock_faulty', 'This stock was replaced as faulty on an order and can never be sold again.');
    }
    if (newStatus === 'sold') {
      const buyer = await trx.selectFrom('users').select('id').where('id', '=', soldTo!).where('deleted_at', 'is', null).executeTakeFirst();
      if (!buyer) throw badRequest('The selected user does not exist', field('soldTo', 'no such user'));
    }
    const stillSameSale = newStatus === 'sold' && current.status === 'sold' && current.sold_to === soldTo;
    const updated = await setStockStatus(
      trx,
      id,
      { status: newStatus, soldTo: newStatus === 'sold' ? soldTo! : null, orderId: stillSameSale ? current.order_id : null, notes },
      await nextVersion(trx),
    );
    await recordAudit(trx, user, {
      action: 'wise_stock.status',
      entity: 'wise_stock',
      entityId: id,
      details: { from: current.status, to: newStatus, soldTo: updated.sold_to, notesChanged: notes !== undefined },
    });
    await watchStockLevel(trx);
    return updated;
  });
}

/** One stock added by hand: a replayed id answers the stock it made; duplicates are refused unless overridden (decision 055). */
async function createStock(deps: Deps, user: UserRow, input: z.infer<typeof newStockBody>) {
  const { id = crypto.randomUUID(), wisePassword, overrideDuplicates = false, ...fields } = input;
  const [wisePasswordEnc, keys] = await Promise.all([
    deps.secrets.encrypt(wisePassword),
    credentialsKeys(deps.secrets.blindIndex, fields.wiseEmail, wisePassword),
  ]);
  const wisePasswordIndex = keys.passwordIndex!;
  const result = await deps.db.transaction().execute(async (trx) => {
    // Additions of stock take turns, so two at once cannot both find the other's credentials absent.
    await lockStockAdditions(trx);
    const earlier = await findStockIncludingDeleted(trx, id);
    if (earlier) {
      // A replayed create (same client id) answers the stock the first one made.
      if (earlier.deleted_at) throw conflict('This Wise stock was deleted');
      return { row: earlier, replay: true };
    }
    const check = duplicateCheck(await findKnownCredentials(trx, [keys]), keys);
    if (hasDuplicate(check) && !overrideDuplicates) {
      throw new ApiError(
        'duplicate_credentials',
        'These credentials are already in stock or delivered to an order; send overrideDuplicates to add them anyway',
        check,
      );
    }
    const created = await insertStock(
      trx,
      id,
      { ...fields, wisePasswordEnc, wisePasswordIndex, userEmail: user.email, addedBy: user.id },
      await nextVersion(trx),
    );
    if (!created) {
      // A replayed create (same client id) answers the stock the first one made.
      const existing = await findStockIncludingDeleted(trx, id);
      if (!existing || existing.deleted_at) throw conflict('This Wise stock was deleted');
      return { row: existing, replay: true };
    }
    await recordAudit(trx, user, {
      action: 'wise_stock.create',
      entity: 'wise_stock',
      entityId: id,
      details: { wiseName: fields.wiseName, ...(hasDuplicate(check) ? { overrodeDuplicates: check } : {}) },
    });
    await watchStockLevel(trx);
    return { row: created, replay: false };
  });
  return result;
}

/** A stock's password for one staff member, within their reveal budget (decision 160), audited without the password. */
async function reveal(deps: Deps, user: UserRow, id: string, limitReveals: ReturnType<typeof createStaffRevealGuard>): Promise<WiseStockReveal> {
  const row = await findStock(deps.db, id);
  if (!row) throw notFound('Wise stock');
  // Past the staff member's budget: 429, and the password is not even opened (decision 160).
  await limitReveals(user, 'POST /api/wise-stocks/:id/reveal');
  const wisePassword = await deps.secrets.open(row.wise_password_enc, { entity: 'wise_stock', id });
  if (wisePassword === null) throw misconfigured("This password cannot be read with this server's CREDENTIALS_KEY");
  // Who read which password, and when: the audit log, never the password itself.
  await recordAudit(deps.db, user, { action: 'wise_stock.reveal', entity: 'wise_stock', entityId: id, details: { role: user.user_role } });
  return { wisePassword };
}

export function wiseStockRoutes(deps: Deps) {
  const answer = (row: Parameters<typeof toWiseStock>[0]) => toWiseStock(row, deps.secrets, deps.blobs, 'admin');
  const viewerOf = (c: Context<SignedInEnv>): StockViewer => (c.get('user').user_role === 'admin' ? 'admin' : 'moderator');
  const limitChecks = createCredentialCheckGuard(deps);
  const limitReveals = createStaffRevealGuard(deps);

  return new Hono<AppEnv>()
    .get('/', requireStaff, validate('query', listPageQuery), async (c) => {
      const viewer = viewerOf(c);
      const rows = await answerListPage(c, c.req.valid('query'), (limit, after) => listStocksPage(deps.db, limit, after));
      return c.json(await Promise.all(rows.map((row) => toWiseStock(row, deps.secrets, deps.blobs, viewer))));
    })
    .get('/check', requireStaff, validate('query', stockCheckQuery), async (c) => {
      const { email, password } = c.req.valid('query');
      // Each answer says whether a password is one of the delivered or stocked ones: limited per staff member (decision 076).
      await limitChecks(c.get('user')!, 'GET /api/wise-stocks/check');
      const keys = await credentialsKeys(deps.secrets.blindIndex, email, password);
      return c.json(duplicateCheck(await findKnownCredentials(deps.db, [keys]), keys));
    })
    .get('/export.csv', requireAdmin, validate('query', stockExportQuery), async (c) => {
      const { passwords, status } = c.req.valid('query');
      const user = c.get('user')!;
      // Every password at once: the whole of the admin's reveal budget, so one such export a window (decision 160).
      if (passwords) await limitReveals(user, 'GET /api/wise-stocks/export.csv', Number.POSITIVE_INFINITY);
      // Recorded before anything is sent: an export that starts is an export that happened.
      await recordAudit(deps.db, user, {
        action: 'wise_stock.export',
        entity: 'wise_stock',
        entityId: 'export',
        details: { passwords, status: status ?? 'all' },
      });
      const body = exportStream(deps, passwords, status);
      const day = deps.clock().toISOString().slice(0, 10);
      return c.body(body, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="wise-stocks-${day}${passwords ? '-with-passwords' : ''}.csv"`,
        'cache-control': 'no-store',
      });
    })
    .get('/:id', requireStaff, validate('param', idParam), async (c) => {
      const row = await findStock(deps.db, c.req.valid('param').id);
      if (!row) throw notFound('Wise stock');
      return c.json(await toWiseStock(row, deps.secrets, deps.blobs, viewerOf(c)));
    })
    .post('/:id/reveal', requireStaff, validate('param', idParam), async (c) => {
      const answer: WiseStockReveal = await reveal(deps, c.get('user')!, c.req.valid('param').id, limitReveals);
      return c.json(answer);
    })
    .post('/', requireAdmin, validate('json', newStockBody), async (c) => {
      const result = await createStock(deps, c.get('user')!, c.req.valid('json'));
      return c.json(await answer(result.row), result.replay ? 200 : 201);
    })
    .put('/:id', requireAdmin, validate('param', idParam), validate('json', stockChangeBody), async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const user = c.get('user')!;
      const images = stockImageFields.filter((name) => body[name] !== undefined);
      const status = body.status || undefined;
      const notes = body.notes?.trim() || undefined;
      const soldTo = body.soldTo || undefined;
      const changesStatus = status !== undefined || soldTo !== undefined || notes !== undefined;

      if (images.length > 0 && changesStatus) {
        throw badRequest('Send either an image or a status change, not both', field('status', 'cannot be sent with an image'));
      }
      if (images.length > 1) throw badRequest('Send one image at a time', field(images[1]!, 'send one image at a time'));
      const image = images[0];
      if (image) return c.json({ stock: await answer(await changeImage(deps, user, id, image, body)) });
      return c.json({ stock: await answer(await changeStatus(deps, user, id, body, { status, soldTo, notes })) });
    })
    .post('/:id/password', requireAdmin, validate('param', idParam), validate('json', stockPasswordBody), async (c) => {
      return c.json(await rotateStockPassword(deps, c.get('user')!, c.req.valid('param').id, c.req.valid('json')));
    })
    .delete('/:id', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      await deps.db.transaction().execute(async (trx) => {
        const deleted = await softDeleteStock(trx, id, await nextVersion(trx));
        if (!deleted) throw notFound('Wise stock');
        await recordAudit(trx, c.get('user'), { action: 'wise_stock.delete', entity: 'wise_stock', entityId: id });
        await watchStockLevel(trx);
      });
      return c.body(null, 204);
    });
}
