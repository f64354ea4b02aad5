import { Hono } from 'hono';
import { idParam } from '../contract/fields.ts';
import { listPageQuery } from '../contract/list-pages.ts';
import { createApiKeyBody, type AdminWebhook, type CreatedApiKey } from '../contract/partners.ts';
import { findApiKey, insertApiKey, listApiKeysPage, presentApiKey, revokeApiKey } from '../db/api-keys.ts';
import { recordAudit } from '../db/audit.ts';
import { listAllEndpoints, listDeliveries, resendDelivery } from '../db/webhooks.ts';
import { sendDueWebhooks } from '../webhooks/send.ts';
import { toApiWebhook, toApiWebhookDelivery } from '../presenters/webhooks.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { newApiKey } from '../lib/api-key-secret.ts';
import { runInBackground } from '../lib/outbox-timer.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, type AppEnv } from '../middleware/session.ts';
import { answerListPage } from '../operations/list-page.ts';

/** /api/admin/api-keys (decision 173): admins make, list and revoke the keys resellers and automation use. */
export function adminApiKeyRoutes(deps: Deps) {
  return (
    new Hono<AppEnv>()
      .use('*', requireAdmin)
      .use('*', async (c, next) => {
        await next();
        c.header('Cache-Control', 'no-store');
      })
      // A page of the keys, newest first; the next page's cursor in X-Next-Cursor (decision 242).
      .get('/', validate('query', listPageQuery), async (c) =>
        c.json((await answerListPage(c, c.req.valid('query'), (limit, after) => listApiKeysPage(deps.db, limit, after))).map(presentApiKey)),
      )
      // Every account's webhook endpoints with their 20 newest deliveries and attempts (decision 174): what was sent, and what came of it.
      .get('/webhooks', async (c) => {
        const endpoints = await listAllEndpoints(deps.db);
        const answer: AdminWebhook[] = await Promise.all(
          endpoints.map(async (row) => ({
            ...toApiWebhook(row),
            userEmail: row.user_email,
            deliveries: (await listDeliveries(deps.db, row.id, 20)).map(toApiWebhookDelivery),
          })),
        );
        return c.json(answer);
      })
      .post('/', validate('json', createApiKeyBody), async (c) => {
        const { userId, name, scopes } = c.req.valid('json');
        const me = c.get('user')!;
        const { secret, prefix, hash } = await newApiKey();
        const id = crypto.randomUUID();
        const created = await deps.db.transaction().execute(async (trx) => {
          const owner = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
          if (!owner) throw badRequest('userId: no such account', [{ path: 'userId', message: 'no such account' }]);
          await insertApiKey(trx, { id, userId, name, prefix, hash, scopes: [...new Set(scopes)], createdBy: me.id });
          await recordAudit(trx, me, { action: 'api_key.create', entity: 'api_key', entityId: id, details: { userId, name, prefix, scopes } });
          return (await findApiKey(trx, id))!;
        });
        const answer: CreatedApiKey = { ...presentApiKey(created), secret };
        return c.json(answer, 201);
      })
      .post('/:id/revoke', validate('param', idParam), async (c) => {
        const { id } = c.req.valid('param');
        const me = c.get('user')!;
        const row = await deps.db.transaction().execute(async (trx) => {
          const existing = await findApiKey(trx, id);
          if (!existing) throw notFound('API key');
          if (existing.revoked_at) throw conflict('This key was already revoked');
          await revokeApiKey(trx, id);
          await recordAudit(trx, me, {
            action: 'api_key.revoke',
            entity: 'api_key',
            entityId: id,
            details: { userId: existing.user_id, prefix: existing.prefix },
          });
          return (await findApiKey(trx, id))!;
        });
        return c.json(presentApiKey(row));
      })
      // Resend (decision 225): a finished delivery is posted again now, with the same webhook-id.
      .post('/webhooks/deliveries/:id/resend', validate('param', idParam), async (c) => {
        const { id } = c.req.valid('param');
        const due = await deps.db.transaction().execute(async (trx) => {
          const found = await trx.selectFrom('webhook_deliveries').select(['id', 'state']).where('id', '=', id).executeTakeFirst();
          if (!found) throw notFound('Webhook delivery');
          const resent = await resendDelivery(trx, id);
          if (!resent) throw conflict(found.state === 'pending' ? 'This delivery is still being sent' : 'Its endpoint was deleted');
          await recordAudit(trx, c.get('user'), {
            action: 'webhook_delivery.resend',
            entity: 'webhook_endpoint',
            entityId: resent.endpoint_id,
            details: { deliveryId: id, from: found.state },
          });
          return resent;
        });
        runInBackground(c, sendDueWebhooks(deps));
        return c.json({ id: due.id, state: 'pending' as const }, 202);
      })
  );
}
