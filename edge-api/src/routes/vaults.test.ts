import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { SyncResponse } from '../contract/sync.ts';
import { ECDH_P256, envelopeKey, fromB64, isSealed, SEALED_PREFIX, toB64 } from '../contract/vault-envelope.ts';
import type { VaultRegistered, VaultSummary, VaultUnlocked } from '../contract/vaults.ts';
import type { TestUser } from '../testing/api-harness.ts';
import { orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Issue 30 item 4: the server takes part in unlocking a device vault (decisions 181, 182).

const bench = orderTestBench();

/**
 * Sessions an hour old, as a copied one would be (a sign-in of the last 10 minutes is a proof of its own):
 * the embedded auth's session rows say when; in process (no auth server) the API's clock runs an hour ahead.
 */
async function aged(user: TestUser) {
  const sessionId = (JSON.parse(atob(user.token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { session_id: string }).session_id;
  await bench.api.db
    .updateTable('auth_sessions')
    .set({ created_at: new Date(Date.now() - 3600_000) })
    .where('id', '=', sessionId)
    .execute();
  return user;
}
beforeAll(() => {
  if (bench.api.mode === 'in-process') bench.api.deps.clock = () => new Date(Date.now() + 3600_000);
});
afterAll(() => {
  if (bench.api.mode === 'in-process') bench.api.deps.clock = () => new Date();
});

/** A device's vault as it registers: a key pair, PBKDF2 parameters and a verifier (any 32 bytes here). */
async function newVault() {
  const pair = await crypto.subtle.generateKey(ECDH_P256, true, ['deriveBits']);
  const publicKey = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const verifier = toB64(crypto.getRandomValues(new Uint8Array(32)));
  return {
    id: crypto.randomUUID(),
    pair,
    body: { publicKey, pinSalt: toB64(crypto.getRandomValues(new Uint8Array(16))), pinIterations: 1000, verifier, deviceLabel: 'Chrome on Android' },
  };
}
type Vault = Awaited<ReturnType<typeof newVault>>;

const register = (user: TestUser, vault: Vault, headers?: Record<string, string>) =>
  bench.api.call<VaultRegistered & ErrorBody>('POST', '/api/vaults', { user, json: { id: vault.id, ...vault.body }, headers });
const unlock = (user: TestUser, vaultId: string, verifier: string) =>
  bench.api.call<VaultUnlocked & ErrorBody & { error: { details?: { left: number } } }>('POST', `/api/vaults/${vaultId}/unlock`, { user, json: { verifier } });
const ordersOf = (user: TestUser, headers?: Record<string, string>) => bench.api.call<Order[]>('GET', `/api/orders/user/${user.id}`, { user, headers });
const wrongVerifier = () => toB64(crypto.getRandomValues(new Uint8Array(32)));

/** Opens a value the server sealed to the vault (what the device does with its unwrapped key). */
async function open(privateKey: CryptoKey, sealed: string): Promise<unknown> {
  const [epk, iv, data] = sealed.slice(SEALED_PREFIX.length).split('.');
  const raw = fromB64(epk!);
  const key = await envelopeKey(privateKey, await crypto.subtle.importKey('raw', raw, ECDH_P256, false, []), raw, 'decrypt');
  return JSON.parse(new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromB64(iv!) }, key, fromB64(data!))));
}

async function customerWithDelivery() {
  const customer = await aged(await bench.api.createUser('user'));
  const id = await bench.orders.placeOrder(customer);
  const password = `Vaulted-${random()}`;
  expect((await bench.orders.deliverTyped(id, `vault-${random()}@wise.test`, password)).status).toBe(200);
  return { customer, id, password };
}

describe('a device vault on the server', () => {
  it('withholds delivered passwords from a session that proves nothing, seals them to the named vault, and answers them in clear only with an unlock', async () => {
    const { customer, id, password } = await customerWithDelivery();
    expect((await ordersOf(customer)).body.find((o) => o.id === id)?.wisePassword).toBe(password);

    const vault = await newVault();
    const registered = await register(customer, vault);
    expect(registered.status).toBe(201);
    expect(registered.headers.get('cache-control')).toBe('no-store');
    expect(fromB64(registered.body.pepper)).toHaveLength(32);

    // The session alone (what a copied localStorage holds): no password, in any answer that carries orders.
    const bare = (await ordersOf(customer)).body.find((o) => o.id === id)!;
    expect(bare).toMatchObject({ secretsInVault: true, wiseEmail: expect.any(String) });
    expect(bare.wisePassword).toBeUndefined();
    const pulled = await bench.api.call<SyncResponse>('GET', '/api/sync', { user: customer });
    expect(pulled.status).toBe(200);
    expect(JSON.stringify(pulled.body)).not.toContain(password);

    // The device naming its vault gets it sealed to the vault's key, which only the unwrapped private key opens.
    const sealed = (await ordersOf(customer, { 'x-vault-id': vault.id })).body.find((o) => o.id === id)!;
    expect(isSealed(sealed.wisePassword)).toBe(true);
    expect(await open(vault.pair.privateKey, sealed.wisePassword!)).toBe(password);
    const syncedSealed = await bench.api.call<SyncResponse>('GET', '/api/sync', { user: customer, headers: { 'x-vault-id': vault.id } });
    expect(JSON.stringify(syncedSealed.body)).not.toContain(password);
    // Another vault id (made up, or someone else's) is no better than none.
    expect((await ordersOf(customer, { 'x-vault-id': crypto.randomUUID() })).body.find((o) => o.id === id)?.wisePassword).toBeUndefined();

    // The PIN's proof: the pepper given at registration, and a token that opens clear answers for a while.
    const right = await unlock(customer, vault.id, vault.body.verifier);
    expect(right.status).toBe(200);
    expect(right.headers.get('cache-control')).toBe('no-store');
    expect(right.body.pepper).toBe(registered.body.pepper);
    const clear = await ordersOf(customer, { 'x-vault-unlock': right.body.unlockToken });
    expect(clear.body.find((o) => o.id === id)?.wisePassword).toBe(password);
    // A device with its vault gets them sealed even while unlocked: never in clear to a vault.
    const both = await ordersOf(customer, { 'x-vault-unlock': right.body.unlockToken, 'x-vault-id': vault.id });
    expect(isSealed(both.body.find((o) => o.id === id)?.wisePassword)).toBe(true);
    // A token altered, or shown by another account, opens nothing.
    const forged = `${right.body.unlockToken.slice(0, -2)}00`;
    expect((await ordersOf(customer, { 'x-vault-unlock': forged })).body.find((o) => o.id === id)?.wisePassword).toBeUndefined();
    const other = await aged(await bench.api.createUser('user'));
    expect((await unlock(other, vault.id, vault.body.verifier)).status).toBe(404);

    const audit = await bench.api.db.selectFrom('audit_log').select('action').where('entity_id', '=', customer.id).execute();
    expect(audit.map((row) => row.action)).toContain('vault.created');
    expect(JSON.stringify(audit)).not.toContain(registered.body.pepper);
  });

  it('counts wrong PINs on the server and destroys the pepper at the fifth in a row; the right PIN resets the count', async () => {
    const { customer } = await customerWithDelivery();
    const vault = await newVault();
    expect((await register(customer, vault)).status).toBe(201);

    for (const left of [4, 3]) {
      const wrong = await unlock(customer, vault.id, wrongVerifier());
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toMatchObject({ code: 'wrong_pin', details: { left } });
    }
    expect((await unlock(customer, vault.id, vault.body.verifier)).status).toBe(200);
    const listed = await bench.api.call<VaultSummary[]>('GET', '/api/vaults', { user: customer });
    expect(listed.body).toEqual([expect.objectContaining({ id: vault.id, wrongTries: 0, destroyed: false, pinIterations: 1000 })]);

    for (const left of [4, 3, 2, 1]) expect((await unlock(customer, vault.id, wrongVerifier())).body.error.details).toEqual({ left });
    const fifth = await unlock(customer, vault.id, wrongVerifier());
    expect(fifth.status).toBe(410);
    expect(fifth.body.error.code).toBe('vault_destroyed');
    const row = await bench.api.db.selectFrom('device_vaults').selectAll().where('id', '=', vault.id).executeTakeFirstOrThrow();
    expect(row.pepper_enc).toBeNull();
    expect(row.destroyed_at).not.toBeNull();
    // Gone for good: the right PIN no longer helps, and the session alone still gets no password.
    expect((await unlock(customer, vault.id, vault.body.verifier)).status).toBe(410);
    expect((await ordersOf(customer, { 'x-vault-id': vault.id })).body.every((o) => o.wisePassword === undefined)).toBe(true);
    const actions = (await bench.api.db.selectFrom('audit_log').select('action').where('entity_id', '=', customer.id).execute()).map((r) => r.action);
    expect(actions.filter((a) => a === 'vault.wrong_pin')).toHaveLength(6);
    expect(actions).toContain('vault.destroyed');
  });

  it('lets only a fresh sign-in or an unlock make another vault or remove one: a stolen session cannot replace the vault with its own', async () => {
    const { customer, id, password } = await customerWithDelivery();
    const first = await newVault();
    expect((await register(customer, first)).status).toBe(201);
    await staleSession(customer, first, id, password);
  });
});

async function staleSession(customer: TestUser, first: Vault, id: string, password: string) {
  const thief = await newVault();
  const refused = await register(customer, thief);
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('reauth_required');
  expect((await bench.api.call('DELETE', `/api/vaults/${first.id}`, { user: customer })).status).toBe(403);
  expect((await ordersOf(customer, { 'x-vault-id': thief.id })).body.find((o) => o.id === id)?.wisePassword).toBeUndefined();

  // A second device of the owner proves the PIN of the first vault (its salt is listed) and registers its own.
  const token = (await unlock(customer, first.id, first.body.verifier)).body.unlockToken;
  const second = await newVault();
  expect((await register(customer, second, { 'x-vault-unlock': token })).status).toBe(201);
  const sealed = (await ordersOf(customer, { 'x-vault-id': second.id })).body.find((o) => o.id === id)!;
  expect(await open(second.pair.privateKey, sealed.wisePassword!)).toBe(password);

  // Switching a vault off needs its own unlock; the last one gone, answers are clear again.
  const secondToken = (await unlock(customer, second.id, second.body.verifier)).body.unlockToken;
  expect((await bench.api.call('DELETE', `/api/vaults/${first.id}`, { user: customer, headers: { 'x-vault-unlock': secondToken } })).status).toBe(403);
  expect((await bench.api.call('DELETE', `/api/vaults/${second.id}`, { user: customer, headers: { 'x-vault-unlock': secondToken } })).status).toBe(204);
  expect((await bench.api.call('DELETE', `/api/vaults/${first.id}`, { user: customer, headers: { 'x-vault-unlock': token } })).status).toBe(204);
  expect((await ordersOf(customer)).body.find((o) => o.id === id)?.wisePassword).toBe(password);
}

describe('the vault routes', () => {
  it('refuse bad input and change nothing', async () => {
    const customer = await bench.api.createUser('user');
    const vault = await newVault();
    const withPrivate = await bench.api.call<ErrorBody>('POST', '/api/vaults', {
      user: customer,
      json: { id: vault.id, ...vault.body, publicKey: await crypto.subtle.exportKey('jwk', vault.pair.privateKey) },
    });
    expect(withPrivate.status).toBe(400);
    expect((await bench.api.call('POST', '/api/vaults', { user: customer, json: { id: vault.id, ...vault.body, pinIterations: 10 } })).status).toBe(400);
    expect((await bench.api.call<VaultSummary[]>('GET', '/api/vaults', { user: customer })).body).toEqual([]);
  });
});

describe('a delivered file with the vault on (decision 183)', () => {
  it('is downloaded by its owner only with the vault unlocked', async () => {
    const customer = await aged(await bench.api.createUser('user'));
    const service = await bench.api.call<{ id: string }>('POST', '/api/services', {
      user: bench.admin,
      json: { title: 'Vault file', description: 'A document', category: 'Other', price: '$5', deliveryTime: '1hour', deliveryKind: 'file' },
    });
    const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: service.body.id } });
    const form = new FormData();
    form.append('kind', 'delivery');
    form.append('file', new File([new TextEncoder().encode('Vault-File-Body')], 'doc.pdf', { type: 'application/pdf' }));
    const uploaded = await bench.api.call<{ path: string; name: string }>('POST', '/api/uploads', { user: bench.moderator, body: form });
    const orderId = placed.body.order.id;
    const delivered = await bench.api.call('PUT', `/api/admin/orders/${orderId}`, {
      user: bench.moderator,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', file: { path: uploaded.body.path, name: uploaded.body.name } },
    });
    expect(delivered.status).toBe(200);
    const download = (headers?: Record<string, string>) =>
      bench.api.call<string & ErrorBody>('GET', `/api/orders/${orderId}/file`, { user: customer, headers });
    expect((await download()).body).toBe('Vault-File-Body');

    const vault = await newVault();
    expect((await register(customer, vault)).status).toBe(201);
    const locked = await download({ 'x-vault-id': vault.id });
    expect(locked.status).toBe(403);
    expect(locked.body.error.code).toBe('vault_locked');
    const token = (await unlock(customer, vault.id, vault.body.verifier)).body.unlockToken;
    const open = await download({ 'x-vault-unlock': token });
    expect(open.status).toBe(200);
    expect(open.body).toBe('Vault-File-Body');
    expect((await download({ 'x-vault-unlock': token, 'x-vault-id': vault.id })).status).toBe(200);
    // Staff still download it to check a delivery.
    expect((await bench.api.call('GET', `/api/orders/${orderId}/file`, { user: bench.moderator })).status).toBe(200);
  });
});

describe('another device of the account', () => {
  it('gets delivered passwords in clear within minutes of a sign-in (the password is a proof), not later with the session alone', async () => {
    const customer = await aged(await bench.api.createUser('user'));
    const id = await bench.orders.placeOrder(customer);
    const password = `Fresh-${random()}`;
    expect((await bench.orders.deliverTyped(id, `fresh-${random()}@wise.test`, password)).status).toBe(200);
    expect((await register(customer, await newVault())).status).toBe(201);
    expect((await ordersOf(customer)).body.find((o) => o.id === id)?.wisePassword).toBeUndefined();
    // A new sign-in of the same account (a laptop): the API's clock and the token's sign-in time agree.
    if (bench.api.mode === 'in-process') bench.api.deps.clock = () => new Date();
    try {
      const laptop = { ...customer, token: bench.api.mode === 'in-process' ? await bench.api.tokenFor(customer.id, customer.email) : customer.token };
      if (bench.api.mode === 'in-process') expect((await ordersOf(laptop)).body.find((o) => o.id === id)?.wisePassword).toBe(password);
    } finally {
      if (bench.api.mode === 'in-process') bench.api.deps.clock = () => new Date(Date.now() + 3600_000);
    }
  });

  it('refuses a public key whose point is not on the curve, and answers 400, never 500, for one stored before (issue 30, decision 246)', async () => {
    const { customer } = await customerWithDelivery();
    const offCurve = { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'BBBB' };
    const vault = await newVault();
    const refused = await register(customer, { ...vault, body: { ...vault.body, publicKey: offCurve } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^publicKey: must be a point on the P-256 curve/);
    expect(await bench.api.db.selectFrom('device_vaults').select('id').where('id', '=', vault.id).executeTakeFirst()).toBeUndefined();

    // One stored before registration checked keys: the owner's answers naming it say why, and hold no secret.
    expect((await register(customer, vault)).status).toBe(201);
    await bench.api.db
      .updateTable('device_vaults')
      .set({ public_key: JSON.stringify(offCurve) as unknown as JsonWebKey })
      .where('id', '=', vault.id)
      .execute();
    const headers = { 'x-vault-id': vault.id };
    const orders = await bench.api.call<ErrorBody>('GET', `/api/orders/user/${customer.id}`, { user: customer, headers });
    const sync = await bench.api.call<ErrorBody>('GET', '/api/sync?scope=private', { user: customer, headers });
    for (const answer of [orders, sync]) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/x-vault-id names a vault whose public key does not import/);
    }
  });
});
