import { Hono } from 'hono';
import { auditQuery } from '../contract/audit-requests.ts';
import { auditTrail } from '../db/audit.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, type AppEnv } from '../middleware/session.ts';
import { toAuditEntry } from '../presenters/audit.ts';

/** /api/admin/audit: who changed what, for admins. */
export function adminAuditRoutes(deps: Deps) {
  return new Hono<AppEnv>().get('/', requireAdmin, validate('query', auditQuery), async (c) => {
    const { entity, entityId } = c.req.valid('query');
    return c.json((await auditTrail(deps.db, entity, entityId)).map(toAuditEntry));
  });
}
