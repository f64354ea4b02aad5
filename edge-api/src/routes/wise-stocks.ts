import { Hono } from 'hono';
import { z } from 'zod';
import { isHttpUrl, parseBlobRef } from '../blobs/blob-store.ts';
import { recordAudit } from '../db/audit.ts';
import { nextVersion } from '../db/versions.ts';
import {
  findStock,
  findStockIncludingDeleted,
  insertStock,
  listStocks,
  lockStock,
  setStockImage,
  setStockStatus,
  softDeleteStock,
  stockImageFields,
  stockStatuses,
  toWiseStock,
} from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { expectedVersion, idParam, uuid } from '../lib/schemas.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { requireAdmin, requireStaff, type AppEnv } from '../middleware/session.ts';

const requiredMessage = { error: (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be text') };

const requiredText = (max: number) => z.string(requiredMessage).trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** An image uploaded through POST /api/uploads (kind stock), or an external http(s) URL; '' is no image. */
const stockImage = z
  .string(requiredMessage)
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => value === '' || parseBlobRef(value)?.bucket === 'stock-images' || isHttpUrl(value), {
    message: 'must be an uploaded stock image (stock-images/...) or an http(s) URL',
  });

const createBody = z.object({
  id: uuid.optional(),
  wiseName: requiredText(200),
  wiseEmail: requiredText(320).pipe(z.email('must be an email address')),
  // Passwords are kept exactly as typed.
  wisePassword: z
    .string(requiredMessage)
    .max(500, 'must be at most 500 characters')
    .refine((value) => value.trim().length > 0, { message: 'is required' }),
  authImage: stockImage.refine((value) => value !== '', { message: 'is required' }),
  docImg1: stockImage.nullish().transform((value) => value ?? ''),
  docImg2: stockImage.nullish().transform((value) => value ?? ''),
  userName: requiredText(200),
  // serviceName and status are not read: a new stock is always a 'WiseStock' and 'available'.
});

const updateBody = z.object({
  authImage: stockImage.optional(),
  docImg1: stockImage.optional(),
  docImg2: stockImage.optional(),
  status: z.enum([...stockStatuses, ''], { error: `must be one of ${stockStatuses.join(', ')}` }).optional(),
  soldTo: z.union([uuid, z.literal(''), z.null()]).optional(),
  notes: z.string().max(2000, 'must be at most 2000 characters').nullish(),
  // The client's clock is not trusted; updatedAt is set by the server.
  updatedAt: z.unknown().optional(),
  version: expectedVersion,
});

const field = (path: string, message: string) => [{ path, message }];

export function wiseStockRoutes(deps: Deps) {
  const answer = (row: Parameters<typeof toWiseStock>[0]) => toWiseStock(row, deps.secrets, deps.blobs);

  return new Hono<AppEnv>()
    .get('/', requireStaff, async (c) => c.json(await Promise.all((await listStocks(deps.db)).map(answer))))
    .get('/:id', requireStaff, validate('param', idParam), async (c) => {
      const row = await findStock(deps.db, c.req.valid('param').id);
      if (!row) throw notFound('Wise stock');
      return c.json(await answer(row));
    })
    .post('/', requireAdmin, validate('json', createBody), async (c) => {
      const { id = crypto.randomUUID(), wisePassword, ...fields } = c.req.valid('json');
      const user = c.get('user')!;
      const [wisePasswordEnc, wisePasswordIndex] = await Promise.all([deps.secrets.encrypt(wisePassword), deps.secrets.blindIndex(wisePassword)]);
      const result = await deps.db.transaction().execute(async (trx) => {
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
        await recordAudit(trx, user, { action: 'wise_stock.create', entity: 'wise_stock', entityId: id, details: { wiseName: fields.wiseName } });
        return { row: created, replay: false };
      });
      return c.json(await answer(result.row), result.replay ? 200 : 201);
    })
    .put('/:id', requireAdmin, validate('param', idParam), validate('json', updateBody), async (c) => {
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
      if (image) {
        const value = body[image]!;
        if (image === 'authImage' && value === '') throw badRequest('authImage: is required', field('authImage', 'is required'));
        const row = await deps.db.transaction().execute(async (trx) => {
          const current = await lockStock(trx, id);
          if (!current) throw notFound('Wise stock');
          assertVersion(current.version, body.version, 'Wise stock');
          const updated = await setStockImage(trx, id, image, value, await nextVersion(trx));
          await recordAudit(trx, user, { action: 'wise_stock.image', entity: 'wise_stock', entityId: id, details: { field: image, removed: value === '' } });
          return updated;
        });
        return c.json({ stock: await answer(row) });
      }

      if (!status) throw badRequest('Please select a status', field('status', 'is required'));
      if (status === 'sold' && !soldTo) throw badRequest('Please select a user when marking as sold', field('soldTo', 'is required when the status is sold'));
      const row = await deps.db.transaction().execute(async (trx) => {
        const current = await lockStock(trx, id);
        if (!current) throw notFound('Wise stock');
        assertVersion(current.version, body.version, 'Wise stock');
        if (status === 'sold') {
          const buyer = await trx.selectFrom('users').select('id').where('id', '=', soldTo!).where('deleted_at', 'is', null).executeTakeFirst();
          if (!buyer) throw badRequest('The selected user does not exist', field('soldTo', 'no such user'));
        }
        const stillSameSale = status === 'sold' && current.status === 'sold' && current.sold_to === soldTo;
        const updated = await setStockStatus(
          trx,
          id,
          { status, soldTo: status === 'sold' ? soldTo! : null, orderId: stillSameSale ? current.order_id : null, notes },
          await nextVersion(trx),
        );
        await recordAudit(trx, user, {
          action: 'wise_stock.status',
          entity: 'wise_stock',
          entityId: id,
          details: { from: current.status, to: status, soldTo: updated.sold_to, notesChanged: notes !== undefined },
        });
        return updated;
      });
      return c.json({ stock: await answer(row) });
    })
    .delete('/:id', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      await deps.db.transaction().execute(async (trx) => {
        const deleted = await softDeleteStock(trx, id, await nextVersion(trx));
        if (!deleted) throw notFound('Wise stock');
        await recordAudit(trx, c.get('user'), { action: 'wise_stock.delete', entity: 'wise_stock', entityId: id });
      });
      return c.body(null, 204);
    });
}
