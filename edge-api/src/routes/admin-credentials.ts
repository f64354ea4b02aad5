import { Hono } from 'hono';
import { credentialsCheckQuery } from '../contract/order-requests.ts';
import type { CredentialsCheck } from '../contract/orders.ts';
import { checkCredentials } from '../db/credentials.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { requireStaff, type AppEnv } from '../middleware/session.ts';
import { createCredentialCheckGuard } from '../operations/credential-checks.ts';

/** /api/admin/credentials: whether credentials about to be delivered were delivered before (spec section 5). */
export function adminCredentialRoutes(deps: Deps) {
  const limitChecks = createCredentialCheckGuard(deps);
  return new Hono<AppEnv>().get('/check', requireStaff, validate('query', credentialsCheckQuery), async (c) => {
    const { email, password, excludeOrderId } = c.req.valid('query');
    // Each answer says whether a password was delivered before: limited per staff member, one budget with
    // GET /api/wise-stocks/check (decision 076).
    await limitChecks(c.get('user'), 'GET /api/admin/credentials/check');
    const [emailIndex, passwordIndex] = await Promise.all([
      email !== undefined ? deps.secrets.blindIndex(email.toLowerCase()) : undefined,
      password !== undefined ? deps.secrets.blindIndex(password) : undefined,
    ]);
    const answer: CredentialsCheck = await checkCredentials(deps.db, { emailIndex, passwordIndex, excludeOrderId });
    return c.json(answer);
  });
}
