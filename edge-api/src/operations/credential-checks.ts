import { recordAudit } from '../db/audit.ts';
import type { UserRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { RateLimitedError } from '../errors.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';
import { rateLimit, rateLimitSettings } from '../lib/rate-limit-settings.ts';

/**
 * Duplicate checks one staff member may run in 10 minutes (`CREDENTIAL_CHECKS_PER_10_MIN`): a check goes
 * out when the typing pauses, a few per delivery or stock added, so an honest day never comes near 120;
 * asking over and over whether a customer's password is this one or that one does (decision 076).
 */
export const CREDENTIAL_CHECKS_PER_10_MIN = rateLimitSettings.credentialChecksPer10Min.default;

/**
 * Lines (a server login: one) one staff member may deliver in 10 minutes (`DELIVERED_LINES_PER_10_MIN`):
 * each delivered secret is compared with every delivered and stocked one, so a delivery is a check too
 * (decision 138). Two full deliveries of 500 lines fit in a window.
 */
export const DELIVERED_LINES_PER_10_MIN = rateLimitSettings.deliveredLinesPer10Min.default;

const WINDOW_MS = 10 * 60_000;

/** The routes that tell whether caller-supplied credentials exist: their refusals name one in the audit log. */
export type CredentialCheckRoute = 'GET /api/admin/credentials/check' | 'GET /api/wise-stocks/check' | 'PUT /api/admin/orders/:id';

/**
 * A per-user budget counted in the database like every limit (decision 049). Past it: 429 `rate_limited`
 * with Retry-After, and nothing of the request is answered. `cost` is how many secrets one request asks
 * about, at most the whole budget, so a window that starts afresh always takes it. The first refusal of a
 * staff member in a window goes to the audit log (who, their role, which route; never what they asked
 * about); later ones in the same window do not, so a script asking on cannot flood the log.
 */
function staffBudget(deps: Deps, options: { name: string; limit: number; auditAction: string }) {
  const { name, limit, auditAction } = options;
  const budget = createFixedWindowLimiter({ db: deps.db, name, limit, windowMs: WINDOW_MS, clock: deps.clock });
  // One audit entry per staff member and window: a limit of 1, counted only when a request is refused.
  const audited = createFixedWindowLimiter({ db: deps.db, name: `${name}_audited`, limit: 1, windowMs: WINDOW_MS, clock: deps.clock });
  return async (user: UserRow, route: CredentialCheckRoute, cost = 1): Promise<void> => {
    const allowed = await budget.hit(user.id, Math.min(cost, limit));
    if (allowed.allowed) return;
    if ((await audited.hit(user.id)).allowed) {
      await recordAudit(deps.db, user, {
        action: auditAction,
        entity: 'user',
        entityId: user.id,
        details: { role: user.user_role, route, limit, retryAfterSeconds: allowed.retryAfterSeconds },
      });
    }
    throw new RateLimitedError(allowed.retryAfterSeconds);
  };
}

/** The limit on duplicate checks (decision 076): one budget shared by both check routes. */
export function createCredentialCheckGuard(deps: Deps) {
  const limit = rateLimit(deps.config.rateLimits, 'credentialChecksPer10Min');
  return staffBudget(deps, { name: 'api.credential_checks', limit, auditAction: 'user.credential_checks_limited' });
}

/**
 * The limit on delivered lines and server logins (decision 138): a budget of its own, drawn by
 * every such delivery before its duplicate check, whether it turns out known or not. Past it nothing is
 * compared, so a 429 never says whether a secret is known; a refusal is audited as
 * `user.delivered_lines_limited`.
 */
export function createDeliveredLinesGuard(deps: Deps) {
  const limit = rateLimit(deps.config.rateLimits, 'deliveredLinesPer10Min');
  return staffBudget(deps, { name: 'api.delivered_lines', limit, auditAction: 'user.delivered_lines_limited' });
}
