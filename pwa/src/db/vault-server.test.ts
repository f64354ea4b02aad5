import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// Issue 30 item 4 (decisions 181-183): the device vault with the server's part, on the real API and database.
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { createVaultKeys, isSealed, pinProof, sealable, sealerFor, toB64, unwrapWithPepper, unwrapWithPin, wrapWithPin } from '../lib/vault-crypto.ts';
import { openDeliveredFile } from './delivered-files.ts';
import type { UserDb } from './local-db.ts';
import { deliverOrder } from './mutations.ts';
import { createService, device, orderOnServer, serviceBody, syncTestBench } from '../test/sync-bench.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import { lockVault, openSealedValue, readVault } from './vault-session.ts';
import { enableVault, unlockVault } from './vault.ts';
import { needsSealing, sweepAll } from './vault-seal.ts';

const { bench, track } = syncTestBench();
let api: ApiHarness;
let admin: TestUser;
beforeAll(() => {
  ({ api, admin } = bench);
});
afterEach(() => {
  vi.restoreAllMocks();
  lockVault();
});

/** Fewer PBKDF2 rounds than a real vault, so the tests stay quick; the rounds are stored with the key. */
const iterations = 1_000;
const PIN = '246810';

/** Everything the database holds, as text: what someone reading IndexedDB would see. */
async function everything(db: UserDb): Promise<string> {
  const dump: Record<string, unknown> = {};
  for (const table of db.tables) dump[table.name] = await table.toArray();
  return JSON.stringify(dump);
}

async function deliveredTo(customer: TestUser, password: string): Promise<Order> {
  const service = await createService(api, admin, 'Wise business');
  const order = await orderOnServer(api, customer, service);
  const delivered = await api.call<Order>('PUT', `/api/admin/orders/${order.id}`, {
    user: admin,
    json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: `${order.id.slice(0, 8)}@wise.test`, wisePassword: password, version: order.version },
  });
  expect(delivered.status).toBe(200);
  return delivered.body;
}

describe('the vault against a copied device (issue 30 item 4, decision 181)', () => {
  it("keeps nothing on the device that checks a PIN guess: the copied record opens only with the server's pepper", async () => {
    const customer = await api.createUser('user');
    await deliveredTo(customer, 'Copied-Device-1');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();
    const copy = structuredClone(await readVault(db!))!;
    expect(copy.pin.peppered).toBe(true);
    // An offline guesser has the salt and the wrapped key: the right PIN with any pepper but the server's fails,
    // and the PIN alone (the old construction) too, so a guess cannot be told right from wrong.
    const proof = await pinProof(PIN, copy.pin.salt, copy.pin.iterations);
    expect(await unwrapWithPepper(copy.pin, proof, toB64(new Uint8Array(32)))).toBeNull();
    expect(await unwrapWithPin(copy.pin, PIN)).toBeNull();
    expect(JSON.stringify(copy)).not.toContain(proof.verifier);
    expect(await everything(db!)).not.toContain('Copied-Device-1');

    // The count is the server's: resetting the device's own count (an attacker editing IndexedDB) gains nothing.
    for (const left of [4, 3, 2, 1]) expect(await unlockVault(db!, '000000', { client })).toEqual({ kind: 'wrong', left });
    await db!.meta.put({ key: 'vault', value: { ...(await readVault(db!))!, wrongPins: 0 } });
    expect(await unlockVault(db!, '000001', { client })).toEqual({ kind: 'wiped' });
    const [server] = await api.db.selectFrom('device_vaults').selectAll().where('id', '=', copy.id).execute();
    expect(server).toMatchObject({ wrong_tries: 5, pepper_enc: null });
  });

  it('gets delivered passwords sealed by the server while locked, never in clear, and reads them offline once unlocked', async () => {
    const customer = await api.createUser('user');
    const { engine, db, client, exchanges } = track(device(api, customer));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();
    const order = await deliveredTo(customer, 'Sealed-By-Server-2');
    await engine.syncNow();
    // What came over the wire was sealed to this device's vault by the server.
    expect(JSON.stringify(exchanges)).not.toContain('Sealed-By-Server-2');
    const row = await db!.orders.get(order.id);
    expect(isSealed(row?.wisePassword)).toBe(true);
    // The session alone (no vault named), an hour after its sign-in, gets no password at all.
    if (api.mode === 'in-process') {
      const deps = api.deps;
      deps.clock = () => new Date(Date.now() + 3600_000);
      const bare = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer }).finally(() => (deps.clock = () => new Date()));
      expect(bare.body.find((o) => o.id === order.id)).toMatchObject({ secretsInVault: true });
    }

    expect(await unlockVault(db!, PIN, { client })).toEqual({ kind: 'unlocked' });
    // Offline after the unlock: the key is in memory, nothing more is asked of the server.
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await openSealedValue(db!, row!.wisePassword!)).toBe('Sealed-By-Server-2');
    // A pull answered without secrets keeps the device's sealed copy.
    await engine.syncNow();
    expect((await db!.orders.get(order.id))?.wisePassword).toBe(row!.wisePassword);
  });

  it('shows the changes waiting to be sent before the try that could destroy the vault, and tries only when told to', async () => {
    const staff = await api.createUser('admin');
    const created = await api.call<Service>('POST', '/api/services', {
      user: staff,
      json: { ...serviceBody('Vault last try'), category: 'Other', deliveryKind: 'server' },
    });
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, created.body);
    const { engine, db, client } = track(device(api, staff));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();
    const delivery = deliverOrder(staff.id, {
      orderId: order.id,
      version: order.version,
      server: { host: 'last.vault.test', port: 22, user: 'root', password: 'Last-Try-9' },
    });
    await delivery.saved;
    delivery.done.catch(() => undefined);

    for (const left of [4, 3, 2, 1]) expect(await unlockVault(db!, '000000', { client })).toEqual({ kind: 'wrong', left });
    const asked = await unlockVault(db!, '000000', { client });
    expect(asked).toMatchObject({ kind: 'last-try', pending: [{ name: 'deliverOrder' }] });
    // Nothing was sent: the server still counts four, the change is still queued.
    const [server] = await api.db.selectFrom('device_vaults').select('wrong_tries').where('user_id', '=', staff.id).execute();
    expect(server?.wrong_tries).toBe(4);
    expect(await db!.outbox.count()).toBe(1);
    // The right PIN, confirmed, unlocks and the change goes out.
    expect(await unlockVault(db!, PIN, { client, confirmLast: true })).toEqual({ kind: 'unlocked' });
    await engine.syncNow();
    expect(await db!.outbox.count()).toBe(0);
  });
});

describe('delivered files in the vault (decision 183)', () => {
  it('seals a kept file when the vault is switched on, opens it only unlocked, and the server gives it only to an unlocked vault', async () => {
    const customer = await api.createUser('user');
    const service = await api.call<Service>('POST', '/api/services', {
      user: admin,
      json: { ...serviceBody('Vault file'), category: 'Other', deliveryKind: 'file' },
    });
    const order = await orderOnServer(api, customer, service.body);
    const form = new FormData();
    form.append('kind', 'delivery');
    form.append('file', new File([new TextEncoder().encode('File-Secret-Body-6')], 'doc.pdf', { type: 'application/pdf' }));
    const uploaded = await api.call<{ path: string; name: string }>('POST', '/api/uploads', { user: admin, body: form });
    const delivered = await api.call<Order>('PUT', `/api/admin/orders/${order.id}`, {
      user: admin,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', version: order.version, file: { path: uploaded.body.path, name: uploaded.body.name } },
    });
    expect(delivered.status).toBe(200);
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    await vi.waitFor(async () => expect(await db!.deliveredFiles.get(order.id)).toBeDefined());
    expect((await db!.deliveredFiles.get(order.id))!.bytes).toBeInstanceOf(ArrayBuffer);

    await enableVault(db!, PIN, { iterations, client });
    lockVault();
    const kept = (await db!.deliveredFiles.get(order.id))!;
    expect(isSealed(kept.bytes)).toBe(true);
    expect(kept.bytes).not.toContain('File-Secret-Body-6');
    const row = (await db!.orders.get(order.id))!;
    await expect(openDeliveredFile(db!, client, row)).rejects.toMatchObject({ code: 'vault_locked' });
    // Not from the server either while locked.
    await db!.deliveredFiles.clear();
    await expect(openDeliveredFile(db!, client, row)).rejects.toMatchObject({ code: 'vault_locked' });

    expect(await unlockVault(db!, PIN, { client })).toEqual({ kind: 'unlocked' });
    const opened = await openDeliveredFile(db!, client, row);
    expect(new TextDecoder().decode(opened.bytes as ArrayBuffer)).toBe('File-Secret-Body-6');
    // Fetched while unlocked, it was kept sealed.
    expect(isSealed((await db!.deliveredFiles.get(order.id))!.bytes)).toBe(true);
    const again = await openDeliveredFile(db!, client, row);
    expect(new TextDecoder().decode(again.bytes as ArrayBuffer)).toBe('File-Secret-Body-6');
  });
});

describe('a vault from before decision 181 (decision 068)', () => {
  it('moves a vault made before decision 181 (the PIN alone, counted on the device) to the server’s pepper at its first unlock', async () => {
    const customer = await api.createUser('user');
    const order = await deliveredTo(customer, 'Old-Vault-Pass-7');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    // A decision-068 vault as an older app left it: the private key wrapped with the PIN alone, the password sealed.
    const keys = await createVaultKeys();
    const id = crypto.randomUUID();
    await db!.meta.put({
      key: 'vault',
      value: { id, publicKey: keys.publicKey, pin: await wrapWithPin(keys.privateKey, PIN, iterations), wrongPins: 0, createdAt: new Date().toISOString() },
    });
    const sealer = await sealerFor(keys.publicKey);
    await sweepAll(db!, needsSealing, (value) => sealer.seal(sealable(value)));
    expect(await everything(db!)).not.toContain('Old-Vault-Pass-7');

    // A wrong PIN is counted on the device as before (no server vault yet); the right one opens and moves it.
    expect(await unlockVault(db!, '000000', { client })).toEqual({ kind: 'wrong', left: 4 });
    expect(await unlockVault(db!, PIN, { client })).toEqual({ kind: 'unlocked' });
    expect(await openSealedValue(db!, (await db!.orders.get(order.id))!.wisePassword)).toBe('Old-Vault-Pass-7');
    const moved = (await readVault(db!))!;
    expect(moved).toMatchObject({ id, wrongPins: 0, pin: { peppered: true } });
    expect(moved.publicKey).toEqual(keys.publicKey);
    // The PIN alone no longer opens the stored key: a copy of the device is not guessed offline any more.
    expect(await unwrapWithPin(moved.pin, PIN)).toBeNull();
    const [server] = await api.db.selectFrom('device_vaults').selectAll().where('id', '=', id).execute();
    expect(server).toMatchObject({ wrong_tries: 0 });
    expect(server!.pepper_enc).not.toBeNull();

    // From now on the server counts: a wrong PIN answers the server's count, the right one unlocks through it.
    lockVault();
    expect(await unlockVault(db!, '000000', { client })).toEqual({ kind: 'wrong', left: 4 });
    const [counted] = await api.db.selectFrom('device_vaults').selectAll().where('id', '=', id).execute();
    expect(counted).toMatchObject({ wrong_tries: 1 });
    expect(await unlockVault(db!, PIN, { client })).toEqual({ kind: 'unlocked' });
    expect(await openSealedValue(db!, (await db!.orders.get(order.id))!.wisePassword)).toBe('Old-Vault-Pass-7');
  });
});
