import { recordAudit } from '../db/audit.ts';
import type { UserRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { RateLimitedError } from '../errors.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';

/**
 * Duplicate checks one staff member may run in 10 minutes (`CREDENTIAL_CHECKS_PER_10_MIN`): a check goes
 * out when the typing pauses, a few per delivery or stock added, so an honest day never comes near 120;
 * asking over and over whether a customer's password is this one or that one does (decision 076).
 */
export const CREDENTIAL_CHECKS_PER_10_MIN = 120;

const WINDOW_MS = 10 * 60_000;

/** The routes that tell whether caller-supplied credentials exist: their refusals name one in the audit log. */
export type CredentialCheckRoute = 'GET /api/admin/credentials/check' | 'GET /api/wise-stocks/check' | 'PUT /api/admin/orders/:id';

/**
 * The per-user limit on duplicate checks, counted in the database like every limit (decisions 049, 076),
 * one budget shared by both check routes and the deliveries refused as duplicates. Past it: 429
 * `rate_limited` with Retry-After, and nothing of the check is answered. `cost` is how many secrets one
 * request asked about (the lines of a delivery), at most the whole budget. The first refusal of a staff
 * member in a window goes to the audit log (who, their role, which route; never what they asked about);
 * later ones in the same window do not, so a script asking on cannot flood the log.
 */
export function createCredentialCheckGuard(deps: Deps) {
  const limit = deps.config.rateLimits?.credentialChecksPer10Min ?? CREDENTIAL_CHECKS_PER_10_MIN;
  const checks = createFixedWindowLimiter({ db: deps.db, name: 'api.credential_checks', limit, windowMs: WINDOW_MS, clock: deps.clock });
  // One audit entry per staff member and window: a limit of 1, counted only when a check is refused.
  const audited = createFixedWindowLimiter({ db: deps.db, name: 'api.credential_checks_audited', limit: 1, windowMs: WINDOW_MS, clock: deps.clock });
  return async (user: UserRow, route: CredentialCheckRoute, cost = 1): Promise<void> => {
    const allowed = await checks.hit(user.id, Math.min(cost, limit));
    if (allowed.allowed) return;
    if ((await audited.hit(user.id)).allowed) {
      await recordAudit(deps.db, user, {
        action: 'user.credential_checks_limited',
        entity: 'user',
        entityId: user.id,
        details: { role: user.user_role, route, limit, retryAfterSeconds: allowed.retryAfterSeconds },
      });
    }
    throw new RateLimitedError(allowed.retryAfterSeconds);
  };
}
