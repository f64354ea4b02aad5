/**
 * The device's vault (decision 068): when it is on, every secret field the device keeps (the lists below)
 * is sealed to the vault's public key before it is written, so nothing readable is in IndexedDB; the
 * private key is unwrapped with the PIN into memory only, and forgotten after VAULT_IDLE_MS without use,
 * at sign-out, or by Lock. WebCrypto does the work (lib/vault-crypto.ts).
 */
import { deliveredSecretFields } from '../../../edge-api/src/contract/delivered-secrets.ts';
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
  type WrappedKey,
} from '../lib/vault-crypto.ts';
import type { MutationName, SyncedTable, UserDb } from './local-db.ts';
import { noteWipe } from '../lib/wipe-notice.ts';

export { isSealed } from '../lib/vault-crypto.ts';

/** The secret fields of each synced table's rows: add a field here and it is sealed everywhere. */
export const SECRET_FIELDS: Record<SyncedTable | 'serviceStocks', readonly string[]> = {
  orders: deliveredSecretFields,
  wiseStocks: ['wisePassword'],
  /** A service's own stock (decision 072): an admin's copy holds the password or the lines. */
  serviceStocks: ['password', 'lines'],
};

/**
 * The secret args of outbox entries (credentials typed by staff, queued offline); `a.b` is field `b` of
 * the object in arg `a` (a server login's password, sealed alone so the order still shows its host).
 */
export const SECRET_ARGS: Partial<Record<MutationName, readonly string[]>> = {
  deliverOrder: ['wisePassword', 'server.password', 'lines'],
};

/** The object holding a field given as `a.b` (or the args themselves for a plain name), and the field's own name. */
function fieldAt(args: Record<string, unknown>, path: string): { holder: Record<string, unknown> | undefined; field: string } {
  const [first, ...rest] = path.split('.');
  if (rest.length === 0) return { holder: args, field: first! };
  const nested = args[first!];
  return { holder: nested && typeof nested === 'object' ? (nested as Record<string, unknown>) : undefined, field: rest.join('.') };
}

/** The vault locks after this long without an unlock or a reveal. */
export const VAULT_IDLE_MS = 5 * 60_000;
/** This many wrong PINs in a row wipe the device's copy. */
export const MAX_WRONG_PINS = 5;
/** At least this many digits. */
export const PIN_MIN_DIGITS = 6;

const VAULT_KEY = 'vault';

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
  return (await db.meta.get(VAULT_KEY))?.value as VaultRecord | undefined;
}

// ---- The unlocked key, in memory only --------------------------------------------------------------

interface Session {
  dbName: string;
  opener: Opener;
  lastUsed: number;
  timer: ReturnType<typeof setTimeout>;
}

let session: Session | null = null;
const listeners = new Set<() => void>();
let version = 0;
const changed = () => {
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
  changed();
}

function startSession(db: UserDb, opener: Opener) {
  if (session) clearTimeout(session.timer);
  session = { dbName: db.name, opener, lastUsed: Date.now(), timer: setTimeout(lockVault, VAULT_IDLE_MS) };
  changed();
}

function touch(current: Session) {
  current.lastUsed = Date.now();
  clearTimeout(current.timer);
  current.timer = setTimeout(lockVault, VAULT_IDLE_MS);
}

/** The live session of this database, if it is unlocked and not idle too long (a sleeping tab's timer may run late). */
function liveSession(db: UserDb): Session | null {
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
  if (!isSealed(value)) return value;
  const current = liveSession(db);
  if (!current) throw new AppError('vault_locked', 'Unlock the vault to see this');
  touch(current);
  return current.opener.open(value);
}

// ---- Sealing what is written -------------------------------------------------------------------------

/** The vault seen by one write: its id (null when off), checked again inside the write's transaction. */
export interface VaultSeal {
  vaultId: string | null;
  seal(value: unknown): Promise<unknown>;
}

class VaultChanged extends Error {}

const needsSealing = (value: unknown) => value !== undefined && value !== null && value !== '' && !isSealed(value);

export async function vaultSealFor(db: UserDb): Promise<VaultSeal> {
  const record = await readVault(db);
  if (!record) return { vaultId: null, seal: async (value) => value };
  const sealer = await sealerFor(record.publicKey);
  return { vaultId: record.id, seal: async (value) => (needsSealing(value) ? sealer.seal(value) : value) };
}

/** Call inside the write's transaction (with db.meta in it): the vault was switched meanwhile, so the write is made again. */
export async function checkVaultSeal(db: UserDb, seal: VaultSeal): Promise<void> {
  if (((await readVault(db))?.id ?? null) !== seal.vaultId) throw new VaultChanged();
}

/** Runs a sealed write, again when the vault was switched on or off between its sealing and its transaction. */
export async function withVaultSeal<T>(db: UserDb, write: (seal: VaultSeal) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const seal = await vaultSealFor(db);
    try {
      return await write(seal);
    } catch (error) {
      if (!(error instanceof VaultChanged) || attempt >= 3) throw error;
    }
  }
}

async function sealFields<T extends object>(seal: VaultSeal, row: T, fields: readonly string[] | undefined): Promise<T> {
  if (!seal.vaultId || !fields?.length) return row;
  const copy = { ...row } as Record<string, unknown>;
  for (const path of fields) {
    const [first] = path.split('.');
    // A nested field's object is copied too: the caller's args stay as they were.
    if (path !== first && copy[first!] && typeof copy[first!] === 'object') copy[first!] = { ...(copy[first!] as object) };
    const { holder, field } = fieldAt(copy, path);
    if (holder && field in holder) holder[field] = await seal.seal(holder[field]);
  }
  return copy as T;
}

/** Rows of a synced table with their secret fields sealed (the same rows when the vault is off). */
export async function sealRows<T extends object>(seal: VaultSeal, table: keyof typeof SECRET_FIELDS, rows: readonly T[] | undefined): Promise<T[] | undefined> {
  if (!rows) return undefined;
  return Promise.all(rows.map((row) => sealFields(seal, row, SECRET_FIELDS[table])));
}

/** An outbox entry's args with their secret fields sealed. */
export const sealArgs = <T extends object>(seal: VaultSeal, name: MutationName, args: T): Promise<T> => sealFields(seal, args, SECRET_ARGS[name]);

/** An entry's args to upload, opened; null while the vault is locked and they hold a sealed secret (the push waits). */
export async function openArgs(db: UserDb, name: MutationName, args: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const paths = (SECRET_ARGS[name] ?? []).filter((path) => {
    const { holder, field } = fieldAt(args, path);
    return isSealed(holder?.[field]);
  });
  if (paths.length === 0) return args;
  const current = liveSession(db);
  if (!current) return null;
  const open = structuredClone(args);
  for (const path of paths) {
    const { holder, field } = fieldAt(open, path);
    holder![field] = await current.opener.open(holder![field] as string);
  }
  return open;
}

// ---- Sweeping what is already stored (switching on and off) ------------------------------------------

interface Slot {
  store: 'orders' | 'wiseStocks' | 'serviceStocks' | 'outbox' | 'meta';
  key: string;
  /** The object holding the field in the stored record. */
  holder(record: Record<string, unknown>): Record<string, unknown> | undefined;
  field: string;
  from: unknown;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Every secret value stored in this database, wherever it is: rows, outbox args, server copies kept aside. */
async function secretSlots(db: UserDb): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (const table of ['orders', 'wiseStocks', 'serviceStocks'] as const) {
    for (const row of (await db.table(table).toArray()) as Record<string, unknown>[]) {
      for (const field of SECRET_FIELDS[table]) slots.push({ store: table, key: row.id as string, holder: (record) => record, field, from: row[field] });
    }
  }
  for (const entry of await db.outbox.toArray()) {
    for (const path of SECRET_ARGS[entry.name] ?? []) {
      const { holder, field } = fieldAt(entry.args, path);
      const holderOf = (record: Record<string, unknown>) => fieldAt(record.args as Record<string, unknown>, path).holder;
      slots.push({ store: 'outbox', key: entry.id, holder: holderOf, field, from: holder?.[field] });
    }
  }
  for (const meta of await db.meta.where('key').startsWith('base:').toArray()) {
    const table = meta.key.split(':')[1] as SyncedTable;
    const row = (meta.value as { row: Record<string, unknown> | null }).row;
    if (!row) continue;
    for (const field of SECRET_FIELDS[table] ?? []) {
      slots.push({ store: 'meta', key: meta.key, holder: (record) => (record.value as { row: Record<string, unknown> | null }).row ?? undefined, field, from: row[field] });
    }
  }
  return slots.filter((slot) => slot.from !== undefined);
}

/**
 * Rewrites stored secrets that `pick` selects with `change`, computed before the transaction (WebCrypto
 * cannot run inside one); a value changed meanwhile is left alone. Answers how many were rewritten.
 */
async function sweep(db: UserDb, pick: (value: unknown) => boolean, change: (value: unknown) => Promise<unknown>, inTransaction?: () => Promise<void>): Promise<number> {
  const slots = (await secretSlots(db)).filter((slot) => pick(slot.from));
  const next = await Promise.all(slots.map((slot) => change(slot.from)));
  let count = 0;
  await db.transaction('rw', [db.orders, db.wiseStocks, db.serviceStocks, db.outbox, db.meta], async () => {
    await inTransaction?.();
    const byRecord = new Map<string, number[]>();
    slots.forEach((slot, index) => {
      const id = `${slot.store}\u0000${slot.key}`;
      byRecord.set(id, [...(byRecord.get(id) ?? []), index]);
    });
    for (const indexes of byRecord.values()) {
      const { store, key } = slots[indexes[0]!]!;
      const record = (await db.table(store).get(key)) as Record<string, unknown> | undefined;
      if (!record) continue;
      let dirty = false;
      for (const index of indexes) {
        const slot = slots[index]!;
        const holder = slot.holder(record);
        if (!holder || !same(holder[slot.field], slot.from)) continue;
        holder[slot.field] = next[index];
        dirty = true;
        count++;
      }
      if (dirty) await db.table(store).put(record);
    }
  });
  return count;
}

/** Sweeps until nothing is left to change (a write sealed with the old state may land once more). */
async function sweepAll(db: UserDb, pick: (value: unknown) => boolean, change: (value: unknown) => Promise<unknown>) {
  for (let round = 0; round < 5 && (await sweep(db, pick, change)) > 0; round++);
}

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
  changed();
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
  changed();
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
  changed();
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
