/**
 * Delivered secrets sealed from their first write (decision 254): while the vault is off, a delivered
 * password (`wisePassword`, `serverPassword` of an order), delivered lines and a delivered file's bytes are written to
 * IndexedDB sealed with a per-device AES-256-GCM key whose raw bytes live in the origin private file system
 * (OPFS), never in IndexedDB. Turning the vault on re-seals them to the vault's key and deletes the key file:
 * what IndexedDB's LevelDB files still hold from before (its log and old tables, kept until a compaction)
 * is ciphertext under a key that is no longer in the profile. Nothing of a delivered secret was ever in
 * clear there, so there is nothing to flush.
 *
 * A sealed value is `dev1.<iv>.<ciphertext>` (base64url), the plaintext JSON (bytes as `{ $bytes }`), with
 * the database's name as AES-GCM's additional data. Where the browser has no OPFS with writable files (old
 * browsers, Safari's main thread before createWritable, the unit tests' happy-dom) there is no device key
 * and the values are kept in clear, as before: a key kept in IndexedDB beside them would protect nothing.
 */
import { fromB64, isBytes, isSealed, sealable, toB64, unsealed } from '../lib/vault-crypto.ts';
import { deliveredSecretFields } from '../../../edge-api/src/contract/delivered-secrets.ts';
import type { UserDb } from './local-db.ts';

export const DEVICE_SEALED_PREFIX = 'dev1.';
/** The meta entry naming the device key in use: its id only, the key's bytes are in OPFS. */
export const DEVICE_KEY_META = 'deviceKey';
/** The order fields sealed with the device key while the vault is off: every delivered secret (decisions 254, 258). */
export const DEVICE_SEALED_ORDER_FIELDS: readonly string[] = deliveredSecretFields;

const KEY_DIR = 'device-keys';

export const isDeviceSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(DEVICE_SEALED_PREFIX);

/** The directory of key files, asked of the browser once a page (a write seals with it every time). */
let keyDir: Promise<FileSystemDirectoryHandle | null> | undefined;
/** Where key files go; tests may give their own directory (happy-dom has no OPFS). */
let keyRoot: () => Promise<FileSystemDirectoryHandle | null> = () => {
  keyDir ??= (async () => {
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    if (!storage || typeof storage.getDirectory !== 'function') return null;
    const root = await storage.getDirectory();
    return root.getDirectoryHandle(KEY_DIR, { create: true });
  })().catch(() => {
    keyDir = undefined;
    return null;
  });
  return keyDir;
};
/** This browser's OPFS files cannot be written (no createWritable): no device key in this page, found once. */
let unwritable = false;

/** Whether this browser can keep a device key (OPFS with a directory for it, and files it can write). */
export const deviceKeysAvailable = async (): Promise<boolean> => !unwritable && (await keyRoot()) !== null;

export const setDeviceKeyRoot = (root: () => Promise<FileSystemDirectoryHandle | null>) => {
  keyRoot = root;
  unwritable = false;
  keys.clear();
};

const fileName = (db: UserDb, id: string) => `${db.name}.${id}.key`;
const keys = new Map<string, Promise<CryptoKey | null>>();

async function readKey(db: UserDb, id: string): Promise<CryptoKey | null> {
  const dir = await keyRoot();
  if (!dir) return null;
  try {
    const file = await (await dir.getFileHandle(fileName(db, id))).getFile();
    const raw = new Uint8Array(await file.arrayBuffer());
    return await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  } catch {
    return null;
  }
}

/** The id of the device key this database's meta names (inside a transaction too), or null. */
export const deviceKeyIdOf = async (db: UserDb): Promise<string | null> =>
  ((await db.meta.get(DEVICE_KEY_META))?.value as { id?: string } | undefined)?.id ?? null;

/** The device key this database's meta names, if its file is there. */
export async function deviceKeyOf(db: UserDb): Promise<{ id: string; key: CryptoKey } | null> {
  const id = await deviceKeyIdOf(db);
  if (!id) return null;
  const cacheKey = `${db.name}.${id}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = readKey(db, id);
    keys.set(cacheKey, key);
  }
  const found = await key;
  if (!found) keys.delete(cacheKey);
  return found ? { id, key: found } : null;
}

/**
 * A new device key written to OPFS (not yet named in meta: the caller puts `{ key: DEVICE_KEY_META,
 * value: { id } }` in its own transaction), or null where OPFS cannot keep one.
 */
export async function newDeviceKey(db: UserDb): Promise<{ id: string; key: CryptoKey } | null> {
  const dir = unwritable ? null : await keyRoot();
  if (!dir) return null;
  const id = crypto.randomUUID();
  const raw = crypto.getRandomValues(new Uint8Array(32));
  try {
    const handle = await dir.getFileHandle(fileName(db, id), { create: true });
    if (typeof handle.createWritable !== 'function') {
      unwritable = true;
      await dir.removeEntry(fileName(db, id)).catch(() => undefined);
      return null;
    }
    const writable = await handle.createWritable();
    await writable.write(raw);
    await writable.close();
  } catch {
    return null;
  }
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  raw.fill(0);
  keys.set(`${db.name}.${id}`, Promise.resolve(key));
  return { id, key };
}

/**
 * The device key in use, made (and named in meta) when there is none yet; null where OPFS cannot keep one.
 * Two makers at once (a sync and the start's sealing, or two tabs) agree: the first name in meta wins and the
 * other's file is deleted.
 */
export async function ensureDeviceKey(db: UserDb): Promise<{ id: string; key: CryptoKey } | null> {
  const current = await deviceKeyOf(db);
  if (current) return current;
  const made = await newDeviceKey(db);
  if (!made) return null;
  const winner = await db.transaction('rw', db.meta, async () => {
    const named = await deviceKeyIdOf(db);
    if (named) return named;
    await db.meta.put({ key: DEVICE_KEY_META, value: { id: made.id } });
    return made.id;
  });
  if (winner === made.id) return made;
  const dir = await keyRoot();
  await dir?.removeEntry(fileName(db, made.id)).catch(() => undefined);
  keys.delete(`${db.name}.${made.id}`);
  return deviceKeyOf(db);
}

/** Deletes this database's key files (all of them, or all but `keep`): an OPFS delete removes the file from the profile. */
export async function deleteDeviceKeyFiles(dbName: string, keep?: string): Promise<void> {
  const dir = await keyRoot();
  if (!dir) return;
  const names: string[] = [];
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
    if (name.startsWith(`${dbName}.`) && name !== (keep && `${dbName}.${keep}.key`)) names.push(name);
  }
  for (const name of names) await dir.removeEntry(name).catch(() => undefined);
  for (const cached of [...keys.keys()]) if (cached.startsWith(`${dbName}.`) && !(keep && cached === `${dbName}.${keep}`)) keys.delete(cached);
}

/** Told when a delivered secret may have been written in clear for want of a device key (device-seal-start.ts seals it again). */
let onClearWrite: (db: UserDb) => void = () => undefined;
export const whenClearWritten = (listener: (db: UserDb) => void) => {
  onClearWrite = listener;
};
export const noteClearWrite = (db: UserDb) => onClearWrite(db);

const aad = (db: UserDb) => new TextEncoder().encode(db.name);

export async function deviceSeal(db: UserDb, key: CryptoKey, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(sealable(value)));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(db) }, key, plain);
  return `${DEVICE_SEALED_PREFIX}${toB64(iv)}.${toB64(data)}`;
}

/** Opens a device-sealed value (bytes back as an ArrayBuffer); fails when the device key is gone. */
export async function deviceOpen(db: UserDb, sealed: string): Promise<unknown> {
  const [iv, data] = sealed.slice(DEVICE_SEALED_PREFIX.length).split('.');
  const found = await deviceKeyOf(db);
  if (!found || !iv || !data) throw new Error('This device’s key for its delivered secrets is gone');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromB64(iv), additionalData: aad(db) }, found.key, fromB64(data));
  return unsealed(JSON.parse(new TextDecoder().decode(plain)));
}

/** A value worth sealing with the device key: a delivered password's text, delivered lines or a file's bytes, not already sealed. */
export const needsDeviceSeal = (value: unknown): boolean =>
  (typeof value === 'string' && value !== '' && !isDeviceSealed(value) && !isSealed(value)) || (Array.isArray(value) && value.length > 0) || isBytes(value);
