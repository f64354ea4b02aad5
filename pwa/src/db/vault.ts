/**
 * The device's vault (decision 068): when it is on, every secret field the device keeps (SECRET_FIELDS and
 * SECRET_ARGS in db/vault-seal.ts) is sealed to the vault's public key before it is written, so nothing
 * readable is in IndexedDB; the private key is unwrapped with the PIN into memory only (db/vault-session.ts),
 * and forgotten after VAULT_IDLE_MS without use, at sign-out, or by Lock. WebCrypto does the work
 * (lib/vault-crypto.ts). This module switches it on and off and unlocks it (PIN or passkey).
 */
import { AppError } from '../lib/app-error.ts';
import {
  createVaultKeys,
  isSealed,
  openerFor,
  PIN_ITERATIONS,
  sealerFor,
  newPrfSalt,
  unwrapWithPin,
  unwrapWithSecret,
  wrapWithPin,
  wrapWithSecret,
  type Opener,
} from '../lib/vault-crypto.ts';
import type { UserDb } from './local-db.ts';
import { noteWipe } from '../lib/wipe-notice.ts';
import { needsSealing, sweep, sweepAll } from './vault-seal.ts';
import { lockVault, readVault, startSession, VAULT_KEY, vaultChanged, type VaultRecord } from './vault-session.ts';

/** This many wrong PINs in a row wipe the device's copy. */
export const MAX_WRONG_PINS = 5;
/** At least this many digits. */
export const PIN_MIN_DIGITS = 6;

// ---- Switching on and off, unlocking ------------------------------------------------------------------

const PIN_PATTERN = new RegExp(`^\\d{${PIN_MIN_DIGITS},12}$`);

export function checkPin(pin: string): void {
  if (!PIN_PATTERN.test(pin)) throw new AppError('bad_request', `The PIN must be ${PIN_MIN_DIGITS} to 12 digits`);
}

/** Switches the vault on: every secret on the device is sealed; the vault starts unlocked (the PIN was just typed). */
export async function enableVault(db: UserDb, pin: string, options: { iterations?: number } = {}): Promise<void> {
  checkPin(pin);
  const keys = await createVaultKeys();
  const record: VaultRecord = {
    id: crypto.randomUUID(),
    publicKey: keys.publicKey,
    pin: await wrapWithPin(keys.privateKey, pin, options.iterations ?? PIN_ITERATIONS),
    wrongPins: 0,
    createdAt: new Date().toISOString(),
  };
  const sealer = await sealerFor(record.publicKey);
  const seal = (value: unknown) => sealer.seal(value);
  await sweep(db, needsSealing, seal, async () => {
    if (await readVault(db)) throw new AppError('conflict', 'The vault is already on');
    await db.meta.put({ key: VAULT_KEY, value: record });
  });
  await sweepAll(db, needsSealing, seal);
  startSession(db, openerFor(keys.privateKey));
}

export type UnlockResult = { kind: 'unlocked'; opener: Opener; key: CryptoKey } | { kind: 'wrong'; left: number } | { kind: 'wiped' };

/** Clears the whole user database: it syncs again after the next sign-in. */
async function wipe(db: UserDb) {
  noteWipe();
  lockVault();
  await db.transaction('rw', db.tables, async () => {
    for (const table of db.tables) await table.clear();
  });
  vaultChanged();
}

async function tryPin(db: UserDb, pin: string, extractable = false): Promise<UnlockResult> {
  const record = await readVault(db);
  if (!record) throw new AppError('conflict', 'The vault is off on this device');
  const key = PIN_PATTERN.test(pin) ? await unwrapWithPin(record.pin, pin, extractable) : null;
  // The count is read again and written in one transaction: two tabs guessing still add up.
  const wrongPins = await db.transaction('rw', db.meta, async () => {
    const current = await readVault(db);
    if (!current || current.id !== record.id) return -1;
    const next = key ? 0 : current.wrongPins + 1;
    await db.meta.put({ key: VAULT_KEY, value: { ...current, wrongPins: next } });
    return next;
  });
  if (wrongPins < 0) throw new AppError('conflict', 'The vault changed on this device');
  if (key) return { kind: 'unlocked', opener: openerFor(key), key };
  if (wrongPins >= MAX_WRONG_PINS) {
    await wipe(db);
    return { kind: 'wiped' };
  }
  return { kind: 'wrong', left: MAX_WRONG_PINS - wrongPins };
}

/** Unlocks with the PIN. The fifth wrong PIN in a row clears the device's copy (the caller then signs out). */
export async function unlockVault(db: UserDb, pin: string): Promise<Exclude<UnlockResult, { kind: 'unlocked' }> | { kind: 'unlocked' }> {
  const result = await tryPin(db, pin);
  if (result.kind !== 'unlocked') return result;
  startSession(db, result.opener);
  return { kind: 'unlocked' };
}

/** Switches the vault off with the PIN: every sealed secret is opened back into the database. */
export async function disableVault(db: UserDb, pin: string): Promise<Exclude<UnlockResult, { kind: 'unlocked' }> | { kind: 'off' }> {
  const result = await tryPin(db, pin);
  if (result.kind !== 'unlocked') return result;
  const open = (value: unknown) => result.opener.open(value as string);
  await sweep(db, isSealed, open, async () => {
    await db.meta.delete(VAULT_KEY);
  });
  await sweepAll(db, isSealed, open);
  lockVault();
  vaultChanged();
  return { kind: 'off' };
}

// ---- Passkey unlock (WebAuthn PRF), where the browser supports it ----------------------------------------

/** Adds a passkey that unlocks the vault too; the PIN is asked first (it counts like any try). */
export async function addPasskey(db: UserDb, pin: string, userName: string): Promise<Exclude<UnlockResult, { kind: 'unlocked' }> | { kind: 'added' }> {
  const result = await tryPin(db, pin, true);
  if (result.kind !== 'unlocked') return result;
  const prfSalt = newPrfSalt();
  // WebAuthn's part loads only when a passkey is used.
  const { createPrfPasskey } = await import('../lib/passkey-prf.ts');
  const { credentialId, secret } = await createPrfPasskey(prfSalt, userName);
  const wrapped = await wrapWithSecret(result.key, secret);
  const record = await readVault(db);
  await db.transaction('rw', db.meta, async () => {
    const current = await readVault(db);
    if (!current || current.id !== record?.id) throw new AppError('conflict', 'The vault changed on this device');
    await db.meta.put({ key: VAULT_KEY, value: { ...current, passkey: { credentialId, prfSalt, wrapped } } });
  });
  // The extractable key is not kept: the session holds a fresh non-extractable one.
  const key = await unwrapWithSecret(wrapped, secret);
  if (key) startSession(db, openerFor(key));
  vaultChanged();
  return { kind: 'added' };
}

/** Unlocks with the vault's passkey; a refusal or another passkey leaves it locked (and counts no wrong PIN). */
export async function unlockWithPasskey(db: UserDb): Promise<void> {
  const passkey = (await readVault(db))?.passkey;
  if (!passkey) throw new AppError('conflict', 'No passkey unlocks the vault on this device');
  const { prfFromPasskey } = await import('../lib/passkey-prf.ts');
  const key = await unwrapWithSecret(passkey.wrapped, await prfFromPasskey(passkey.credentialId, passkey.prfSalt));
  if (!key) throw new AppError('forbidden', 'This passkey does not unlock the vault');
  startSession(db, openerFor(key));
}
