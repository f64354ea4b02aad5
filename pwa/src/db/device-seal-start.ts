/**
 * At the first open of a user's database in a page (decision 254): delivered passwords and files an older
 * version kept in clear are sealed with the device key, and a vault switch cut off before it deleted the
 * device key finishes (its leftovers sealed to the vault, the key file deleted). The clear copies an older
 * version wrote stay in IndexedDB's LevelDB files until the browser compacts them (docs/security.md).
 */
import { sealable, sealerFor } from '../lib/vault-crypto.ts';
import {
  DEVICE_KEY_META,
  deleteDeviceKeyFiles,
  deviceKeysAvailable,
  deviceOpen,
  deviceSeal,
  ensureDeviceKey,
  isDeviceSealed,
  needsDeviceSeal,
  whenClearWritten,
} from './device-seal.ts';
import type { UserDb } from './local-db.ts';
import { isDeliveredSlot, sweepAll } from './vault-seal.ts';
import { readVault } from './vault-session.ts';

async function finishVaultSwitch(db: UserDb, publicKey: JsonWebKey): Promise<void> {
  if (await db.meta.get(DEVICE_KEY_META)) {
    const sealer = await sealerFor(publicKey);
    await sweepAll(db, isDeviceSealed, async (value) => sealer.seal(sealable(await deviceOpen(db, value as string))));
    await db.meta.delete(DEVICE_KEY_META);
  }
  await deleteDeviceKeyFiles(db.name);
}

/**
 * The meta entry naming the device key the last sweep sealed everything with: a start finding it skips the
 * sweep, which reads every order and stock of the database (on a staff device, thousands) while the first
 * screen reads its rows. A write that went in clear removes it (sealAgainSoon).
 */
const SWEPT_META = 'deviceSealSwept';

/** `again`: a write went in clear since the last sweep, whatever the marker says. */
export async function sealDeliveredAtStart(db: UserDb, again = false): Promise<void> {
  if (!(await deviceKeysAvailable())) return;
  const vault = await readVault(db);
  if (vault) return finishVaultSwitch(db, vault.publicKey);
  const device = await ensureDeviceKey(db);
  if (!device) return;
  if (again || (await db.meta.get(SWEPT_META))?.value !== device.id) {
    await sweepAll(
      db,
      (value, slot) => isDeliveredSlot(slot) && needsDeviceSeal(value),
      (value) => deviceSeal(db, device.key, value),
    );
    await db.meta.put({ key: SWEPT_META, value: device.id });
  }
  // Key files no meta names any more (a switch cut off before its transaction).
  await deleteDeviceKeyFiles(db.name, device.id);
}

/**
 * A write that found OPFS but could not make or read the device key this time went in clear: sealed again a
 * moment later (after that write's transaction), unless OPFS is missing altogether (then clear is the rule).
 */
function sealAgainSoon(db: UserDb): void {
  void deviceKeysAvailable().then(async (available) => {
    if (!available) return;
    // The next start sweeps too, should this page close before the sweep below.
    await db.meta.delete(SWEPT_META);
    console.warn('A delivered secret was kept without the device key: sealing it again');
    setTimeout(() => sealDeliveredAtStart(db, true).catch((cause: unknown) => console.warn('Delivered secrets could not be sealed yet', cause)), 1_000);
  });
}

/** Runs sealDeliveredAtStart once per database and page; a failure is logged, the app goes on. */
const started = new Set<string>();
export function sealDeliveredOnce(db: UserDb): void {
  whenClearWritten(sealAgainSoon);
  if (started.has(db.name)) return;
  started.add(db.name);
  sealDeliveredAtStart(db).catch((cause: unknown) => console.warn('Delivered secrets could not be sealed on this device yet', cause));
}
