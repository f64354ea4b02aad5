import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestOrderPlaced, GuestOrderState } from '../contract/guest-orders.ts';
import type { Order } from '../contract/orders.ts';
import { defaultSettings } from '../contract/settings.ts';
import { supabaseGuestAccounts } from '../auth/supabase-guest-accounts.ts';
import type { Database } from '../db/schema.ts';
import { saveSettings } from '../db/settings.ts';
import { nextVersion } from '../db/versions.ts';
import { silentLogger } from '../lib/logger.ts';
import { apiWithEmbeddedAuth } from '../testing/api-with-auth.ts';
import { linkIn, mailsTo, openLink, waitForMail } from '../testing/auth-mail.ts';
import { ANON_KEY, freshEmail, SERVICE_ROLE_KEY, startAuthServer, supabaseClient, type AuthServer } from '../testing/auth-server.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { GUEST_ORDERS_PER_ADDRESS_PER_HOUR, GUEST_ORDERS_PER_IP_PER_HOUR } from './guest-orders.ts';

let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let server: AuthServer;
let api: Hono;
let serviceId: string;

async function setGuestCheckout(on: boolean) {
  await db.transaction().execute(async (trx) => saveSettings(trx, { ...defaultSettings, guestCheckout: on }, await nextVersion(trx)));
}

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  server = await startAuthServer(db);
  api = await apiWithEmbeddedAuth(db, server);
  serviceId = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id: serviceId,
        title: 'Wise Personal',
        description: 'x',
        category: 'wise',
        features: '[]',
        price: '15',
        delivery_time: 'instant',
        payment_methods: '["binance"]',
        version: await nextVersion(trx),
      })
      .execute();
  });
  await setGuestCheckout(true);
});

afterAll(async () => {
  await server?.close();
  await closeDb?.();
});

let ips = 0;
const place = (email: string, extra: Record<string, unknown> = {}, ip = `10.9.0.${++ips}`) =>
  api.request('/api/guest-orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-client-ip': ip },
    body: JSON.stringify({ email, productId: serviceId, ...extra }),
  });
const readState = (id: string, token?: string) => api.request(`/api/guest-orders/${id}`, { headers: token === undefined ? {} : { 'x-order-token': token } });
const asUser = (path: string, token: string) => api.request(path, { headers: { authorization: `Bearer ${token}` } });

describe('ordering with just an email (decision 177)', () => {
  it('is refused while the shop setting is off, and nothing is made', async () => {
    await setGuestCheckout(false);
    const email = freshEmail('off').toLowerCase();
    const answer = await place(email);
    expect(answer.status).toBe(403);
    expect(await db.selectFrom('auth_users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    await setGuestCheckout(true);
  });

  it('places the order at once, mails a link that signs in on another device and shows the order there', async () => {
    const email = freshEmail('buyer').toLowerCase();
    const answer = await place(email, { paymentMethod: 'Binance', note: 'for my shop' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const placed = (await answer.json()) as GuestOrderPlaced;
    expect(placed.order).toMatchObject({ title: 'Wise Personal', price: '15', paymentMethod: 'binance', orderStatus: 'pending', paymentStatus: 'pending' });
    const account = await db.selectFrom('auth_users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(account.email_confirmed_at).toBeNull();
    const record = await db.selectFrom('users').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ email, user_role: 'user', mobile: '' });

    const { fragment } = await openLink(linkIn(await waitForMail(server, email)));
    const token = fragment.get('access_token')!;
    const mine = await asUser(`/api/orders/user/${account.id}`, token);
    expect(mine.status).toBe(200);
    const orders = (await mine.json()) as Order[];
    expect(orders.map((order) => order.id)).toEqual([placed.order.id]);
    expect(orders[0]).toMatchObject({ note: 'for my shop', userEmail: email });
    expect(
      (await db.selectFrom('auth_users').select('email_confirmed_at').where('id', '=', account.id).executeTakeFirstOrThrow()).email_confirmed_at,
    ).not.toBeNull();
  });

  it('answers the same for an address that already has an account, and places the order under it', async () => {
    const email = freshEmail('regular').toLowerCase();
    const { data, error } = await supabaseClient(server.url).auth.signUp({ email, password: 'correct horse' });
    expect(error).toBeNull();
    const fresh = (await (await place(freshEmail('new').toLowerCase())).json()) as GuestOrderPlaced;
    const answer = await place(email);
    expect(answer.status).toBe(201);
    const known = (await answer.json()) as GuestOrderPlaced;
    expect(Object.keys(known).sort()).toEqual(Object.keys(fresh).sort());
    expect(Object.keys(known.order).sort()).toEqual(Object.keys(fresh.order).sort());
    const row = await db.selectFrom('orders').select('user_id').where('id', '=', known.order.id).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(data.user!.id);
  });

  it("charges the list price even when the address's account has its own prices (decision 178)", async () => {
    const email = freshEmail('reseller').toLowerCase();
    const first = (await (await place(email)).json()) as GuestOrderPlaced;
    const { user_id: userId } = await db.selectFrom('orders').select('user_id').where('id', '=', first.order.id).executeTakeFirstOrThrow();
    await db
      .insertInto('customer_prices')
      .values([
        { id: crypto.randomUUID(), user_id: userId, service_id: serviceId, unit_cents: 500, percent_off: null },
        { id: crypto.randomUUID(), user_id: userId, service_id: null, unit_cents: null, percent_off: 50 },
      ])
      .execute();
    const answer = await place(email);
    expect(answer.status).toBe(201);
    const placed = (await answer.json()) as GuestOrderPlaced;
    const row = await db.selectFrom('orders').select(['user_id', 'price', 'price_rule']).where('id', '=', placed.order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: userId, price: '15' });
    expect(JSON.parse(row.price_rule!)).toMatchObject({ kind: 'list' });
    expect(placed.order.price).toBe('15');
  });

  it('lets the placing device read the state with its token only, and never what was delivered', async () => {
    const email = freshEmail('state').toLowerCase();
    const placed = (await (await place(email)).json()) as GuestOrderPlaced;
    await db
      .updateTable('orders')
      .set({
        order_status: 'delivered',
        payment_status: 'paid',
        wise_email: 'delivered@wise.test',
        wise_password_enc: 'sealed-secret',
        delivery_details: JSON.stringify({ kind: 'lines', lines: ['KEY-123'] }),
      })
      .where('id', '=', placed.order.id)
      .execute();
    const answer = await readState(placed.order.id, placed.statusToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const text = await answer.text();
    const state = JSON.parse(text) as GuestOrderState;
    expect(Object.keys(state).sort()).toEqual(['createdAt', 'id', 'orderStatus', 'paymentMethod', 'paymentStatus', 'price', 'statusUntil', 'title']);
    expect(state).toMatchObject({ orderStatus: 'delivered', paymentStatus: 'paid' });
    for (const secret of ['delivered@wise.test', 'sealed-secret', 'KEY-123']) expect(text).not.toContain(secret);

    // Whoever knows the email and the order id but not the token: one answer for every miss.
    const misses = [await readState(placed.order.id), await readState(placed.order.id, 'wrong'), await readState(crypto.randomUUID(), placed.statusToken)];
    for (const miss of misses) expect(miss.status).toBe(404);
    const bodies = await Promise.all(misses.map((miss) => miss.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    // Nor through the signed-in routes without a session.
    expect((await api.request(`/api/orders/user/${placed.order.id}`)).status).toBe(401);

    await db
      .updateTable('orders')
      .set({ status_token_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', placed.order.id)
      .execute();
    expect((await readState(placed.order.id, placed.statusToken)).status).toBe(404);
  });

  it('mails one link a minute to an address, and refuses past the per-address and per-IP budgets', async () => {
    const email = freshEmail('busy').toLowerCase();
    for (let n = 0; n < GUEST_ORDERS_PER_ADDRESS_PER_HOUR; n++) expect((await place(email)).status).toBe(201);
    const refused = await place(email);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    await server.mailSettled();
    expect(await mailsTo(server, email)).toHaveLength(1);
    const orders = await db.selectFrom('orders').select('id').where('user_email', '=', email).execute();
    expect(orders).toHaveLength(GUEST_ORDERS_PER_ADDRESS_PER_HOUR);

    const ip = '10.8.8.8';
    for (let n = 0; n < GUEST_ORDERS_PER_IP_PER_HOUR; n++) expect((await place(freshEmail('ip').toLowerCase(), {}, ip)).status).toBe(201);
    expect((await place(freshEmail('ip').toLowerCase(), {}, ip)).status).toBe(429);
  }, 90_000);

  it('refuses a coupon, a bad address and an unknown service with a reason, placing nothing', async () => {
    const email = freshEmail('bad').toLowerCase();
    expect((await place(email, { couponCode: 'WELCOME' })).status).toBe(400);
    expect((await place('not an address')).status).toBe(400);
    expect((await place(email, { productId: crypto.randomUUID() })).status).toBe(404);
    expect(await db.selectFrom('orders').select('id').where('user_email', '=', email).execute()).toHaveLength(0);
  });
});

describe('the Supabase side of it (supabaseGuestAccounts), against the embedded auth speaking GoTrue', () => {
  it('makes the account once through the admin API, finds it the second time, and mails the link through /otp', async () => {
    const accounts = supabaseGuestAccounts(
      `${server.url}/auth/v1`,
      { anonKey: ANON_KEY, serviceRoleKey: SERVICE_ROLE_KEY },
      { redirectTo: undefined, logger: silentLogger },
    );
    const email = freshEmail('supabase').toLowerCase();
    const id = await accounts.ensure(email);
    expect(await accounts.ensure(email.toUpperCase())).toBe(id);
    await accounts.mailSignIn(email);
    const mail = await waitForMail(server, email);
    expect(linkIn(mail).searchParams.get('type')).toBe('magiclink');
    // The address's minute: the second is held back by the auth server, and that is no error.
    await accounts.mailSignIn(email);
    await server.mailSettled();
    expect(await mailsTo(server, email)).toHaveLength(1);
  });
});
