import { Hono } from 'hono';
import { pushKeepOnlyBody, pushSubscribeBody, pushUnsubscribeBody } from '../contract/push-requests.ts';
import { removeOtherSubscriptions, removeOwnSubscription, saveSubscription } from '../db/push.ts';
import type { Deps } from '../deps.ts';
import { badRequest, misconfigured } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireRole, type AppEnv } from '../middleware/session.ts';

const localHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The browsers' push services (Chrome, Edge, Opera and Samsung: FCM; Firefox: Mozilla's autopush; Safari:
 * Apple's; Windows: WNS). The server posts to a subscription's endpoint, so an endpoint anywhere else
 * would let any signed-in account make the server send requests to hosts of its choosing (decision 067).
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'push.services.mozilla.com', 'push.apple.com', 'notify.windows.com'];
const isPushService = (hostname: string) => PUSH_SERVICE_HOSTS.some((host) => hostname === host || hostname.endsWith(`.${host}`));

/**
 * An endpoint must be a known push service on https. A plain-http one on this machine is taken only when
 * the configuration allows it for a local push-service stand-in (tests).
 */
function checkEndpoint(deps: Deps, endpoint: string) {
  const url = new URL(endpoint);
  if (url.protocol === 'https:' && isPushService(url.hostname)) return;
  if (deps.config.push?.allowLocalEndpoints && localHosts.has(url.hostname)) return;
  throw badRequest('endpoint: must be the https:// address of a browser push service', [
    { path: 'endpoint', message: 'must be the https:// address of a browser push service' },
  ]);
}

/** /api/push: this device's push subscription (decision 067). The public key is in GET /api/config. */
export function pushRoutes(deps: Deps) {
  const configured = () => {
    if (!deps.config.push) throw misconfigured('Notifications are not set up on this server (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set)');
  };
  return (
    new Hono<AppEnv>()
      .post('/subscriptions', requireRole(), validate('json', pushSubscribeBody), async (c) => {
        configured();
        const body = c.req.valid('json');
        checkEndpoint(deps, body.endpoint);
        const me = c.get('user');
        const saved = await deps.db.transaction().execute((trx) =>
          saveSubscription(trx, me.id, {
            endpoint: body.endpoint,
            p256dh: body.keys.p256dh,
            auth: body.keys.auth,
            deviceId: body.deviceId,
            deviceLabel: body.deviceLabel,
          }),
        );
        c.header('Cache-Control', 'no-store');
        return c.json({ subscribed: true as const, createdAt: new Date(saved.created_at).toISOString() }, 201);
      })
      .delete('/subscriptions', requireRole(), validate('json', pushUnsubscribeBody), async (c) => {
        const me = c.get('user');
        const removed = await removeOwnSubscription(deps.db, me.id, c.req.valid('json').endpoint);
        c.header('Cache-Control', 'no-store');
        return c.json({ removed });
      })
      // "Sign out other devices": the devices signed out stop being told too (they cannot be named, so all but this one go).
      .post('/subscriptions/others', requireRole(), validate('json', pushKeepOnlyBody), async (c) => {
        const me = c.get('user');
        const removed = await removeOtherSubscriptions(deps.db, me.id, c.req.valid('json').keep);
        c.header('Cache-Control', 'no-store');
        return c.json({ removed });
      })
  );
}
