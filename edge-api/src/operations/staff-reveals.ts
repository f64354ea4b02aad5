import { recordAudit } from '../db/audit.ts';
import { notifyStaff } from '../db/notifications.ts';
import type { UserRow } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { RateLimitedError } from '../errors.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';
import { createSlidingWindowLimiter } from '../lib/sliding-window.ts';
import { rateLimit, rateLimitSettings } from '../lib/rate-limit-settings.ts';

/**
 * Stock passwords one staff member, admins included, may read in clear in 10 minutes
 * (`STAFF_REVEALS_PER_10_MIN`; decision 160): a moderator shows a password to hand an account over or to
 * check one, a few an hour; 30 in 10 minutes is far past that and far short of emptying the stock.
 */
export const STAFF_REVEALS_PER_10_MIN = rateLimitSettings.staffRevealsPer10Min.default;

const WINDOW_MS = 10 * 60_000;

/** The routes that answer a stock password in clear to staff. */
export type StaffRevealRoute = 'POST /api/wise-stocks/:id/reveal' | 'GET /api/wise-stocks/export.csv' | 'GET /api/service-stocks/export.csv';

/** How much of the budget spent makes admins hear of it: 80 %, rounded up (24 of 30). */
export const warnAt = (limit: number): number => Math.ceil(limit * 0.8);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Tells admins, once per staff member and window, that this one has spent `used` of the budget: a staff
 * notification only admins get (decision 160) and an audit entry, in one transaction. The dedupe key
 * names the window, so two processes crossing the threshold at once still write one.
 */
async function warnAdmins(deps: Deps, user: UserRow, used: number, limit: number, windowEnd: Date): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const version = await nextVersion(trx);
    const written = await notifyStaff(trx, version, {
      kind: 'reveal_budget',
      title: `${user.email} is reading many stock passwords`,
      body:
        `This ${user.user_role} has used ${used} of the ${plural(limit, 'password reveal')} allowed in 10 minutes (an export with passwords ` +
        `uses them all); past that they are refused until their earliest reveal is 10 minutes old. If this is not expected, change their role in Users: it holds from their next request.`,
      dedupeKey: `reveal_budget:${user.id}:${windowEnd.getTime()}`,
    });
    if (!written) return;
    await recordAudit(trx, user, { action: 'user.reveals_warned', entity: 'user', entityId: user.id, details: { role: user.user_role, used, limit } });
  });
}

/**
 * The staff's reveal budget (decision 160), counted in the database like every limit (decision 049), over
 * any 10 minutes (a sliding log, decision 246: a clock window let twice the budget through across its edge),
 * atomically, so parallel requests cannot overdraw it. A reveal costs 1; `cost` may be more (an export with
 * passwords costs the whole budget), at most the whole budget, so 10 quiet minutes always take it. From
 * `warnAt(limit)` spent, admins are told once per 10-minute clock window. Past the budget: 429 `rate_limited` with Retry-After, nothing opened, and the first
 * refusal of the window goes to the audit log (later ones do not, so a script asking on cannot flood it).
 */
export function createStaffRevealGuard(deps: Deps) {
  const limit = rateLimit(deps.config.rateLimits, 'staffRevealsPer10Min');
  const window = { windowMs: WINDOW_MS, clock: deps.clock };
  const budget = createSlidingWindowLimiter({ db: deps.db, name: 'api.staff_reveals_sliding', limit, ...window });
  // Limits of 1, counted only when there is something to say: one warning and one refusal entry a window.
  const warned = createFixedWindowLimiter({ db: deps.db, name: 'api.staff_reveals_warned', limit: 1, ...window });
  const audited = createFixedWindowLimiter({ db: deps.db, name: 'api.staff_reveals_audited', limit: 1, ...window });

  return async (user: UserRow, route: StaffRevealRoute, cost = 1): Promise<void> => {
    const drawn = await budget.hit(user.id, Math.min(cost, limit));
    const used = drawn.used ?? 0;
    if (used >= warnAt(limit) && (await warned.hit(user.id)).allowed) {
      const now = deps.clock().getTime();
      await warnAdmins(deps, user, Math.min(used, limit), limit, new Date(now - (now % WINDOW_MS) + WINDOW_MS));
    }
    if (drawn.allowed) return;
    if ((await audited.hit(user.id)).allowed) {
      await recordAudit(deps.db, user, {
        action: 'user.reveals_limited',
        entity: 'user',
        entityId: user.id,
        details: { role: user.user_role, route, limit, retryAfterSeconds: drawn.retryAfterSeconds },
      });
    }
    throw new RateLimitedError(drawn.retryAfterSeconds);
  };
}
