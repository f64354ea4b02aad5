import { createAuthUser } from '../auth/embedded/auth-store.ts';
import type { DisplayCurrency } from '../contract/currencies.ts';
import type { OrderStatus, PaymentStatus } from '../contract/orders.ts';
import type { ServiceFields } from '../contract/services.ts';
import { defaultSettings } from '../contract/settings.ts';
import type { StockStatus } from '../contract/wise-stocks.ts';
import { toServiceColumns } from '../db/services.ts';
import { nextVersion, writeTime } from '../db/versions.ts';
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Deps } from '../deps.ts';
import { DEMO_AUTH_IMAGE, demoAuthPng, demoImage } from './demo-images.ts';
import { demoPaymentInstructions, seedShowcaseOrders, seedShowcaseStock, showcaseServices } from './demo-showcase.ts';
import { seedDemoTicket } from './demo-ticket.ts';
import { DEMO_RESELLER, seedDemoReseller } from './demo-reseller.ts';
import { newApiKey } from '../lib/api-key-secret.ts';

/** The demo accounts one signs in with; their passwords come from demo-passwords.ts, per data directory. */
export const demoLogins = [
  { email: 'admin@demo.test', role: 'admin', name: 'Demo Admin', mobile: '01711000001' },
  { email: 'moderator@demo.test', role: 'moderator', name: 'Demo Moderator', mobile: '01711000002' },
  { email: 'customer@demo.test', role: 'user', name: 'Demo Customer', mobile: '01711000003' },
] as const;

const extraCustomers = [
  { email: 'rahim@demo.test', role: 'user', name: 'Rahim Uddin', mobile: '01711000004' },
  { email: 'sara@demo.test', role: 'user', name: 'Sara Khan', mobile: '01711000005' },
] as const;

export interface DemoLogin {
  email: string;
  password: string;
  role: string;
  /** The demo reseller's API key (decision 141), on its login only. */
  apiKey?: string;
}

const services: ServiceFields[] = [
  {
    title: 'Editable Bank Statement Template',
    description: 'Fully editable bank statement document in Word and PDF formats, customised to your details and ready to use.',
    category: 'documents',
    features: ['Word and PDF formats', 'Any country layout', 'Unlimited revisions', 'Delivered by email'],
    popular: true,
    image: demoImage('documents'),
    price: '15',
    deliveryTime: '3hours',
    paymentMethods: ['binance', 'bkash', 'nagad', 'wise'],
  },
  {
    title: 'Utility Bill Editable File',
    description: 'Editable utility bill template (electricity, gas or water) with your name and address.',
    category: 'editableFile',
    features: ['PSD and PDF', 'Customisable fields', 'High resolution'],
    popular: false,
    image: demoImage('editable-file'),
    price: '10',
    deliveryTime: 'instant',
    paymentMethods: ['binance', 'bkash', 'payoneer'],
  },
  {
    title: 'All Country Wise Account',
    description: 'A verified Wise personal account, ready to send and receive money, with full login credentials.',
    category: 'wise',
    features: ['Fully verified', 'Email access included', 'Replacement guarantee', '24/7 support'],
    popular: true,
    image: demoImage('wise-account'),
    price: '120',
    deliveryTime: '1hour',
    paymentMethods: ['binance', 'wise', 'payoneer', 'remitly', 'ach'],
  },
  {
    title: 'Wise Business Account',
    description: 'A verified Wise business account for receiving international payments.',
    category: 'wise',
    features: ['Business verified', 'Multi-currency', 'Login credentials'],
    popular: false,
    image: demoImage('wise-business'),
    price: '180',
    deliveryTime: '24hours',
    paymentMethods: ['binance', 'wise', 'xoom'],
  },
  {
    title: 'Cloud VPS 2 vCPU / 4 GB',
    description: 'A fast Linux virtual server with full root access, SSD storage and a dedicated IP.',
    category: 'vps',
    features: ['2 vCPU, 4 GB RAM', '80 GB SSD', 'Dedicated IPv4', 'Root access'],
    popular: true,
    image: demoImage('vps'),
    price: '25',
    deliveryTime: '6hours',
    paymentMethods: ['binance', 'bkash', 'nagad', 'upay', 'roket'],
  },
  {
    title: 'Windows RDP VPS',
    description: 'Windows Server VPS with remote desktop access, ideal for trading bots and remote work.',
    category: 'vps',
    features: ['Windows Server', '4 GB RAM', 'RDP access'],
    popular: false,
    image: demoImage('rdp-vps'),
    price: '30',
    deliveryTime: '12hours',
    paymentMethods: ['binance', 'payoneer'],
  },
];

const orderStates: [OrderStatus, PaymentStatus][] = [
  ['pending', 'pending'],
  ['processing', 'paid'],
  ['completed', 'paid'],
  ['delivered', 'paid'],
  ['cancelled', 'refunded'],
  ['pending', 'failed'],
];

const stocks: { name: string; email: string; password: string; status: StockStatus }[] = [
  { name: 'Arif Hossain', email: 'arif.wise@demo-mail.test', password: 'Wise#Arif2026', status: 'available' },
  { name: 'Nadia Islam', email: 'nadia.wise@demo-mail.test', password: 'Wise#Nadia2026', status: 'available' },
  { name: 'Tanvir Ahmed', email: 'tanvir.wise@demo-mail.test', password: 'Wise#Tanvir2026', status: 'available' },
  { name: 'Mim Akter', email: 'mim.wise@demo-mail.test', password: 'Wise#Mim2026', status: 'active' },
  { name: 'Shakib Rahman', email: 'shakib.wise@demo-mail.test', password: 'Wise#Shakib2026', status: 'suspended' },
];

/** The demo shop's coupon: 10 % off, 100 uses. */
export const DEMO_COUPON = 'WELCOME10';

const DAY = 24 * 3600 * 1000;

/** The demo logins and extra customers, each with an auth account and a user record. */
async function seedPeople(trx: Db, passwordFor: (email: string) => Promise<string>, version: number, now: number) {
  const day = DAY;
  const people = [];
  for (const [i, person] of [...demoLogins, ...extraCustomers].entries()) {
    const createdAt = new Date(now - (40 - i) * day);
    const account = await createAuthUser(trx, {
      email: person.email,
      password: await passwordFor(person.email),
      metadata: { displayName: person.name, mobile: person.mobile },
      now: createdAt,
    });
    if (!account) throw new Error(`Could not create the demo account ${person.email}`);
    await trx
      .insertInto('users')
      .values({
        id: account.id,
        email: person.email,
        display_name: person.name,
        mobile: person.mobile,
        user_role: person.role,
        version,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    people.push({ ...person, id: account.id });
  }
  return people;
}

/** The services in every category, then the showcase's (the list is oldest first). */
async function seedServices(trx: Db, version: number, now: number) {
  const day = DAY;
  const serviceRows = services.map((service, i) => ({ ...service, id: crypto.randomUUID(), createdAt: new Date(now - (30 - i) * day) }));
  // The showcase's services come after the others (the list is oldest first); the orders below are of the others.
  const showcaseRows = showcaseServices.map((service, i) => ({ ...service, id: crypto.randomUUID(), createdAt: new Date(now - (24 - i) * day) }));
  for (const service of [...serviceRows, ...showcaseRows]) {
    await trx
      .insertInto('services')
      .values({
        id: service.id,
        ...toServiceColumns(service),
        version,
        created_at: service.createdAt,
        updated_at: service.createdAt,
      })
      .execute();
  }
  return { serviceRows, showcaseRows };
}

/** Currencies a customer of the demo shop may see prices in, at plausible rates per 1 USD (decision 241). */
export const DEMO_DISPLAY_CURRENCIES: DisplayCurrency[] = [
  { code: 'EUR', rate: 0.92 },
  { code: 'GBP', rate: 0.79 },
  { code: 'BDT', rate: 121.5 },
];

/** The shop's settings with the payment instructions and display currencies, and a coupon to try. */
async function seedSettings(trx: Db, deps: Deps, version: number, now: number) {
  const paymentInstructions = await demoPaymentInstructions(deps);
  await trx
    .insertInto('settings')
    .values({
      id: 'site',
      value: JSON.stringify({ ...defaultSettings, paymentInstructions, guestCheckout: true, displayCurrencies: DEMO_DISPLAY_CURRENCIES }),
      version,
    })
    .execute();
  // A coupon to try in the confirm step (decision 220).
  await trx
    .insertInto('coupons')
    .values({
      id: crypto.randomUUID(),
      code: DEMO_COUPON,
      kind: 'percent',
      amount: '10',
      max_uses: 100,
      created_at: new Date(now),
      updated_at: new Date(now),
    })
    .execute();
}

/** The Wise inventory, added by the admin. */
async function seedStocks(trx: Db, deps: Deps, admin: { id: string; name: string; email: string }, version: number, now: number) {
  const day = DAY;
  for (const [i, stock] of stocks.entries()) {
    await trx
      .insertInto('wise_stocks')
      .values({
        id: crypto.randomUUID(),
        wise_name: stock.name,
        wise_email: stock.email,
        wise_password_enc: await deps.secrets.encrypt(stock.password),
        wise_password_index: await deps.secrets.blindIndex(stock.password),
        auth_image: `${DEMO_AUTH_IMAGE.bucket}/${DEMO_AUTH_IMAGE.name}`,
        user_name: admin.name,
        user_email: admin.email,
        added_by: admin.id,
        status: stock.status,
        version,
        created_at: new Date(now - (20 - i) * day),
        updated_at: new Date(now - (20 - i) * day),
      })
      .execute();
  }
}

/** Orders in every order and payment state, for every customer. */
async function seedOrders(
  trx: Db,
  deps: Deps,
  customers: { id: string; name: string; email: string }[],
  serviceRows: Awaited<ReturnType<typeof seedServices>>['serviceRows'],
  version: number,
  now: number,
) {
  const day = DAY;
  // Orders spread over the last four weeks, every order and payment state, most of them the demo customer's.
  let n = 0;
  for (const [status, payment] of orderStates) {
    for (const customer of customers) {
      const service = serviceRows[n % serviceRows.length]!;
      const placed = new Date(now - ((n * 5) % 28) * day - n * 3600 * 1000);
      const delivered = status === 'delivered';
      const password = `Demo#${1000 + n}`;
      await trx
        .insertInto('orders')
        .values({
          id: crypto.randomUUID(),
          product_id: service.id,
          title: service.title,
          description: service.description,
          category: service.category,
          image: service.image,
          price: service.price,
          delivery_time: service.deliveryTime,
          user_id: customer.id,
          user_email: customer.email,
          user_name: customer.name,
          payment_status: payment,
          order_status: status,
          order_date: placed,
          wise_email: delivered ? `delivered${n}@demo-mail.test` : null,
          wise_email_index: delivered ? await deps.secrets.blindIndex(`delivered${n}@demo-mail.test`) : null,
          wise_password_enc: delivered ? await deps.secrets.encrypt(password) : null,
          wise_password_index: delivered ? await deps.secrets.blindIndex(password) : null,
          version,
          created_at: placed,
          updated_at: placed,
        })
        .execute();
      n += 1;
    }
  }
}

/**
 * Fills an empty database with a shop to try: staff and customers who can sign in, services in every
 * category, orders in every state and an inventory of accounts. Returns false when there is data already.
 */
export async function seedDemoData(
  deps: Deps,
  passwordFor: (email: string) => Promise<string>,
  apiKeyFor: () => Promise<string> = async () => (await newApiKey()).secret,
): Promise<DemoLogin[] | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    const existingAuth = await trx.selectFrom('auth_users').select('id').limit(1).executeTakeFirst();
    if (existing || existingAuth) return undefined;
    // The demo stock rows' authenticator image, kept where an uploaded stock image would be.
    await deps.blobs.put(DEMO_AUTH_IMAGE.bucket, DEMO_AUTH_IMAGE.name, demoAuthPng(), 'image/png');
    const version = await nextVersion(trx);
    const now = deps.clock().getTime();
    const people = await seedPeople(trx, passwordFor, version, now);
    const admin = people[0]!;
    const customers = people.filter((p) => p.role === 'user');
    const { serviceRows, showcaseRows } = await seedServices(trx, version, now);
    await seedSettings(trx, deps, version, now);
    await seedStocks(trx, deps, admin, version, now);
    // Orders spread over the last four weeks, every order and payment state, most of them the demo customer's.
    await seedOrders(trx, deps, customers, serviceRows, version, now);
    const showcase = {
      version,
      now,
      admin,
      customer: people.find((person) => person.email === 'customer@demo.test')!,
      serviceIds: new Map(showcaseRows.map((service) => [service.title, service.id])),
      warrantyService: serviceRows.find((service) => service.category === 'wise')!,
    };
    await seedShowcaseStock(trx, deps, showcase);
    await seedShowcaseOrders(trx, deps, showcase);
    await seedDemoTicket(trx, showcase);
    const reseller = { ...DEMO_RESELLER, password: await passwordFor(DEMO_RESELLER.email), apiKey: await apiKeyFor() };
    await seedDemoReseller(trx, { ...showcase, ...reseller, tieredServiceId: showcase.serviceIds.get('SOCKS5 Proxy Pack (5 proxies)') });
    const logins = await Promise.all(demoLogins.map(async (login) => ({ email: login.email, password: await passwordFor(login.email), role: login.role })));
    return [...logins, { email: reseller.email, password: reseller.password, role: reseller.role, apiKey: reseller.apiKey }];
  });
}

export interface DemoRemoval {
  accounts: number;
  orders: number;
  stocks: number;
  services: number;
  /** Items of the removed services' own stock (server logins, lines). */
  serviceStocks: number;
}

/**
 * `npm run demo:remove`: the demo accounts (signing in with them stops at once), their orders, the demo
 * inventory and the demo services no real customer has ordered, in one transaction. Rows are deleted as
 * every deletion is (a version, so devices drop them on their next sync); what the owner added stays.
 */
export async function removeDemoData(db: Deps['db']): Promise<DemoRemoval> {
  return db.transaction().execute(async (trx) => {
    const version = await nextVersion(trx);
    const gone = { deleted_at: writeTime(), updated_at: writeTime(), version };
    const users = await trx.selectFrom('users').select('id').where('email', 'like', '%@demo.test').where('deleted_at', 'is', null).execute();
    const ids = users.map((user) => user.id);
    const orders =
      ids.length === 0 ? [] : await trx.updateTable('orders').set(gone).where('user_id', 'in', ids).where('deleted_at', 'is', null).returning('id').execute();
    // Their support tickets too (decision 169).
    if (ids.length > 0) await trx.updateTable('tickets').set(gone).where('user_id', 'in', ids).where('deleted_at', 'is', null).execute();
    // And their API keys (the demo reseller's, decision 141).
    if (ids.length > 0)
      await trx.updateTable('api_keys').set({ revoked_at: writeTime() }).where('user_id', 'in', ids).where('revoked_at', 'is', null).execute();
    const stocks = await trx
      .updateTable('wise_stocks')
      .set(gone)
      .where('wise_email', 'like', '%@demo-mail.test')
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
    const titles = [...services, ...showcaseServices].map((service) => service.title);
    const removed = await trx
      .updateTable('services')
      .set(gone)
      .where('title', 'in', titles)
      .where('deleted_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('orders').select('orders.id').whereRef('orders.product_id', '=', 'services.id').where('orders.deleted_at', 'is', null))),
      )
      .returning('id')
      .execute();
    // The stock of the services removed goes with them (decision 072's stock is kept per service).
    const serviceIds = removed.map((service) => service.id);
    const serviceStocks =
      serviceIds.length === 0
        ? []
        : await trx.updateTable('service_stocks').set(gone).where('service_id', 'in', serviceIds).where('deleted_at', 'is', null).returning('id').execute();
    if (ids.length > 0) await trx.updateTable('users').set(gone).where('id', 'in', ids).execute();
    await trx.updateTable('coupons').set({ enabled: false, updated_at: writeTime() }).where('code', '=', DEMO_COUPON).execute();
    await trx
      .deleteFrom('auth_users')
      .where(sql<string>`lower(email)`, 'like', '%@demo.test')
      .execute();
    return { accounts: ids.length, orders: orders.length, stocks: stocks.length, services: removed.length, serviceStocks: serviceStocks.length };
  });
}

/** Whether the shop still holds the demo accounts: the dashboard then says it is a demo shop. */
export async function hasDemoAccounts(db: Deps['db']): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', 'like', '%@demo.test').where('deleted_at', 'is', null).limit(1).executeTakeFirst();
  return row !== undefined;
}
