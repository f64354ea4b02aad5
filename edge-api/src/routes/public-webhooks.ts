import { Hono } from 'hono';
import { idParam } from '../contract/fields.ts';
import { createWebhookBody } from '../contract/partners.ts';
import { recordAudit } from '../db/audit.ts';
import { ENDPOINTS_MAX, findEndpoint, listDeliveries, listEndpoints } from '../db/webhooks.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { newWebhookSecret } from '../lib/api-key-secret.ts';
import { validate } from '../lib/validate.ts';
import { requireScope, type ApiKeyEnv } from '../middleware/api-key.ts';
import { toApiWebhook, toApiWebhookDelivery } from '../presenters/webhooks.ts';
import { endpointProblem } from '../webhooks/endpoint-url.ts';

/** /api/v1/webhooks (decision 174): an account's endpoints for its order events, and what was sent to each. */
export function publicWebhookRoutes(deps: Deps) {
  return new Hono<ApiKeyEnv>()
    .use('*', requireScope('orders:read'))
    .get('/', async (c) => c.json((await listEndpoints(deps.db, c.get('user').id)).map(toApiWebhook)))
    .post('/', validate('json', createWebhookBody), async (c) => {
      const { url, events } = c.req.valid('json');
      const me = c.get('user');
      // Resolved now, before anything is written: a private, loopback or link-local address is refused.
      const problem = await endpointProblem(url, deps.config.webhooks?.allowHosts ?? [], deps.config.webhooks?.network);
      if (problem) throw badRequest(`url: ${problem}`, [{ path: 'url', message: problem }]);
      const secret = newWebhookSecret();
      const id = crypto.randomUUID();
      const row = await deps.db.transaction().execute(async (trx) => {
        // The account's row lock: two registrations at once cannot both pass the cap.
        await trx.selectFrom('users').select('id').where('id', '=', me.id).forUpdate().execute();
        if ((await listEndpoints(trx, me.id)).length >= ENDPOINTS_MAX)
          throw conflict(`An account may have at most ${ENDPOINTS_MAX} webhook endpoints: delete one first`);
        const created = await trx
          .insertInto('webhook_endpoints')
          .values({ id, user_id: me.id, url, events: [...new Set(events)], secret_enc: await deps.secrets.encrypt(secret) })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, me, {
          action: 'webhook_endpoint.create',
          entity: 'webhook_endpoint',
          entityId: id,
          details: { url, events, apiKeyId: c.get('apiKey').id },
        });
        return created;
      });
      return c.json({ ...toApiWebhook(row), secret }, 201);
    })
    .delete('/:id', validate('param', idParam), async (c) => {
      const me = c.get('user');
      const { id } = c.req.valid('param');
      await deps.db.transaction().execute(async (trx) => {
        const gone = await trx
          .updateTable('webhook_endpoints')
          .set({ deleted_at: new Date() })
          .where('id', '=', id)
          .where('user_id', '=', me.id)
          .where('deleted_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!gone) throw notFound('Webhook endpoint');
        await recordAudit(trx, me, { action: 'webhook_endpoint.delete', entity: 'webhook_endpoint', entityId: id, details: { apiKeyId: c.get('apiKey').id } });
      });
      return c.body(null, 204);
    })
    .get('/:id/deliveries', validate('param', idParam), async (c) => {
      const endpoint = await findEndpoint(deps.db, c.get('user').id, c.req.valid('param').id);
      if (!endpoint) throw notFound('Webhook endpoint');
      return c.json((await listDeliveries(deps.db, endpoint.id)).map(toApiWebhookDelivery));
    });
}
