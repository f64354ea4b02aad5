import { Hono } from 'hono';
import { idParam } from '../contract/fields.ts';
import { vaultRegisterBody, vaultUnlockBody } from '../contract/vault-requests.ts';
import { VAULT_UNLOCK_HEADER, type VaultRegistered, type VaultSummary, type VaultUnlocked } from '../contract/vaults.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { requireRole, type AppEnv } from '../middleware/session.ts';
import { listVaults, presentVault, registerVault, removeVault, unlockVault } from '../operations/device-vaults.ts';

/**
 * /api/vaults: the server's half of each device vault of the signed-in person (decision 181). Any role
 * (staff keep stock passwords in a vault too); only the vault's owner reaches it; every answer `no-store`.
 */
export function vaultRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get('/', requireRole(), async (c) => {
      const rows = await listVaults(deps, c.get('user')!);
      c.header('Cache-Control', 'no-store');
      return c.json(rows.map(presentVault) satisfies VaultSummary[]);
    })
    .post('/', requireRole(), validate('json', vaultRegisterBody), async (c) => {
      const answer: VaultRegistered = await registerVault(deps, c.get('auth')!, c.get('user')!, c.req.valid('json'), c.req.header(VAULT_UNLOCK_HEADER));
      c.header('Cache-Control', 'no-store');
      return c.json(answer, 201);
    })
    .post('/:id/unlock', requireRole(), validate('param', idParam), validate('json', vaultUnlockBody), async (c) => {
      const answer: VaultUnlocked = await unlockVault(deps, c.get('user')!, c.req.valid('param').id, c.req.valid('json').verifier);
      c.header('Cache-Control', 'no-store');
      return c.json(answer);
    })
    .delete('/:id', requireRole(), validate('param', idParam), async (c) => {
      await removeVault(deps, c.get('auth')!, c.get('user')!, c.req.valid('param').id, c.req.header(VAULT_UNLOCK_HEADER));
      c.header('Cache-Control', 'no-store');
      return c.body(null, 204);
    });
}
