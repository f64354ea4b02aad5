/**
 * The device's vault (decisions 068, 181): when it is on, every secret field the device keeps (SECRET_FIELDS
 * and SECRET_ARGS in db/vault-seal.ts) is sealed to the vault's public key before it is written, so nothing
 * readable is in IndexedDB; the private key is wrapped with a key from the PIN AND a pepper the server gives
 * only for the PIN's verifier, counting wrong PINs on the server (a copied IndexedDB cannot be guessed
 * offline). Unlocked, the key is in memory only (db/vault-session.ts), forgotten after VAULT_IDLE_MS, at
 * sign-out, or by Lock. WebCrypto does the work (lib/vault-crypto.ts). This module switches it on and off and
 * unlocks it (PIN or passkey).
 */
import { VAULT_MAX_WRONG_PINS, VAULT_UNLOCK_HEADER } from '../../../edge-api/src/contract/vaults.ts';
import { api, unwrap, type ApiClient } from '../lib/api-client.ts';
import { AppError, hasCode } from '../lib/app-error.ts';
import {
  createVaultKeys,
  isSealed,
  newPinSalt,
  newPrfSalt,
  openerFor,
  PIN_ITERATIONS,
  pinProof,
  sealerFor,
  unwrapWithPepper,
  unwrapWithPin,
  unwrapWithSecret,
  wrapWithPepper,
  wrapWithSecret,
  type Opener,
} from '../lib/vault-crypto.ts';
import type { OutboxEntry, UserDb } from './local-db.ts';
import { noteWipe } from '../lib/wipe-notice.ts';
import { compactUserDb } from './vault-compact.ts';
import { isDeliveredSlot, needsSealing, type Slot, sealable, sweep, sweepAll, unsealed } from './vault-seal.ts';
import { DEVICE_KEY_META, deleteDeviceKeyFiles, deviceOpen, deviceSeal, isDeviceSealed, newDeviceKey } from './device-seal.ts';
import { lockVault, readVault, startSession, VAULT_KEY, vaultChanged, type UnlockToken, type VaultRecord } from './vault-session.ts';

/** This many wrong PINs in a row, counted by the server, destroy the vault (its pepper there). */
export const MAX_WRONG_PINS = VAULT_MAX_WRONG_PINS;
/** At least this many digits. */
export const PIN_MIN_DIGITS = 6;

/** How a vault call reaches the server: the app's API client unless a test gives its own. */
export interface VaultOptions {
  client?: ApiClient;
  /** The next try may be the last (it destroys the vault if wrong) and changes wait to be sent: go ahead anyway. */
  confirmLast?: boolean;
}

// ---- Switching on and off, unlocking ------------------------------------------------------------------

const PIN_PATTERN = new RegExp(`^\\d{${PIN_MIN_DIGITS},12}$`);

export function checkPin(pin: string): void {
  if (!PIN_PATTERN.test(pin)) throw new AppError('bad_request', `The PIN must be ${PIN_MIN_DIGITS} to 12 digits`);
}

const needsServer = (cause: unknown, what: string) =>
  hasCode(cause, 'network') ? new AppError('network', `${what} needs a connection to the shop: the PIN is checked there.`, { cause }) : cause;

/** Switches the vault on: registered with the server (its pepper back), every secret on the device sealed, the old copies compacted away. */
export async function enableVault(db: UserDb, pin: string, options: VaultOptions & { iterations?: number; deviceLabel?: string } = {}): Promise<void> {
  checkPin(pin);
  if (await readVault(db)) throw new AppError('conflict', 'The vault is already on');
  const keys = await createVaultKeys();
  const id = crypto.randomUUID();
  const salt = newPinSalt();
  const iterations = options.iterations ?? PIN_ITERATIONS;
  const proof = await pinProof(pin, salt, iterations);
  const client = options.client ?? api;
  const json = {
    id,
    publicKey: keys.publicKey,
    pinSalt: salt,
    pinIterations: iterations,
    verifier: proof.verifier,
    deviceLabel: options.deviceLabel ?? deviceLabel(),
  };
  const { pepper } = await unwrap(client.vaults.$post({ json })).catch((cause: unknown) => {
    throw needsServer(cause, 'Turning the PIN lock on');
  });
  const record: VaultRecord = {
    id,
    publicKey: keys.publicKey,
    pin: await wrapWithPepper(keys.privateKey, proof, pepper, salt, iterations),
    wrongPins: 0,
    createdAt: new Date().toISOString(),
  };
  const sealer = await sealerFor(record.publicKey);
  // A delivered secret sealed with the device key (decision 254) is opened first, then sealed to the vault.
  const seal = async (value: unknown) => sealer.seal(sealable(isDeviceSealed(value) ? await deviceOpen(db, value) : value));
  await sweep(db, needsSealing, seal, async () => {
    if (await readVault(db)) throw new AppError('conflict', 'The vault is already on');
    await db.meta.put({ key: VAULT_KEY, value: record });
  });
  await sweepAll(db, needsSealing, seal);
  // The device key goes (its file removed from the profile): what the old IndexedDB files hold of it stays ciphertext.
  await db.meta.delete(DEVICE_KEY_META);
  await deleteDeviceKeyFiles(db.name);
  // Clear values of other kinds (a staff member's stock) may still be in the browser's files: rewrite the database whole (decision 184).
  await compactUserDb(db);
  startSession(db, openerFor(keys.privateKey));
}

const deviceLabel = () => (typeof navigator === 'undefined' ? '' : navigator.userAgent.slice(0, 80));

/** A change waiting to be sent, as the person is shown it before a try that could destroy the vault. */
export interface PendingChange {
  id: string;
  name: OutboxEntry['name'];
  createdAt: string;
}

export type UnlockResult =
  | { kind: 'unlocked'; opener: Opener; key: CryptoKey; unlock?: UnlockToken }
  | { kind: 'wrong'; left: number }
  | { kind: 'wiped' }
  | { kind: 'last-try'; pending: PendingChange[] };
export type TryResult = Exclude<UnlockResult, { kind: 'unlocked' }>;

/** Clears the whole user database: it syncs again after the next sign-in. */
async function wipe(db: UserDb) {
  noteWipe();
  lockVault();
  await db.transaction('rw', db.tables, async () => {
    for (const table of db.tables) await table.clear();
  });
  vaultChanged();
}

async function pendingChanges(db: UserDb): Promise<PendingChange[]> {
  return (await db.outbox.toArray()).map(({ id, name, createdAt }) => ({ id, name, createdAt }));
}

async function noteWrongPins(db: UserDb, record: VaultRecord, wrongPins: number) {
  await db.transaction('rw', db.meta, async () => {
    const current = await readVault(db);
    if (current?.id === record.id) await db.meta.put({ key: VAULT_KEY, value: { ...current, wrongPins } });
  });
}

/**
 * One PIN try, checked by the server (decision 181): right, the pepper unwraps the key; wrong, the server's
 * count of tries left; the fifth wrong destroys the vault there and the device's copy is cleared. Before a
 * try that could be that fifth, changes waiting to be sent are answered (`last-try`) unless `confirmLast`.
 */
async function tryPin(db: UserDb, pin: string, options: VaultOptions, extractable = false): Promise<UnlockResult> {
  checkPin(pin);
  const record = await readVault(db);
  if (!record) throw new AppError('conflict', 'The vault is off on this device');
  if (!record.pin.peppered) return tryLegacyPin(db, record, pin, options, extractable);
  if (record.wrongPins >= MAX_WRONG_PINS - 1 && !options.confirmLast) {
    const pending = await pendingChanges(db);
    if (pending.length > 0) return { kind: 'last-try', pending };
  }
  const proof = await pinProof(pin, record.pin.salt, record.pin.iterations);
  const client = options.client ?? api;
  let answer: { pepper: string; unlockToken: string; expiresAt: string };
  try {
    answer = await unwrap(client.vaults[':id'].unlock.$post({ param: { id: record.id }, json: { verifier: proof.verifier } }));
  } catch (cause) {
    if (hasCode(cause, 'wrong_pin')) {
      const left = Number((cause.details as { left?: unknown } | undefined)?.left ?? 1);
      await noteWrongPins(db, record, MAX_WRONG_PINS - left);
      return { kind: 'wrong', left };
    }
    // Destroyed by the fifth wrong PIN (here or on a copy of this device), or removed: its key can never be opened again.
    if (hasCode(cause, 'vault_destroyed') || hasCode(cause, 'not_found')) {
      await wipe(db);
      return { kind: 'wiped' };
    }
    throw needsServer(cause, 'Unlocking');
  }
  const key = await unwrapWithPepper(record.pin, proof, answer.pepper, extractable);
  if (!key) throw new AppError('conflict', 'The shop’s half of this vault does not match this device');
  if (record.wrongPins !== 0) await noteWrongPins(db, record, 0);
  return { kind: 'unlocked', opener: openerFor(key), key, unlock: { token: answer.unlockToken, until: Date.parse(answer.expiresAt) } };
}

/**
 * A vault made before decision 181 (the PIN alone, counted on the device): tried as before, and once opened
 * it is moved to the server's pepper (registered now), so the next unlock is counted by the server.
 */
async function tryLegacyPin(db: UserDb, record: VaultRecord, pin: string, options: VaultOptions, extractable: boolean): Promise<UnlockResult> {
  const key = await unwrapWithPin(record.pin, pin, true);
  const wrongPins = key ? 0 : record.wrongPins + 1;
  await noteWrongPins(db, record, wrongPins);
  if (!key) {
    if (wrongPins >= MAX_WRONG_PINS) {
      await wipe(db);
      return { kind: 'wiped' };
    }
    return { kind: 'wrong', left: MAX_WRONG_PINS - wrongPins };
  }
  try {
    const salt = newPinSalt();
    const proof = await pinProof(pin, salt, record.pin.iterations);
    const client = options.client ?? api;
    const json = {
      id: record.id,
      publicKey: record.publicKey,
      pinSalt: salt,
      pinIterations: record.pin.iterations,
      verifier: proof.verifier,
      deviceLabel: deviceLabel(),
    };
    const { pepper } = await unwrap(client.vaults.$post({ json }));
    const wrapped = await wrapWithPepper(key, proof, pepper, salt, record.pin.iterations);
    await db.meta.put({ key: VAULT_KEY, value: { ...record, pin: wrapped, wrongPins: 0 } });
  } catch (cause) {
    // Offline, or the server wants a fresh sign-in: the vault stays as it was until the next unlock.
    console.warn('The vault could not be moved to the server’s pepper yet', cause);
  }
  const kept = extractable ? key : await unwrapWithPin(record.pin, pin);
  return { kind: 'unlocked', opener: openerFor(kept!), key: kept! };
}

/** Unlocks with the PIN (online: the server checks it). The fifth wrong PIN in a row clears the device's copy (the caller then signs out). */
export async function unlockVault(db: UserDb, pin: string, options: VaultOptions = {}): Promise<TryResult | { kind: 'unlocked' }> {
  const result = await tryPin(db, pin, options);
  if (result.kind !== 'unlocked') return result;
  startSession(db, result.opener, result.unlock);
  return { kind: 'unlocked' };
}

/** Switches the vault off with the PIN: removed on the server, then every sealed secret is opened back into the database. */
export async function disableVault(db: UserDb, pin: string, options: VaultOptions = {}): Promise<TryResult | { kind: 'off' }> {
  const result = await tryPin(db, pin, options);
  if (result.kind !== 'unlocked') return result;
  const record = await readVault(db);
  if (record?.pin.peppered) {
    const client = options.client ?? api;
    const headers: Record<string, string> = result.unlock ? { [VAULT_UNLOCK_HEADER]: result.unlock.token } : {};
    await unwrap(client.vaults[':id'].$delete({ param: { id: record.id } }, { headers })).catch((cause: unknown) => {
      if (!hasCode(cause, 'not_found')) throw needsServer(cause, 'Turning the PIN lock off');
    });
  }
  // Delivered secrets go back under a new device key (decision 254), the rest back in clear.
  const device = await newDeviceKey(db);
  const open = async (value: unknown, slot: Slot) => {
    const clear = unsealed(await result.opener.open(value as string));
    return device && isDeliveredSlot(slot) ? deviceSeal(db, device.key, clear) : clear;
  };
  await sweep(db, isSealed, open, async () => {
    await db.meta.delete(VAULT_KEY);
    if (device) await db.meta.put({ key: DEVICE_KEY_META, value: { id: device.id } });
  });
  await sweepAll(db, isSealed, open);
  lockVault();
  vaultChanged();
  return { kind: 'off' };
}

// ---- Passkey unlock (WebAuthn PRF), where the browser supports it ----------------------------------------

/** Adds a passkey that unlocks the vault too; the PIN is asked first (it counts like any try). */
export async function addPasskey(db: UserDb, pin: string, userName: string, options: VaultOptions = {}): Promise<TryResult | { kind: 'added' }> {
  const result = await tryPin(db, pin, options, true);
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
  if (key) startSession(db, openerFor(key), result.unlock);
  vaultChanged();
  return { kind: 'added' };
}

/**
 * Unlocks with the vault's passkey; a refusal or another passkey leaves it locked (and counts no wrong PIN).
 * No server takes part: the PRF output exists only in the authenticator, so a copied database does not help.
 */
export async function unlockWithPasskey(db: UserDb): Promise<void> {
  const passkey = (await readVault(db))?.passkey;
  if (!passkey) throw new AppError('conflict', 'No passkey unlocks the vault on this device');
  const { prfFromPasskey } = await import('../lib/passkey-prf.ts');
  const key = await unwrapWithSecret(passkey.wrapped, await prfFromPasskey(passkey.credentialId, passkey.prfSalt));
  if (!key) throw new AppError('forbidden', 'This passkey does not unlock the vault');
  startSession(db, openerFor(key));
}
