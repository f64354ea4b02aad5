import { createMiddleware } from 'hono/factory';
import { API_KEY_PREFIX, type ApiKeyScope } from '../contract/partners.ts';
import { keyForHash, touchApiKey } from '../db/api-keys.ts';
import { recordAudit } from '../db/audit.ts';
import type { ApiKeyRow } from '../db/partner-schema.ts';
import { noteLocalWrite } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { forbidden, RateLimitedError, unauthorized } from '../errors.ts';
import { hashApiKey } from '../lib/api-key-secret.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';
import type { SignedInEnv } from './session.ts';

export interface ApiKeyEnv {
  Variables: SignedInEnv['Variables'] & { apiKey: ApiKeyRow };
}

/** Requests one key may make in a minute (`rateLimits.apiKeyRequestsPerMinute`). */
export const API_KEY_REQUESTS_PER_MINUTE = 120;

/**
 * /api/v1 (decision 173): `Authorization: Bearer sk_…` names a live key of a live account, which the
 * request then acts as (the session middleware leaves such a token alone). Limited per key; every request
 * that is not a read is audited with the key, its method, path and status; the key's last use is noted.
 */
export function apiKeyAuth(deps: Deps) {
  const limit = deps.config.rateLimits?.apiKeyRequestsPerMinute ?? API_KEY_REQUESTS_PER_MINUTE;
  const limiter = createFixedWindowLimiter({ db: deps.db, name: 'api.v1', limit, windowMs: 60_000, clock: deps.clock });
  return createMiddleware<ApiKeyEnv>(async (c, next) => {
    const token = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token?.startsWith(API_KEY_PREFIX)) throw unauthorized('Send an API key: Authorization: Bearer sk_…');
    const found = await keyForHash(deps.db, await hashApiKey(token));
    if (!found) throw unauthorized('This API key is not valid, or it was revoked');
    const { key, user } = found;
    const allowed = await limiter.hit(key.id);
    if (!allowed.allowed) throw new RateLimitedError(allowed.retryAfterSeconds);
    c.set('apiKey', key);
    c.set('user', user);
    // The existing routes /api/v1 runs (the order placement) ask for a signed-in caller: the key's account is.
    c.set('auth', { sub: user.id, email: user.email });
    c.header('Cache-Control', 'no-store');
    await touchApiKey(deps.db, key.id);
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    try {
      await next();
    } finally {
      noteLocalWrite();
    }
    await recordAudit(deps.db, user, {
      action: 'api_key.request',
      entity: 'api_key',
      entityId: key.id,
      details: { method: c.req.method, path: c.req.path, status: c.res.status },
    });
  });
}

/** The key must hold `scope`: 403 naming it otherwise. */
export const requireScope = (scope: ApiKeyScope) =>
  createMiddleware<ApiKeyEnv>(async (c, next) => {
    if (!c.get('apiKey').scopes.includes(scope)) throw forbidden(`This API key lacks the scope ${scope}`);
    return next();
  });
