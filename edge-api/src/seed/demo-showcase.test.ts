import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { Service } from '../contract/services.ts';
import type { SiteSettings } from '../contract/settings.ts';
import type { TicketList } from '../contract/tickets.ts';
import { inProcessHarness } from '../testing/api-harness.ts';
import { removeDemoData, seedDemoData } from './demo-data.ts';
import { demoApiKey, demoPassword } from './demo-passwords.ts';
import type { ApiService } from '../contract/partners.ts';
import { showcaseServices } from './demo-showcase.ts';

/**
 * Issue 33 item 7: a first start shows every feature the README names: payment instructions with a QR
 * picture, a service of each delivery kind (with stock where the kind keeps stock), an order waiting for a
 * payment check and a warranty report, each read back through the API as the screens read them.
 */
let api: Awaited<ReturnType<typeof inProcessHarness>>;
const demoUser = async (email: string) => {
  const row = await api.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { id: row.id, token: await api.tokenFor(row.id, email) };
};

beforeAll(async () => {
  api = await inProcessHarness();
  const logins = await seedDemoData(
    api.deps,
    (email) => demoPassword('showcase-test', email),
    () => demoApiKey('showcase-test'),
  );
  expect(logins).toHaveLength(4);
  // Only the reseller's login carries the key, and it is this data directory's own.
  expect(logins!.filter((login) => login.apiKey !== undefined)).toEqual([
    {
      email: 'reseller@demo.test',
      role: 'reseller',
      password: await demoPassword('showcase-test', 'reseller@demo.test'),
      apiKey: await demoApiKey('showcase-test'),
    },
  ]);
});
afterAll(() => api?.close());

describe('the demo shop', () => {
  it('has payment instructions for three methods, each with a QR picture the site serves as a GIF', async () => {
    const settings = await api.call<SiteSettings>('GET', '/api/settings');
    const instructions = settings.body.paymentInstructions ?? [];
    expect(instructions.map((entry) => entry.method)).toEqual(['bkash', 'binance', 'nagad']);
    for (const entry of instructions) {
      expect(entry.address && entry.instructions).toBeTruthy();
      const picture = await api.call<string>('GET', new URL(entry.qrImage, 'http://localhost').pathname);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/gif');
    }
  });

  it('enables display currencies with plausible rates, read by anyone, signed in or not (decision 241)', async () => {
    const settings = await api.call<SiteSettings>('GET', '/api/settings');
    expect(settings.body.displayCurrencies?.map((currency) => currency.code)).toEqual(['EUR', 'GBP', 'BDT']);
    for (const currency of settings.body.displayCurrencies ?? []) expect(currency.rate).toBeGreaterThan(0);
  });

  it('has a service of each delivery kind, and stock for those that keep it', async () => {
    const services = (await api.call<Service[]>('GET', '/api/services')).body;
    const kinds = new Set(services.map((service) => service.deliveryKind ?? 'account'));
    expect([...kinds].sort()).toEqual(['account', 'file', 'lines', 'server']);
    const available = await api.db
      .selectFrom('service_stocks')
      .innerJoin('services', 'services.id', 'service_stocks.service_id')
      .select(['service_stocks.kind', (eb) => eb.fn.countAll<string>().as('count')])
      .where('service_stocks.status', '=', 'available')
      .groupBy('service_stocks.kind')
      .execute();
    expect(Object.fromEntries(available.map((row) => [row.kind, Number(row.count)]))).toEqual({ server: 3, lines: 4 });
    const wise = await api.db.selectFrom('wise_stocks').select('id').where('status', '=', 'available').execute();
    expect(wise.length).toBeGreaterThan(0);
    // Listed after the services the other orders are of: the storefront opens on those.
    expect(services.slice(-showcaseServices.length).map((service) => service.title)).toEqual(showcaseServices.map((service) => service.title));
  });

  it('has an order of the demo customer waiting for a payment check and one with a warranty report open, both in the bell', async () => {
    const customer = await demoUser('customer@demo.test');
    const orders = (await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer.token })).body;
    const waiting = orders.find((order) => order.paymentProof?.transactionId === 'DEMO8K2X7Q');
    expect(waiting).toMatchObject({ paymentStatus: 'pending', orderStatus: 'pending', paymentMethod: 'bkash' });
    const reported = orders.find((order) => order.report?.status === 'open');
    expect(reported).toMatchObject({ orderStatus: 'delivered', paymentStatus: 'paid', report: { reason: 'login_fails' } });
    expect(Date.parse(reported!.warrantyEndsAt!)).toBeGreaterThan(Date.now());

    const notices = await api.db.selectFrom('notifications').select(['kind', 'order_id']).where('resolved_at', 'is', null).execute();
    expect(notices).toContainEqual({ kind: 'payment_check', order_id: waiting!.id });
    expect(notices).toContainEqual({ kind: 'problem_report', order_id: reported!.id });
  });

  it('has a support ticket of the demo customer about the waiting order, waiting for staff with its bell', async () => {
    const customer = await demoUser('customer@demo.test');
    const mine = (await api.call<TicketList>('GET', '/api/tickets', { user: customer.token })).body.tickets;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ subject: 'When will my order be processed?', status: 'open', unreadByStaff: 1, orderTitle: expect.any(String) });
    expect(mine[0]!.messages.map((message) => message.side)).toEqual(['customer', 'staff', 'customer']);
    const notices = await api.db
      .selectFrom('notifications')
      .select(['kind'])
      .where('dedupe_key', '=', `ticket:${mine[0]!.id}`)
      .where('resolved_at', 'is', null)
      .execute();
    expect(notices).toEqual([{ kind: 'ticket' }]);
  });

  it("has a reseller whose API key reads the shop at the reseller's own prices, stored only as its SHA-256 (decision 141)", async () => {
    const key = await demoApiKey('showcase-test');
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(await demoApiKey('another-data-dir')).not.toBe(key);
    const headers = { authorization: `Bearer ${key}` };
    const services = await api.call<ApiService[]>('GET', '/api/v1/services', { headers });
    expect(services.status).toBe(200);
    const proxies = services.body.find((s) => s.title === 'SOCKS5 Proxy Pack (5 proxies)')!;
    // 20 % off the list price of 8, and below that only the 20+ tier.
    expect(proxies).toMatchObject({ price: '6.40', listPrice: '8', tiers: [{ minQuantity: 20, unitPrice: '5.50' }] });
    const stored = await api.db.selectFrom('api_keys').select(['secret_hash', 'prefix']).execute();
    expect(JSON.stringify(stored)).not.toContain(key.slice(11));
  });

  it('is seeded once: a second start adds nothing, and demo:remove takes the showcase services and their stock', async () => {
    const count = async () =>
      Number(
        (
          await api.db
            .selectFrom('service_stocks')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await seedDemoData(api.deps, (email) => demoPassword('showcase-test', email))).toBeUndefined();
    expect(await count()).toBe(7);
    expect(await removeDemoData(api.db)).toMatchObject({ stocks: 5, serviceStocks: 7 });
    expect(await count()).toBe(0);
    expect(await api.db.selectFrom('tickets').select('id').where('deleted_at', 'is', null).execute()).toEqual([]);
    const left = await api.db.selectFrom('services').select('title').where('deleted_at', 'is', null).execute();
    expect(left.map((service) => service.title)).not.toContain(showcaseServices[0]!.title);
    // The demo reseller's key goes with the demo accounts.
    expect((await api.call('GET', '/api/v1/services', { headers: { authorization: `Bearer ${await demoApiKey('showcase-test')}` } })).status).toBe(401);
    expect(await api.db.selectFrom('api_keys').select('id').where('revoked_at', 'is', null).execute()).toEqual([]);
  });
});
