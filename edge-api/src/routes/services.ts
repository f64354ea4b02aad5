import { Hono, type TypedResponse } from 'hono';
import type { Service } from '../contract/services.ts';
import { idParam } from '../contract/fields.ts';
import { autoDeliverProblem, serviceBody } from '../contract/service-requests.ts';
import { recordAudit } from '../db/audit.ts';
import { findService, insertService, listServices, softDeleteService, updateService } from '../db/services.ts';
import { keepsOwnStock } from '../db/service-stocks.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { nextVersion, readVersionToken } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { badRequest, notFound } from '../errors.ts';
import { contentTag, matchesTag } from '../lib/etag.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { requireAdmin, type AppEnv } from '../middleware/session.ts';
import { toService } from '../presenters/services.ts';

/** Automatic delivery draws on Wise stock (decision 061): refused, with nothing written, for another category. */
function assertCanAutoDeliver(fields: { autoDeliver?: boolean; category: string; deliveryKind?: string }, keepsStock = false) {
  const problem = autoDeliverProblem(fields, keepsStock);
  if (problem) throw badRequest(`autoDeliver: ${problem}`, [{ path: 'autoDeliver', message: problem }]);
}

/** The longest a list read at one version is answered again: a bound for writes that take no version (hand-run SQL). */
export const SERVICE_LIST_MEMO_MS = 10_000;

/** How long browsers and CDNs may use the public list before asking again (with its ETag: a 304 then). */
const SERVICE_LIST_CACHE_CONTROL = 'public, max-age=5, must-revalidate';

/**
 * The public list of services as JSON text and its strong ETag (a hash of the text, the same in every
 * process and isolate), remembered with the version token read before it (decisions 073, 189). Every write of a
 * service (and of anything else) takes a version in its transaction (`nextVersion`), and the token, which
 * changes whenever such a write commits, is read before the rows, in a statement of its own that starts
 * later: the text stored under token T holds every change up to T at least. Each request reads the token
 * first, so a change committed by this process, another one or another isolate is answered from the very
 * next request on. The same for
 * every caller: nothing private is in it.
 */
function serviceListMemo(deps: Deps) {
  let memo: { version: string; json: string; etag: string; at: number } | undefined;
  return async (): Promise<{ json: string; etag: string }> => {
    const version = await readVersionToken(deps.db);
    const now = Date.now();
    if (memo && memo.version === version && now - memo.at < SERVICE_LIST_MEMO_MS) return memo;
    const json = JSON.stringify((await listServices(deps.db)).map(toService));
    memo = { version, json, etag: await contentTag(json), at: now };
    return memo;
  };
}

export function serviceRoutes(deps: Deps) {
  const serviceList = serviceListMemo(deps);
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { json, etag } = await serviceList();
      const headers = { ETag: etag, 'Cache-Control': SERVICE_LIST_CACHE_CONTROL, Vary: 'Accept-Encoding' };
      if (matchesTag(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers) as unknown as TypedResponse<Service[], 200, 'json'>;
      return c.body(json, 200, { ...headers, 'Content-Type': 'application/json' }) as unknown as TypedResponse<Service[], 200, 'json'>;
    })
    .get('/:id', validate('param', idParam), async (c) => {
      const row = await findService(deps.db, c.req.valid('param').id);
      if (!row) throw notFound('Service');
      return c.json(toService(row));
    })
    .post('/', requireAdmin, validate('json', serviceBody), async (c) => {
      const { id = crypto.randomUUID(), version: _ignored, ...fields } = c.req.valid('json');
      assertCanAutoDeliver(fields);
      const row = await deps.db.transaction().execute(async (trx) => {
        const existing = await findService(trx, id);
        if (existing) return existing; // a replayed create answers the first result
        const created = await insertService(trx, id, fields, await nextVersion(trx));
        await recordAudit(trx, c.get('user'), { action: 'service.create', entity: 'service', entityId: id, details: { title: fields.title } });
        if (fields.lowStockThreshold != null) await watchStockLevel(trx);
        return created;
      });
      return c.json(toService(row), 201);
    })
    .put('/:id', requireAdmin, validate('param', idParam), validate('json', serviceBody), async (c) => {
      const { id } = c.req.valid('param');
      const { id: _bodyId, version, ...fields } = c.req.valid('json');
      const row = await deps.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('services')
          .select(['version', 'delivery_kind'])
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('Service');
        // A service with stock of its own may deliver automatically from it (decision 072).
        assertCanAutoDeliver(
          { ...fields, deliveryKind: fields.deliveryKind ?? current.delivery_kind },
          fields.autoDeliver ? await keepsOwnStock(trx, id) : false,
        );
        assertVersion(current.version, version, 'service');
        const updated = await updateService(trx, id, fields, await nextVersion(trx));
        await recordAudit(trx, c.get('user'), { action: 'service.update', entity: 'service', entityId: id, details: { title: fields.title } });
        if (fields.lowStockThreshold !== undefined) await watchStockLevel(trx);
        return updated!;
      });
      return c.json(toService(row));
    })
    .delete('/:id', requireAdmin, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      await deps.db.transaction().execute(async (trx) => {
        const deleted = await softDeleteService(trx, id, await nextVersion(trx));
        if (!deleted) throw notFound('Service');
        await recordAudit(trx, c.get('user'), { action: 'service.delete', entity: 'service', entityId: id });
        await watchStockLevel(trx);
      });
      return c.body(null, 204);
    });
}
