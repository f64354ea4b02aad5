/**
 * The vault's record and its unlocked key (decision 068): the record as stored in the user's database, and
 * the private key, in memory only, forgotten after VAULT_IDLE_MS without use, at sign-out, or by Lock.
 * db/vault.ts switches it on and off and unlocks it; db/vault-seal.ts seals and opens with it.
 */
import { AppError } from '../lib/app-error.ts';
import { isSealed as isVaultSealed, unsealed, type Opener, type WrappedKey } from '../lib/vault-crypto.ts';
import type { UserDb } from './local-db.ts';
import { dropVaultToken, setVaultHeaders } from '../lib/vault-headers.ts';
import { deviceOpen, isDeviceSealed } from './device-seal.ts';

/** Sealed to the vault: opened only while it is unlocked. */
export { isVaultSealed };
/** Not in clear on the device: sealed to the vault, or with the device key while the vault is off (decision 254); openSealedValue opens it. */
export const isSealed = (value: unknown): value is string => isVaultSealed(value) || isDeviceSealed(value);

/** The vault locks after this long without an unlock or a reveal. */
export const VAULT_IDLE_MS = 5 * 60_000;

export const VAULT_KEY = 'vault';

/** The vault as stored in the user's database (meta key `vault`): nothing in it opens a secret without the PIN. */
export interface VaultRecord {
  id: string;
  publicKey: JsonWebKey;
  pin: WrappedKey;
  /** A second wrapped copy of the private key, opened by a passkey's PRF output. */
  passkey?: { credentialId: string; prfSalt: string; wrapped: WrappedKey };
  wrongPins: number;
  createdAt: string;
}

export async function readVault(db: UserDb): Promise<VaultRecord | undefined> {
  const record = (await db.meta.get(VAULT_KEY))?.value as VaultRecord | undefined;
  noteVault(db, record);
  return record;
}

/**
 * Every API request names this device's vault (decision 182), so the server seals delivered secrets to it
 * instead of answering them in clear; while an unlock token lives, it goes along too.
 */
function noteVault(db: UserDb, record: VaultRecord | undefined) {
  const current = session && session.dbName === db.name ? session : null;
  setVaultHeaders({ vaultId: record?.id ?? null, token: current?.unlock?.token, tokenUntil: current?.unlock?.until });
}

/** The server's proof of the last PIN unlock (decision 181): sent while it lives, for clear answers and files. */
export interface UnlockToken {
  token: string;
  until: number;
}

interface Session {
  dbName: string;
  opener: Opener;
  unlock?: UnlockToken;
  lastUsed: number;
  timer: ReturnType<typeof setTimeout>;
}

let session: Session | null = null;
const listeners = new Set<() => void>();
let version = 0;
/** Tells the vault's subscribers it changed (a lock, an unlock, a switch). */
export const vaultChanged = () => {
  version++;
  for (const listener of listeners) listener();
};

/** For useSyncExternalStore: changes at each lock, unlock and vault switch. */
export const subscribeVault = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const vaultVersion = () => version;

/** Forgets the unlocked key. */
export function lockVault(): void {
  if (!session) return;
  clearTimeout(session.timer);
  session = null;
  dropVaultToken();
  vaultChanged();
}

/** Holds the unlocked key for this database, until idle too long. */
export function startSession(db: UserDb, opener: Opener, unlock?: UnlockToken) {
  if (session) clearTimeout(session.timer);
  session = { dbName: db.name, opener, unlock, lastUsed: Date.now(), timer: setTimeout(lockVault, VAULT_IDLE_MS) };
  void readVault(db);
  vaultChanged();
}

function touch(current: Session) {
  current.lastUsed = Date.now();
  clearTimeout(current.timer);
  current.timer = setTimeout(lockVault, VAULT_IDLE_MS);
}

/** The live session of this database, if it is unlocked and not idle too long (a sleeping tab's timer may run late). */
export function liveSession(db: UserDb): Session | null {
  if (!session || session.dbName !== db.name) return null;
  if (Date.now() - session.lastUsed >= VAULT_IDLE_MS) {
    lockVault();
    return null;
  }
  return session;
}

export const isVaultUnlocked = (db: UserDb) => liveSession(db) !== null;

/**
 * A secret as the device holds it, opened (a list of delivered lines as a list): a sealed one needs the
 * vault unlocked (`vault_locked` otherwise); a value not sealed is answered as it is.
 */
export async function openSealedValue(db: UserDb, value: unknown): Promise<unknown> {
  // Sealed with the device key (the vault off, decision 254): opened without a PIN.
  if (isDeviceSealed(value)) return deviceOpen(db, value);
  if (!isVaultSealed(value)) return value;
  const current = liveSession(db);
  if (!current) throw new AppError('vault_locked', 'Unlock the vault to see this');
  touch(current);
  return unsealed(await current.opener.open(value));
}
