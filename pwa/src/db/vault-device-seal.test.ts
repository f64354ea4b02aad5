import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { createService, device, orderOnServer, syncTestBench } from '../test/sync-bench.ts';
import { isSealed as isVaultSealed } from '../lib/vault-crypto.ts';
import { useMemoryOpfs, type MemoryDir } from '../test/memory-opfs.ts';
import { DEVICE_KEY_META, isDeviceSealed, noteClearWrite, setDeviceKeyRoot } from './device-seal.ts';
import { sealDeliveredAtStart } from './device-seal-start.ts';
import type { UserDb } from './local-db.ts';
import { sealRows, vaultSealFor } from './vault-seal.ts';
import { lockVault, openSealedValue } from './vault-session.ts';
import { disableVault, enableVault, unlockVault } from './vault.ts';

const { bench, track } = syncTestBench();
let api: ApiHarness;
let admin: TestUser;
let dir: MemoryDir;
beforeAll(() => {
  ({ api, admin } = bench);
});
afterEach(() => lockVault());
afterAll(() => setDeviceKeyRoot(async () => null));

const iterations = 1_000;
const PIN = '135790';

async function everything(db: UserDb): Promise<string> {
  const dump: Record<string, unknown> = {};
  for (const table of db.tables) dump[table.name] = await table.toArray();
  return JSON.stringify(dump);
}

async function deliveredTo(customer: TestUser, password: string): Promise<Order> {
  const service = await createService(api, admin, 'Wise business');
  const order = await orderOnServer(api, customer, service);
  const json = {
    paymentStatus: 'paid',
    orderStatus: 'delivered',
    wiseEmail: `${order.id.slice(0, 8)}@wise.test`,
    wisePassword: password,
    version: order.version,
  };
  const delivered = await api.call<Order>('PUT', `/api/admin/orders/${order.id}`, { user: admin, json });
  expect(delivered.status).toBe(200);
  return delivered.body;
}

describe('delivered secrets sealed with the device key (decision 254)', () => {
  it('never stores the delivered password in clear; the vault re-seals it and deletes the key; off again, a new key', async () => {
    dir = useMemoryOpfs();
    const customer = await api.createUser('user');
    const order = await deliveredTo(customer, 'Device-Sealed-Pass-1');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    expect(await everything(db!)).not.toContain('Device-Sealed-Pass-1');
    const stored = (await db!.orders.get(order.id))!.wisePassword;
    expect(isDeviceSealed(stored)).toBe(true);
    // Vault off: opened without a PIN.
    expect(await openSealedValue(db!, stored)).toBe('Device-Sealed-Pass-1');
    expect(dir.files.size).toBe(1);
    const [keyFile] = [...dir.files.keys()];
    expect(keyFile).toContain(db!.name);

    await enableVault(db!, PIN, { iterations, client });
    expect(dir.files.size).toBe(0);
    expect(await db!.meta.get(DEVICE_KEY_META)).toBeUndefined();
    const sealed = (await db!.orders.get(order.id))!.wisePassword;
    expect(isVaultSealed(sealed)).toBe(true);
    lockVault();
    await expect(openSealedValue(db!, sealed)).rejects.toMatchObject({ code: 'vault_locked' });
    expect(await unlockVault(db!, PIN, { client })).toEqual({ kind: 'unlocked' });
    expect(await openSealedValue(db!, sealed)).toBe('Device-Sealed-Pass-1');

    expect(await disableVault(db!, PIN, { client })).toEqual({ kind: 'off' });
    expect(dir.files.size).toBe(1);
    expect([...dir.files.keys()][0]).not.toBe(keyFile);
    const again = (await db!.orders.get(order.id))!.wisePassword;
    expect(isDeviceSealed(again)).toBe(true);
    expect(await openSealedValue(db!, again)).toBe('Device-Sealed-Pass-1');
    expect(await everything(db!)).not.toContain('Device-Sealed-Pass-1');
  });

  it('seals at start what an older version kept in clear; without an OPFS it keeps them in clear, as before', async () => {
    setDeviceKeyRoot(async () => null);
    const customer = await api.createUser('user');
    const order = await deliveredTo(customer, 'Older-Clear-Pass-2');
    const { engine, db } = track(device(api, customer));
    await engine.syncNow();
    expect((await db!.orders.get(order.id))!.wisePassword).toBe('Older-Clear-Pass-2');
    await sealDeliveredAtStart(db!);
    expect((await db!.orders.get(order.id))!.wisePassword).toBe('Older-Clear-Pass-2');

    dir = useMemoryOpfs();
    await sealDeliveredAtStart(db!);
    expect(await everything(db!)).not.toContain('Older-Clear-Pass-2');
    expect(await openSealedValue(db!, (await db!.orders.get(order.id))!.wisePassword)).toBe('Older-Clear-Pass-2');
  });

  it('seals delivered lines like a password: on their way in, and by the sweep after a write in clear', async () => {
    dir = useMemoryOpfs();
    const customer = await api.createUser('user');
    const { db } = track(device(api, customer));
    const lines = ['10.0.0.1:8080:proxy:Lines-Pass-3', '10.0.0.2:8080:proxy:Lines-Pass-4'];
    const [incoming] = (await sealRows(await vaultSealFor(db!), 'orders', [{ id: 'lines-in', deliveryKind: 'lines', deliveryLines: lines }]))!;
    expect(isDeviceSealed(incoming!.deliveryLines)).toBe(true);
    expect(JSON.stringify(incoming)).not.toContain('Lines-Pass');
    expect(await openSealedValue(db!, incoming!.deliveryLines)).toEqual(lines);

    await db!.orders.put({ id: 'lines-old', deliveryKind: 'lines', deliveryLines: lines } as unknown as Order);
    await sealDeliveredAtStart(db!, true);
    const stored = (await db!.orders.get('lines-old'))!.deliveryLines;
    expect(isDeviceSealed(stored)).toBe(true);
    expect(await everything(db!)).not.toContain('Lines-Pass');
    expect(await openSealedValue(db!, stored)).toEqual(lines);
  });

  it('sweeps once per device key, not at every start, and again after a write went in clear', async () => {
    dir = useMemoryOpfs();
    const customer = await api.createUser('user');
    const { db } = track(device(api, customer));
    await sealDeliveredAtStart(db!);
    // The sweep reads every table's rows (db.table(name).toArray()); a start after it reads none.
    const tableReads = vi.spyOn(db!, 'table');
    await sealDeliveredAtStart(db!);
    expect(tableReads).not.toHaveBeenCalled();

    noteClearWrite(db!);
    await vi.waitFor(async () => expect(await db!.meta.get('deviceSealSwept')).toBeUndefined());
    await sealDeliveredAtStart(db!);
    expect(tableReads).toHaveBeenCalled();
  });

  it('keeps them in clear, and stops trying, where OPFS files cannot be written (no createWritable)', async () => {
    const files = useMemoryOpfs();
    let asked = 0;
    const unwritable = {
      getFileHandle: async (name: string, options?: { create?: boolean }) => {
        asked += 1;
        const handle = await files.getFileHandle(name, options);
        return { getFile: handle.getFile };
      },
      removeEntry: (name: string) => files.removeEntry(name),
      keys: () => files.keys(),
    };
    setDeviceKeyRoot(async () => unwritable as unknown as FileSystemDirectoryHandle);
    const customer = await api.createUser('user');
    const { db } = track(device(api, customer));
    const [first] = (await sealRows(await vaultSealFor(db!), 'orders', [{ id: 'clear-1', wisePassword: 'Unwritable-Pass-5' }]))!;
    expect(first!.wisePassword).toBe('Unwritable-Pass-5');
    const askedOnce = asked;
    expect(askedOnce).toBeGreaterThan(0);
    await vaultSealFor(db!);
    await sealDeliveredAtStart(db!);
    // Found once: no file made and removed again at every write.
    expect(asked).toBe(askedOnce);
    expect(files.files.size).toBe(0);
  });
});
