/**
 * Secret-field sealing (decision 068): which fields of the device's rows and outbox entries are secret,
 * sealing them as they are written while the vault is on, opening queued ones to upload, and sweeping
 * what is already stored when the vault is switched on or off (db/vault.ts).
 */
import { deliveredSecretFields } from '../../../edge-api/src/contract/delivered-secrets.ts';
import { isBytes, isSealed, sealable, sealerFor } from '../lib/vault-crypto.ts';

export { sealable, unsealed } from '../lib/vault-crypto.ts';
import type { MutationName, SyncedTable, UserDb } from './local-db.ts';
import { liveSession, readVault } from './vault-session.ts';
import { DEVICE_SEALED_ORDER_FIELDS, deviceKeyIdOf, deviceSeal, ensureDeviceKey, needsDeviceSeal, noteClearWrite } from './device-seal.ts';

/** The secret fields of each synced table's rows: add a field here and it is sealed everywhere. */
export const SECRET_FIELDS: Record<SyncedTable | 'serviceStocks', readonly string[]> = {
  orders: deliveredSecretFields,
  wiseStocks: ['wisePassword'],
  /** A service's own stock (decision 072): an admin's copy holds the password or the lines. */
  serviceStocks: ['password', 'lines'],
  /** Support tickets (decision 170) hold no secret. */
  tickets: [],
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

// ---- Sealing what is written -------------------------------------------------------------------------

/** The vault seen by one write: its id (null when off), checked again inside the write's transaction. */
export interface VaultSeal {
  vaultId: string | null;
  /** The device key delivered secrets are sealed with while the vault is off (decision 254); null when on or without OPFS. */
  deviceKeyId: string | null;
  seal(value: unknown): Promise<unknown>;
  /** A delivered password or file: sealed to the vault when it is on, with the device key when off (decision 254). */
  sealDelivered(value: unknown): Promise<unknown>;
}

class VaultChanged extends Error {}

export const needsSealing = (value: unknown) => value !== undefined && value !== null && value !== '' && !isSealed(value);

export async function vaultSealFor(db: UserDb): Promise<VaultSeal> {
  const record = await readVault(db);
  if (!record) {
    // Where OPFS is there but the key could not be made or read this time, the values go in clear and are sealed again soon.
    const device = (await ensureDeviceKey(db)) ?? (await ensureDeviceKey(db)) ?? (noteClearWrite(db), null);
    const sealDelivered = async (value: unknown) => (device && needsDeviceSeal(value) ? deviceSeal(db, device.key, value) : value);
    return { vaultId: null, deviceKeyId: device?.id ?? null, seal: async (value) => value, sealDelivered };
  }
  const sealer = await sealerFor(record.publicKey);
  const seal = async (value: unknown) => (needsSealing(value) ? sealer.seal(sealable(value)) : value);
  return { vaultId: record.id, deviceKeyId: null, seal, sealDelivered: seal };
}

/** Call inside the write's transaction (with db.meta in it): the vault was switched meanwhile, so the write is made again. */
export async function checkVaultSeal(db: UserDb, seal: VaultSeal): Promise<void> {
  const vaultId = (await readVault(db))?.id ?? null;
  if (vaultId !== seal.vaultId) throw new VaultChanged();
  // Vault off: the device key the values were sealed with is still the one in use (not replaced by an on-off switch meanwhile).
  if (!vaultId && seal.deviceKeyId && (await deviceKeyIdOf(db)) !== seal.deviceKeyId) throw new VaultChanged();
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

async function sealFields<T extends object>(sealWith: (value: unknown) => Promise<unknown>, row: T, fields: readonly string[] | undefined): Promise<T> {
  if (!fields?.length) return row;
  const copy = { ...row } as Record<string, unknown>;
  for (const path of fields) {
    const [first] = path.split('.');
    // A nested field's object is copied too: the caller's args stay as they were.
    if (path !== first && copy[first!] && typeof copy[first!] === 'object') copy[first!] = { ...(copy[first!] as object) };
    const { holder, field } = fieldAt(copy, path);
    if (holder && field in holder) holder[field] = await sealWith(holder[field]);
  }
  return copy as T;
}

/** Rows of a synced table with their secret fields sealed (the same rows when the vault is off). */
export async function sealRows<T extends object>(seal: VaultSeal, table: keyof typeof SECRET_FIELDS, rows: readonly T[] | undefined): Promise<T[] | undefined> {
  if (!rows) return undefined;
  // Vault off: only an order's delivered passwords, with the device key (decision 254); the rest stays as it came.
  if (!seal.vaultId) return table === 'orders' ? Promise.all(rows.map((row) => sealFields(seal.sealDelivered, row, DEVICE_SEALED_ORDER_FIELDS))) : [...rows];
  return Promise.all(rows.map((row) => sealFields(seal.seal, row, SECRET_FIELDS[table])));
}

/**
 * Orders the server answered without their secrets (`secretsInVault`, decision 182: the account keeps a
 * vault and this request proved nothing) keep the device's own copy of them: an answer never erases them.
 */
export async function keepWithheldSecrets<T extends { id: string; secretsInVault?: true }>(db: UserDb, rows: T[] | undefined): Promise<T[] | undefined> {
  if (!rows?.some((row) => row.secretsInVault)) return rows;
  return Promise.all(
    rows.map(async (row) => {
      if (!row.secretsInVault) return row;
      const kept = (await db.orders.get(row.id)) as Record<string, unknown> | undefined;
      if (!kept) return row;
      const copy = { ...row } as Record<string, unknown>;
      for (const field of SECRET_FIELDS.orders) if (kept[field] !== undefined && copy[field] === undefined) copy[field] = kept[field];
      return copy as T;
    }),
  );
}

/** An outbox entry's args with their secret fields sealed. */
export const sealArgs = async <T extends object>(seal: VaultSeal, name: MutationName, args: T): Promise<T> =>
  seal.vaultId ? sealFields(seal.seal, args, SECRET_ARGS[name]) : args;

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

export interface Slot {
  store: 'orders' | 'wiseStocks' | 'serviceStocks' | 'outbox' | 'meta' | 'deliveredFiles';
  key: string;
  /** The object holding the field in the stored record. */
  holder(record: Record<string, unknown>): Record<string, unknown> | undefined;
  field: string;
  from: unknown;
}

function sameBytes(a: ArrayBuffer, b: ArrayBuffer): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const [x, y] = [new Uint8Array(a), new Uint8Array(b)];
  return x.every((byte, i) => byte === y[i]);
}
const same = (a: unknown, b: unknown) => a === b || (isBytes(a) ? isBytes(b) && sameBytes(a, b) : JSON.stringify(a) === JSON.stringify(b));

/** A slot the device key seals while the vault is off (decision 254): an order's delivered password (its server copy too), a delivered file. */
export const isDeliveredSlot = (slot: Slot): boolean =>
  slot.store === 'deliveredFiles' ||
  ((slot.store === 'orders' || (slot.store === 'meta' && slot.key.startsWith('base:orders:'))) && DEVICE_SEALED_ORDER_FIELDS.includes(slot.field));

/** Every secret value stored in this database, wherever it is: rows, outbox args, server copies kept aside. */
async function secretSlots(db: UserDb): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (const table of ['orders', 'wiseStocks', 'serviceStocks'] as const) {
    for (const row of (await db.table(table).toArray()) as Record<string, unknown>[]) {
      for (const field of SECRET_FIELDS[table]) slots.push({ store: table, key: row.id as string, holder: (record) => record, field, from: row[field] });
    }
  }
  // Delivered files (decision 183): the bytes, sealed like a password.
  for (const file of await db.deliveredFiles.toArray()) {
    slots.push({ store: 'deliveredFiles', key: file.orderId, holder: (record) => record, field: 'bytes', from: file.bytes });
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
      slots.push({
        store: 'meta',
        key: meta.key,
        holder: (record) => (record.value as { row: Record<string, unknown> | null }).row ?? undefined,
        field,
        from: row[field],
      });
    }
  }
  return slots.filter((slot) => slot.from !== undefined);
}

/**
 * Rewrites stored secrets that `pick` selects with `change`, computed before the transaction (WebCrypto
 * cannot run inside one); a value changed meanwhile is left alone. Answers how many were rewritten.
 */
export async function sweep(
  db: UserDb,
  pick: (value: unknown, slot: Slot) => boolean,
  change: (value: unknown, slot: Slot) => Promise<unknown>,
  inTransaction?: () => Promise<void>,
): Promise<number> {
  const slots = (await secretSlots(db)).filter((slot) => pick(slot.from, slot));
  const next = await Promise.all(slots.map((slot) => change(slot.from, slot)));
  let count = 0;
  await db.transaction('rw', [db.orders, db.wiseStocks, db.serviceStocks, db.outbox, db.meta, db.deliveredFiles], async () => {
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
export async function sweepAll(db: UserDb, pick: (value: unknown, slot: Slot) => boolean, change: (value: unknown, slot: Slot) => Promise<unknown>) {
  for (let round = 0; round < 5 && (await sweep(db, pick, change)) > 0; round++);
}
