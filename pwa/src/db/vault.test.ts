import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import {
  createVaultKeys,
  isSealed,
  newPinSalt,
  openerFor,
  pinProof,
  sealerFor,
  toB64,
  unwrapWithPepper,
  unwrapWithPin,
  unwrapWithSecret,
  wrapWithPepper,
  wrapWithPin,
  wrapWithSecret,
} from '../lib/vault-crypto.ts';
import { keepOnDevice } from './device-copy.ts';
import type { UserDb } from './local-db.ts';
import { deliverOrder } from './mutations.ts';
import { createService, device, orderOnServer, serviceBody, syncTestBench } from '../test/sync-bench.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import { openArgs } from './vault-seal.ts';
import { isVaultUnlocked, lockVault, openSealedValue, readVault, VAULT_IDLE_MS } from './vault-session.ts';
import { disableVault, enableVault, unlockVault } from './vault.ts';

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

describe('vault crypto', () => {
  it('seals a value that only the private key opens, and the PIN unwraps that key', async () => {
    const keys = await createVaultKeys();
    const sealer = await sealerFor(keys.publicKey);
    const sealed = await sealer.seal('Sunny-Day-42');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('Sunny-Day-42');
    expect(await openerFor(keys.privateKey).open(sealed)).toBe('Sunny-Day-42');
    // A second value of the same batch gets its own IV.
    expect(await sealer.seal('Sunny-Day-42')).not.toBe(sealed);

    const wrapped = await wrapWithPin(keys.privateKey, PIN, iterations);
    expect(await unwrapWithPin(wrapped, '999999')).toBeNull();
    const unwrapped = await unwrapWithPin(wrapped, PIN);
    expect(await openerFor(unwrapped!).open(sealed)).toBe('Sunny-Day-42');
    // A passkey's PRF output wraps a second copy; another output does not open it.
    const prf = crypto.getRandomValues(new Uint8Array(32));
    const byPasskey = await wrapWithSecret(keys.privateKey, prf);
    expect(await unwrapWithSecret(byPasskey, crypto.getRandomValues(new Uint8Array(32)))).toBeNull();
    expect(await openerFor((await unwrapWithSecret(byPasskey, prf))!).open(sealed)).toBe('Sunny-Day-42');
    // Decision 181: the PIN AND the server's pepper; either alone, or a wrong one, opens nothing.
    const salt = newPinSalt();
    const proof = await pinProof(PIN, salt, iterations);
    const pepper = toB64(crypto.getRandomValues(new Uint8Array(32)));
    const peppered = await wrapWithPepper(keys.privateKey, proof, pepper, salt, iterations);
    expect(await openerFor((await unwrapWithPepper(peppered, proof, pepper))!).open(sealed)).toBe('Sunny-Day-42');
    expect(await unwrapWithPepper(peppered, proof, toB64(crypto.getRandomValues(new Uint8Array(32))))).toBeNull();
    expect(await unwrapWithPepper(peppered, await pinProof('999999', salt, iterations), pepper)).toBeNull();
    expect(await unwrapWithPin(peppered, PIN)).toBeNull();
    // The verifier the server sees is not the key's half the device keeps.
    expect(proof.verifier).not.toBe(toB64(proof.pinPart));
    // Another vault's key cannot open it.
    const other = await createVaultKeys();
    await expect(openerFor(other.privateKey).open(sealed)).rejects.toThrow();
  });
});

describe('vault on a device', () => {
  it('seals the delivered password already on the device, opens it only while unlocked, and turns off again', async () => {
    const customer = await api.createUser('user');
    await deliveredTo(customer, 'Delivered-Pass-1');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    expect(await everything(db!)).toContain('Delivered-Pass-1');

    await expect(enableVault(db!, '12ab')).rejects.toMatchObject({ code: 'bad_request' });
    await enableVault(db!, PIN, { iterations, client });
    expect(await everything(db!)).not.toContain('Delivered-Pass-1');
    const [order] = await db!.orders.toArray();
    expect(isSealed(order!.wisePassword)).toBe(true);
    expect(await openSealedValue(db!, order!.wisePassword!)).toBe('Delivered-Pass-1');

    lockVault();
    await expect(openSealedValue(db!, order!.wisePassword!)).rejects.toMatchObject({ code: 'vault_locked' });
    expect(await unlockVault(db!, '111111', { client })).toEqual({ kind: 'wrong', left: 4 });
    expect(await unlockVault(db!, PIN, { client })).toEqual({ kind: 'unlocked' });
    expect(await openSealedValue(db!, order!.wisePassword!)).toBe('Delivered-Pass-1');
    expect((await readVault(db!))?.wrongPins).toBe(0);

    expect(await disableVault(db!, PIN, { client })).toEqual({ kind: 'off' });
    expect(await readVault(db!)).toBeUndefined();
    expect((await db!.orders.get(order!.id))?.wisePassword).toBe('Delivered-Pass-1');
  });

  it('seals a delivery arriving by sync while locked', async () => {
    const customer = await api.createUser('user');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();

    const order = await deliveredTo(customer, 'Arrived-While-Locked');
    await engine.syncNow();
    const row = await db!.orders.get(order.id);
    expect(row?.orderStatus).toBe('delivered');
    expect(isSealed(row?.wisePassword)).toBe(true);
    expect(await everything(db!)).not.toContain('Arrived-While-Locked');

    // A screen keeping a server answer on the device seals it too.
    const stock = { id: 'stock-x', wisePassword: 'Stock-Secret-9', version: 1 } as WiseStock;
    await keepOnDevice(db!, { stocks: [stock] });
    expect(await everything(db!)).not.toContain('Stock-Secret-9');

    await unlockVault(db!, PIN, { client });
    expect(await openSealedValue(db!, row!.wisePassword!)).toBe('Arrived-While-Locked');
  });

  it("seals the secrets of a service's own stock on an admin's device (decision 072), synced before and while locked", async () => {
    const service = await bench.api.call<Service>('POST', '/api/services', {
      user: admin,
      json: { title: 'VPS in stock', description: 'A server', category: 'vps', price: '9', deliveryTime: '1hour', deliveryKind: 'server' },
    });
    expect(service.status).toBe(201);
    const addServer = async (password: string) => {
      const added = await api.call<{ id: string }>('POST', '/api/service-stocks', {
        user: admin,
        json: { serviceId: service.body.id, server: { host: 'vps.example.net', port: 22, user: 'root', password } },
      });
      expect(added.status).toBe(201);
      return added.body.id;
    };
    const before = await addServer('Stocked-Before-3');
    const { engine, db, client } = track(device(api, admin));
    await engine.syncNow();
    expect(await everything(db!)).toContain('Stocked-Before-3');
    await enableVault(db!, PIN, { iterations, client });
    expect(await everything(db!)).not.toContain('Stocked-Before-3');
    expect(await openSealedValue(db!, (await db!.serviceStocks.get(before))!.password!)).toBe('Stocked-Before-3');

    lockVault();
    const during = await addServer('Stocked-While-Locked-4');
    await engine.syncNow();
    const row = await db!.serviceStocks.get(during);
    expect(isSealed(row?.password)).toBe(true);
    expect(await everything(db!)).not.toContain('Stocked-While-Locked-4');
    await unlockVault(db!, PIN, { client });
    expect(await openSealedValue(db!, row!.password!)).toBe('Stocked-While-Locked-4');
    expect(await disableVault(db!, PIN, { client })).toEqual({ kind: 'off' });
    expect((await db!.serviceStocks.get(during))?.password).toBe('Stocked-While-Locked-4');
  });

  it('keeps a password typed by staff sealed in the outbox; it is sent once the vault is unlocked', async () => {
    const service = await createService(api, admin, 'Wise personal');
    const customer = await api.createUser('user');
    const order = await orderOnServer(api, customer, service);
    const { engine, db, client } = track(device(api, admin));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();

    const delivery = deliverOrder(admin.id, { orderId: order.id, version: order.version, wiseEmail: 'typed@wise.test', wisePassword: 'Typed-Offline-7' });
    await delivery.saved;
    expect(await everything(db!)).not.toContain('Typed-Offline-7');
    const [entry] = await db!.outbox.toArray();
    expect(await openArgs(db!, entry!.name, entry!.args)).toBeNull();

    await engine.syncNow();
    expect(await db!.outbox.count()).toBe(1);

    await unlockVault(db!, PIN, { client });
    await engine.syncNow();
    await delivery.done;
    const answer = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(answer.body.find((row) => row.id === order.id)).toMatchObject({ orderStatus: 'delivered', wisePassword: 'Typed-Offline-7' });
    expect(await everything(db!)).not.toContain('Typed-Offline-7');
  });

  it("seals a server login's password and delivered lines (decision 069) arriving while locked, and opens them as they were", async () => {
    const kindService = async (kind: 'server' | 'lines') => {
      const created = await api.call<Service>('POST', '/api/services', {
        user: admin,
        json: { ...serviceBody(`Vault ${kind}`), category: 'Other', deliveryKind: kind },
      });
      expect(created.status).toBe(201);
      return created.body;
    };
    const customer = await api.createUser('user');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();

    const server = await orderOnServer(api, customer, await kindService('server'));
    const lines = await orderOnServer(api, customer, await kindService('lines'));
    for (const [order, delivery] of [
      [server, { server: { host: 'vps.vault.test', port: 2222, user: 'root', password: 'Server-Vault-3' } }],
      [lines, { lines: ['10.0.0.1:8080:user:Line-Vault-1', '10.0.0.2:8080:user:Line-Vault-2'] }],
    ] as const) {
      const answer = await api.call('PUT', `/api/admin/orders/${order.id}`, {
        user: admin,
        json: { paymentStatus: 'paid', orderStatus: 'delivered', version: order.version, ...delivery },
      });
      expect(answer.status).toBe(200);
    }
    await engine.syncNow();
    const text = await everything(db!);
    for (const secret of ['Server-Vault-3', 'Line-Vault-1', 'Line-Vault-2']) expect(text).not.toContain(secret);
    const serverRow = await db!.orders.get(server.id);
    const linesRow = await db!.orders.get(lines.id);
    // What is not secret stays readable: the card still names the host while locked.
    expect(serverRow).toMatchObject({ deliveryKind: 'server', serverHost: 'vps.vault.test', serverUser: 'root' });
    await expect(openSealedValue(db!, linesRow!.deliveryLines)).rejects.toMatchObject({ code: 'vault_locked' });

    await unlockVault(db!, PIN, { client });
    expect(await openSealedValue(db!, serverRow!.serverPassword!)).toBe('Server-Vault-3');
    expect(await openSealedValue(db!, linesRow!.deliveryLines)).toEqual(['10.0.0.1:8080:user:Line-Vault-1', '10.0.0.2:8080:user:Line-Vault-2']);
  });

  it('keeps a server password typed by staff sealed in the outbox, its host readable; it is sent once unlocked', async () => {
    // A staff member of its own: another test's device of the shared admin already has its vault on.
    const staff = await api.createUser('admin');
    const created = await api.call<Service>('POST', '/api/services', {
      user: staff,
      json: { ...serviceBody('Vault staff server'), category: 'Other', deliveryKind: 'server' },
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
      server: { host: 'typed.vault.test', port: 22, user: 'admin', password: 'Typed-Server-8' },
    });
    await delivery.saved;
    expect(await everything(db!)).not.toContain('Typed-Server-8');
    const [entry] = await db!.outbox.toArray();
    expect((entry!.args as { server: { host: string } }).server.host).toBe('typed.vault.test');
    expect((await db!.orders.get(order.id))?.serverHost).toBe('typed.vault.test');
    expect(await openArgs(db!, entry!.name, entry!.args)).toBeNull();

    await unlockVault(db!, PIN, { client });
    await engine.syncNow();
    await delivery.done;
    const answer = await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer });
    expect(answer.body.find((row) => row.id === order.id)).toMatchObject({
      deliveryKind: 'server',
      serverHost: 'typed.vault.test',
      serverPassword: 'Typed-Server-8',
    });
    expect(await everything(db!)).not.toContain('Typed-Server-8');
  });

  it('wipes the device copy at the fifth wrong PIN in a row', async () => {
    const customer = await api.createUser('user');
    await deliveredTo(customer, 'Wiped-Pass-5');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    lockVault();

    for (const left of [4, 3, 2, 1]) expect(await unlockVault(db!, '000000', { client })).toEqual({ kind: 'wrong', left });
    expect(await db!.orders.count()).toBe(1);
    expect(await unlockVault(db!, '000000', { client })).toEqual({ kind: 'wiped' });
    expect(await readVault(db!)).toBeUndefined();
    for (const table of db!.tables) expect(await table.count()).toBe(0);
  });

  it('locks again after the idle time', async () => {
    const customer = await api.createUser('user');
    const { engine, db, client } = track(device(api, customer));
    await engine.syncNow();
    await enableVault(db!, PIN, { iterations, client });
    expect(isVaultUnlocked(db!)).toBe(true);
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start + VAULT_IDLE_MS - 1_000);
    expect(isVaultUnlocked(db!)).toBe(true);
    vi.spyOn(Date, 'now').mockReturnValue(start + VAULT_IDLE_MS + 1_000);
    expect(isVaultUnlocked(db!)).toBe(false);
  });
});
