/**
 * The parts of the demo shop that show what the README leads with (issue 33 item 7): payment instructions
 * with a QR picture, a service of each delivery kind with stock where the kind keeps stock, an order whose
 * payment proof waits for staff's check, and a delivered order with a warranty report open. Written in the
 * seed's transaction, so they exist exactly when the rest of the demo does.
 */
import type { Transaction } from 'kysely';
import { encodeQR } from 'qr';
import type { PaymentInstructions } from '../contract/settings.ts';
import type { ServiceFields } from '../contract/services.ts';
import type { Database } from '../db/schema.ts';
import { insertServiceStocks } from '../db/service-stocks.ts';
import type { Deps } from '../deps.ts';
import type { OrderChange } from '../operations/deliver.ts';
import { sealOtherDelivery } from '../operations/other-deliveries.ts';
import { notifyPaymentCheck, notifyProblemReport } from '../operations/staff-notices.ts';
import { reportReasonLabels } from '../contract/orders.ts';
import { demoImage } from './demo-images.ts';

/**
 * The services that deliver a server login and a list of lines, each from stock of its own, by themselves,
 * and one that delivers a file staff upload for each order (a file is never kept in stock). The Wise
 * services deliver accounts from the Wise stock.
 */
export const showcaseServices: ServiceFields[] = [
  {
    title: 'Linux VPS Login (ready now)',
    description: 'A ready Linux server: host, port, user and password delivered as soon as your payment is confirmed.',
    category: 'vps',
    features: ['Ubuntu 24.04', '1 vCPU, 2 GB RAM', 'Root access'],
    popular: false,
    image: demoImage('vps'),
    price: '12',
    deliveryTime: 'instant',
    paymentMethods: ['binance', 'bkash', 'nagad'],
    deliveryKind: 'server',
    autoDeliver: true,
    warrantyDays: 3,
  },
  {
    title: 'SOCKS5 Proxy Pack (5 proxies)',
    description: 'Five private SOCKS5 proxies, one per line as host:port:user:password, delivered at once.',
    category: 'vps',
    features: ['5 proxies', 'SOCKS5 and HTTP', '30 days'],
    popular: false,
    image: demoImage('rdp-vps'),
    price: '8',
    deliveryTime: 'instant',
    paymentMethods: ['binance', 'bkash'],
    deliveryKind: 'lines',
    autoDeliver: true,
  },
  {
    title: 'Editable Invoice Template (PDF)',
    description: 'An invoice template made out to your company, delivered as a PDF file you download from My Orders.',
    category: 'editableFile',
    features: ['PDF and DOCX', 'Your logo and details'],
    popular: false,
    image: demoImage('editable-file'),
    price: '6',
    deliveryTime: '3hours',
    paymentMethods: ['bkash', 'nagad', 'binance'],
    deliveryKind: 'file',
  },
];

/** Where the demo's QR pictures are kept: public, as a QR picture an admin uploads is. */
const qrPicture = (method: string) => ({ bucket: 'service-images', name: `demo-qr-${method}.gif` }) as const;

/** The payment instructions of the demo shop, each QR picture made and stored here (a real, scannable code). */
export async function demoPaymentInstructions(deps: Pick<Deps, 'blobs'>): Promise<PaymentInstructions[]> {
  const methods = [
    {
      method: 'bkash',
      address: '01711000111',
      accountName: 'Demo Digital Services',
      instructions: 'Open bKash, choose Send Money, send the order total to this number, then send the transaction id below.',
    },
    {
      method: 'binance',
      address: '412345678',
      accountName: 'demo-shop',
      instructions: 'Pay with Binance Pay to this Pay ID (USDT), then send the transaction id or a screenshot below.',
    },
    {
      method: 'nagad',
      address: '01811000222',
      accountName: 'Demo Digital Services',
      instructions: 'Use Send Money in the Nagad app, then send the transaction id below.',
    },
  ];
  return Promise.all(
    methods.map(async (entry) => {
      const { bucket, name } = qrPicture(entry.method);
      await deps.blobs.put(bucket, name, encodeQR(`${entry.method}:${entry.address}`, 'gif', { scale: 6, border: 2 }), 'image/gif');
      return { ...entry, qrImage: await deps.blobs.url(bucket, name) };
    }),
  );
}

interface ShowcaseContext {
  version: number;
  now: number;
  admin: { id: string };
  customer: { id: string; email: string; name: string };
  /** The showcase services as inserted, by title. */
  serviceIds: Map<string, string>;
  /** A service that delivers an account with a warranty (a Wise one), for the reported order. */
  warrantyService: { id: string; title: string; description: string; category: string; image: string; price: string; deliveryTime: string };
}

/** Stock for the server-login and lines services: three logins, four packs of five proxies. */
export async function seedShowcaseStock(trx: Transaction<Database>, deps: Deps, context: ShowcaseContext): Promise<void> {
  const serverId = context.serviceIds.get(showcaseServices[0]!.title)!;
  const linesId = context.serviceIds.get(showcaseServices[1]!.title)!;
  const changes: { serviceId: string; kind: 'server' | 'lines'; change: OrderChange }[] = [];
  for (let i = 1; i <= 3; i++) {
    changes.push({
      serviceId: serverId,
      kind: 'server',
      change: { server: { host: `vps${i}.demo-host.test`, port: 22, user: 'root', password: `Vps#Demo${2026 + i}` } } as OrderChange,
    });
  }
  for (let pack = 1; pack <= 4; pack++) {
    const lines = Array.from({ length: 5 }, (_, i) => `10.${pack}.0.${i + 1}:1080:demo${pack}${i}:Px#${pack}${i}2026`);
    changes.push({ serviceId: linesId, kind: 'lines', change: { lines } as OrderChange });
  }
  const items = [];
  for (const { serviceId, kind, change } of changes) {
    const sealed = (await sealOtherDelivery(deps, change))!;
    items.push({
      id: crypto.randomUUID(),
      serviceId,
      kind,
      details: JSON.parse(sealed.columns.delivery_details as string),
      email: null,
      secretEnc: sealed.columns.delivery_secret_enc as string,
      secretIndexes: sealed.indexes,
      notes: 'Demo stock',
      addedBy: context.admin.id,
    });
  }
  await insertServiceStocks(trx, items, context.version);
}

/** An unpaid order whose transaction id waits for staff's check, and a delivered one with a report open, each with its staff notice. */
export async function seedShowcaseOrders(trx: Transaction<Database>, deps: Deps, context: ShowcaseContext): Promise<void> {
  const { version, now, customer, warrantyService: service } = context;
  const hour = 3600 * 1000;
  const base = {
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
    version,
  };
  const proofAt = new Date(now - hour);
  const waiting = await trx
    .insertInto('orders')
    .values({
      ...base,
      id: crypto.randomUUID(),
      payment_status: 'pending',
      order_status: 'pending',
      payment_method: 'bkash',
      order_date: new Date(now - 2 * hour),
      payment_reference: 'DEMO8K2X7Q',
      proof_at: proofAt,
      proof_reuse: JSON.stringify({ transactionId: [], screenshot: [] }),
      created_at: new Date(now - 2 * hour),
      updated_at: proofAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await notifyPaymentCheck(trx, version, waiting);

  const deliveredAt = new Date(now - 2 * 24 * hour);
  const email = 'warranty.wise@demo-mail.test';
  const password = 'Wise#Warranty2026';
  const reported = await trx
    .insertInto('orders')
    .values({
      ...base,
      id: crypto.randomUUID(),
      payment_status: 'paid',
      order_status: 'delivered',
      payment_method: 'binance',
      order_date: new Date(deliveredAt.getTime() - hour),
      wise_email: email,
      wise_email_index: await deps.secrets.blindIndex(email),
      wise_password_enc: await deps.secrets.encrypt(password),
      wise_password_index: await deps.secrets.blindIndex(password),
      delivered_at: deliveredAt,
      warranty_ends_at: new Date(deliveredAt.getTime() + 7 * 24 * hour),
      report_status: 'open',
      report_reason: 'login_fails',
      report_note: 'The account asks for a code sent to a phone I do not have.',
      reported_at: new Date(now - 3 * hour),
      created_at: new Date(deliveredAt.getTime() - hour),
      updated_at: new Date(now - 3 * hour),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await notifyProblemReport(trx, version, reported, reportReasonLabels.login_fails);
}
