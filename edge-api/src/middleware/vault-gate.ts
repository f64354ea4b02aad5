import { createMiddleware } from 'hono/factory';
import { VAULT_ID_HEADER, VAULT_UNLOCK_HEADER } from '../contract/vaults.ts';
import { sealerFor } from '../contract/vault-envelope.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { checkUnlockToken, signedInFreshly } from '../db/vault-tokens.ts';
import { runWithGate, type SecretGate } from '../lib/secret-gate.ts';
import type { AppEnv } from './session.ts';

/**
 * Decides, once per request and only when an owner's order is presented, what its delivered secrets
 * become (decision 182; presenters/secret-gate.ts): a device vault on the account means no clear secret
 * without an unlock token; a device naming its own active vault gets them sealed to it.
 */
export function vaultGate(deps: Deps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user) return next();
    const gates = new Map<string, Promise<SecretGate>>();
    const decide = async (ownerId: string, own: boolean): Promise<SecretGate> => {
      const vaults = await deps.db.selectFrom('device_vaults').select(['id', 'public_key', 'destroyed_at']).where('user_id', '=', ownerId).execute();
      if (vaults.length === 0) return { kind: 'clear' };
      if (!own) return { kind: 'withheld' };
      const unlocked = (await checkUnlockToken(deps, ownerId, c.req.header(VAULT_UNLOCK_HEADER))) !== null;
      const named = c.req.header(VAULT_ID_HEADER);
      const vault = vaults.find((row) => row.id === named && row.destroyed_at === null);
      if (vault) {
        // A key stored before registration checked it (issue 30, decision 246): a clear 400, never a 500.
        const sealer = await sealerFor(vault.public_key).catch(() => {
          throw badRequest(`${VAULT_ID_HEADER} names a vault whose public key does not import; turn the PIN lock off and on again`);
        });
        return { kind: 'sealed', seal: (value) => sealer.seal(value), unlocked };
      }
      // A device without a vault of its own (another device of the account): the PIN's proof, or a sign-in of a
      // few minutes ago (the password is as good a proof), gets them in clear; a session alone does not.
      return unlocked || (await signedInFreshly(deps, c.get('auth') ?? {})) ? { kind: 'clear' } : { kind: 'withheld' };
    };
    const gateFor = (ownerId: string) => {
      let gate = gates.get(ownerId);
      if (!gate) {
        gate = decide(ownerId, ownerId === user.id);
        gates.set(ownerId, gate);
      }
      return gate;
    };
    return runWithGate({ userId: user.id, gateFor }, () => next());
  });
}
