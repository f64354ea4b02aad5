/**
 * The server's half of a device vault (issue 30 item 4, decision 181). The device's vault key is wrapped
 * with a key derived from the PIN AND a per-vault random pepper kept here; the server gives the pepper only
 * to a signed-in session of the vault's owner that proves the PIN (a verifier from the same PBKDF2 output),
 * and counts wrong proofs here: the fifth in a row destroys the pepper. A copy of the device's IndexedDB
 * therefore cannot be guessed offline, and online it gets five guesses.
 */
import type { z } from 'zod';
import type { vaultRegisterBody } from '../contract/vault-requests.ts';
import { VAULT_MAX_WRONG_PINS, type VaultSummary, type VaultUnlocked } from '../contract/vaults.ts';
import { toB64 } from '../contract/vault-envelope.ts';
import { recordAudit } from '../db/audit.ts';
import { checkUnlockToken, issueUnlockToken, sameText, signedInFreshly, type SessionClaims } from '../db/vault-tokens.ts';
import type { UserRow } from '../db/schema.ts';
import type { DeviceVaultRow } from '../db/vault-schema.ts';
import type { Deps } from '../deps.ts';
import { ApiError, notFound, RateLimitedError } from '../errors.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';

/** PIN proofs a person may send in 10 minutes, over all their vaults (the tries counter is per vault). */
export const VAULT_UNLOCKS_PER_10_MIN = 30;
/** Vaults a person may register in a day. */
export const VAULTS_PER_DAY = 10;

export type VaultRegisterInput = z.infer<typeof vaultRegisterBody>;

const verifierHash = (deps: Deps, vaultId: string, verifier: string) => deps.secrets.blindIndex(`vault-verifier|${vaultId}|${verifier}`);

/** Making or removing a vault of an account that has had one needs a fresh sign-in or an unlock: a stolen session alone cannot. */
async function requireProof(deps: Deps, claims: SessionClaims, me: UserRow, token: string | undefined, vaultId?: string) {
  const proven = await checkUnlockToken(deps, me.id, token);
  if (proven && (vaultId === undefined || proven === vaultId)) return;
  if (await signedInFreshly(deps, claims)) return;
  throw new ApiError(
    'reauth_required',
    'Sign in again (or unlock the vault) to do this: a vault is only changed by someone who knows the password or the PIN.',
  );
}

export const presentVault = (row: DeviceVaultRow): VaultSummary => ({
  id: row.id,
  pinSalt: row.pin_salt,
  pinIterations: row.pin_iterations,
  deviceLabel: row.device_label,
  wrongTries: row.wrong_tries,
  destroyed: row.destroyed_at !== null,
  createdAt: new Date(row.created_at).toISOString(),
});

export const listVaults = (deps: Deps, me: UserRow) =>
  deps.db.selectFrom('device_vaults').selectAll().where('user_id', '=', me.id).orderBy('created_at').execute();

/** Registers a device's vault and answers its pepper (32 random bytes) once. */
export async function registerVault(
  deps: Deps,
  claims: SessionClaims,
  me: UserRow,
  input: VaultRegisterInput,
  token: string | undefined,
): Promise<{ pepper: string }> {
  const limited = await createFixedWindowLimiter({
    db: deps.db,
    name: 'api.vault-registrations',
    limit: VAULTS_PER_DAY,
    windowMs: 24 * 3600_000,
    clock: deps.clock,
  }).hit(me.id);
  if (!limited.allowed) throw new RateLimitedError(limited.retryAfterSeconds);
  if ((await listVaults(deps, me)).length > 0) await requireProof(deps, claims, me, token);
  const pepper = toB64(crypto.getRandomValues(new Uint8Array(32)));
  const taken = await deps.db.selectFrom('device_vaults').select('id').where('id', '=', input.id).executeTakeFirst();
  if (taken) throw new ApiError('conflict', 'A vault with this id exists already');
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('device_vaults')
      .values({
        id: input.id,
        user_id: me.id,
        public_key: JSON.stringify({ kty: 'EC', crv: 'P-256', x: input.publicKey.x, y: input.publicKey.y }) as unknown as JsonWebKey,
        pin_salt: input.pinSalt,
        pin_iterations: input.pinIterations,
        verifier_hash: await verifierHash(deps, input.id, input.verifier),
        pepper_enc: await deps.secrets.encrypt(pepper),
        device_label: input.deviceLabel,
      })
      .execute();
    await recordAudit(trx, me, { action: 'vault.created', entity: 'user', entityId: me.id, details: { vaultId: input.id, deviceLabel: input.deviceLabel } });
  });
  return { pepper };
}

export type UnlockOutcome = VaultUnlocked;

/**
 * Checks a PIN verifier: right, the pepper and an unlock token; wrong, 403 `wrong_pin` with the tries left,
 * and the fifth wrong in a row destroys the pepper (410 `vault_destroyed`). One row lock per try, so
 * parallel guesses still add up.
 */
export async function unlockVault(deps: Deps, me: UserRow, vaultId: string, verifier: string): Promise<UnlockOutcome> {
  const limited = await createFixedWindowLimiter({
    db: deps.db,
    name: 'api.vault-unlocks',
    limit: VAULT_UNLOCKS_PER_10_MIN,
    windowMs: 10 * 60_000,
    clock: deps.clock,
  }).hit(me.id);
  if (!limited.allowed) throw new RateLimitedError(limited.retryAfterSeconds);
  const hash = await verifierHash(deps, vaultId, verifier);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('device_vaults').selectAll().where('id', '=', vaultId).where('user_id', '=', me.id).forUpdate().executeTakeFirst();
    if (!row) throw notFound('Vault');
    if (row.destroyed_at !== null || row.pepper_enc === null) return { kind: 'destroyed' as const };
    const now = deps.clock();
    if (sameText(hash, row.verifier_hash)) {
      await trx.updateTable('device_vaults').set({ wrong_tries: 0, last_unlock_at: now }).where('id', '=', vaultId).execute();
      return { kind: 'right' as const, pepperEnc: row.pepper_enc };
    }
    const tries = row.wrong_tries + 1;
    if (tries >= VAULT_MAX_WRONG_PINS) {
      await trx.updateTable('device_vaults').set({ wrong_tries: tries, pepper_enc: null, destroyed_at: now }).where('id', '=', vaultId).execute();
      await recordAudit(trx, me, { action: 'vault.destroyed', entity: 'user', entityId: me.id, details: { vaultId, wrongTries: tries } });
      return { kind: 'destroyed' as const };
    }
    await trx.updateTable('device_vaults').set({ wrong_tries: tries }).where('id', '=', vaultId).execute();
    await recordAudit(trx, me, { action: 'vault.wrong_pin', entity: 'user', entityId: me.id, details: { vaultId, wrongTries: tries } });
    return { kind: 'wrong' as const, left: VAULT_MAX_WRONG_PINS - tries };
  });
  if (outcome.kind === 'destroyed')
    throw new ApiError('vault_destroyed', 'Too many wrong PINs: this vault was destroyed. Make it again; the passwords come back from the shop.');
  if (outcome.kind === 'wrong')
    throw new ApiError('wrong_pin', `Wrong PIN: ${outcome.left} ${outcome.left === 1 ? 'try' : 'tries'} left`, { left: outcome.left });
  const { token, expiresAt } = await issueUnlockToken(deps, me.id, vaultId);
  return { pepper: await deps.secrets.decrypt(outcome.pepperEnc), unlockToken: token, expiresAt: expiresAt.toISOString() };
}

/** Removes a vault (the device switched it off, or a destroyed one is cleared): its unlock token or a fresh sign-in. */
export async function removeVault(deps: Deps, claims: SessionClaims, me: UserRow, vaultId: string, token: string | undefined): Promise<void> {
  const row = await deps.db.selectFrom('device_vaults').select('id').where('id', '=', vaultId).where('user_id', '=', me.id).executeTakeFirst();
  if (!row) throw notFound('Vault');
  await requireProof(deps, claims, me, token, vaultId);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('device_vaults').where('id', '=', vaultId).execute();
    await recordAudit(trx, me, { action: 'vault.removed', entity: 'user', entityId: me.id, details: { vaultId } });
  });
}
