/**
 * The registry of offline mutations: for each named change, in one place, the rows it is about, its
 * optimistic effect on this device and its upload to the API (after Replicache's mutators). An outbox
 * entry stores only the name and the args, so the same entry is replayed after a reload, or retried.
 */
import { isCancellable, type Order, type OrderStatus, type PaymentStatus, type ReportReason } from '../../../edge-api/src/contract/orders.ts';
import { orderAfterChange, type OrderChange } from '../../../edge-api/src/contract/order-changes.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { StockStatus, WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import { unwrap, type ApiClient } from '../lib/api-client.ts';
import { AppError } from '../lib/app-error.ts';
import { uploadImage } from '../lib/image-upload.ts';
import { getPublicDb, type MutationName, type RowRef, type UserDb } from './local-db.ts';
import type { Ticket } from '../../../edge-api/src/contract/tickets.ts';
import { ticketMutators, type TicketMutationArgs } from './ticket-mutators.ts';

/** What each named mutation carries in its outbox entry. */
export interface MutationArgs extends TicketMutationArgs {
  placeOrder: { id: string; productId: string; note?: string; paymentMethod?: string; couponCode?: string; quantity?: number };
  /** `from`: the value the device showed; sent as the change's base, so a change to another field meanwhile is no conflict. */
  setOrderStatus: { orderId: string; orderStatus: OrderStatus; version: number; from?: OrderStatus };
  setPaymentStatus: { orderId: string; paymentStatus: PaymentStatus; version: number; from?: PaymentStatus };
  /** `replace`: a replacement of credentials already delivered (decision 063). */
  deliverOrder:
    | { orderId: string; version: number; wiseEmail: string; wisePassword: string; wiseImage?: string; replace?: true }
    | { orderId: string; version: number; stockId: string; replace?: true }
    /** An item of the order's service's own stock (decision 072); the item itself changes on the server only. */
    | { orderId: string; version: number; serviceStockId: string; replace?: true }
    /** A server login, lines or an uploaded file (decision 069); `overrideDuplicates` after the server's duplicate warning. */
    | ({ orderId: string; version: number; replace?: true; overrideDuplicates?: true } & OtherDelivery);
  /** The customer's problem report; a screenshot waits in the outbox as a Blob and is uploaded when the report is sent. */
  reportProblem: { orderId: string; reason: ReportReason; note: string; screenshot?: Blob; screenshotName?: string };
  declineReport: { orderId: string; message: string };
  setStockStatus: { stockId: string; status: StockStatus; soldTo?: string | null; notes?: string; version: number };
  /** The customer cancels their own pending, unpaid order. */
  cancelOrder: { orderId: string };
  /**
   * A transaction id and/or a screenshot, kept in the outbox as the picture's bytes until it is uploaded
   * (bytes rather than a Blob: every browser's IndexedDB keeps an ArrayBuffer).
   */
  sendPaymentProof: { orderId: string; transactionId?: string; screenshot?: { bytes: ArrayBuffer; type: string } };
  /** The customer showed the delivered password (decision 066): when, and on which device; sent later when offline. */
  logReveal: { orderId: string; deviceId: string; deviceLabel: string; revealedAt: string };
}

/** A delivery of another kind than an account, as PUT /api/admin/orders/{id} takes it (decision 069). */
export type OtherDelivery =
  { server: { host: string; port: number; user: string; password: string } } | { lines: string[] } | { file: { path: string; name: string; size?: number } };

/** The order as staff will see it once the server takes the delivery: what may be shown, never the secret. */
function withOtherDelivery(order: Order, delivery: OtherDelivery): Order {
  const {
    wiseEmail: _email,
    wisePassword: _password,
    wiseImage: _image,
    stockId: _stock,
    serverHost: _host,
    serverPort: _port,
    serverUser: _user,
    serverPassword: _serverPassword,
    deliveryLines: _lines,
    deliveryLineCount: _count,
    deliveryFile: _file,
    ...rest
  } = order;
  if ('server' in delivery) {
    const { host, port, user } = delivery.server;
    return { ...rest, deliveryKind: 'server', serverHost: host, serverPort: port, serverUser: user };
  }
  // Lines typed while the device's vault is on wait sealed in the outbox (decision 068): their count comes with the sync.
  if ('lines' in delivery) return { ...rest, deliveryKind: 'lines', ...(Array.isArray(delivery.lines) ? { deliveryLineCount: delivery.lines.length } : {}) };
  return { ...rest, deliveryKind: 'file', deliveryFile: { name: delivery.file.name, size: delivery.file.size ?? 0 } };
}

/** What an effect needs from outside the user's database (one transaction cannot span two databases). */
export interface MutationContext {
  userId: string;
  service?: Service;
}

/** A row as the optimistic effect leaves it; null removes it. */
export interface RowChange {
  ref: RowRef;
  row: Order | WiseStock | Ticket | null;
}

/** The row as the server has it once it took the change. */
export interface ServerRow {
  ref: RowRef;
  row: Order | WiseStock | Ticket;
}

export interface Mutator<Args> {
  /** The rows the change is about, its target first. */
  rows(args: Args): RowRef[];
  /** What the effect needs read before its transaction, outside the user's database. */
  prepare?(args: Args): Promise<Omit<MutationContext, 'userId'>>;
  /** The optimistic effect, from the rows as they are now: when the change is made, and again on a retry. */
  apply(db: UserDb, args: Args, context: MutationContext): Promise<RowChange[]>;
  /** The same change sent to the API under its idempotency key; answers the server's row. */
  upload(client: ApiClient, args: Args, idempotencyKey: string): Promise<ServerRow>;
}

const now = () => new Date().toISOString();

/** The order as the server will answer once it takes `change` (decision 249), on the device's clock. */
const changed = (order: Order, change: OrderChange): Order => orderAfterChange(order, change, { now: new Date() });

async function orderOnDevice(db: UserDb, id: string): Promise<Order> {
  const order = await db.orders.get(id);
  if (!order) throw new AppError('not_on_device', 'Order not found');
  return order;
}

/** PUT /api/admin/orders/{id}: statuses and deliveries go the same way. */
async function putOrder(
  client: ApiClient,
  orderId: string,
  json: Parameters<ApiClient['admin']['orders'][':id']['$put']>[0]['json'],
  key: string,
): Promise<ServerRow> {
  const answer = await unwrap(client.admin.orders[':id'].$put({ param: { id: orderId }, header: { 'idempotency-key': key }, json }));
  return { ref: { table: 'orders', id: orderId }, row: answer };
}

export const mutators: { [N in MutationName]: Mutator<MutationArgs[N]> } = {
  placeOrder: {
    rows: (args) => [{ table: 'orders', id: args.id }],
    prepare: async (args) => ({ service: await getPublicDb().services.get(args.productId) }),
    async apply(db, args, { userId, service }) {
      if (await db.orders.get(args.id)) return [];
      if (!service) throw new AppError('not_on_device', 'Service not found');
      const me = await db.users.get(userId);
      const at = now();
      const order: Order = {
        id: args.id,
        productId: service.id,
        title: service.title,
        description: service.description,
        category: service.category,
        image: service.image,
        price: service.price,
        deliveryTime: service.deliveryTime,
        userId,
        userEmail: me?.email ?? '',
        userName: me?.displayName ?? '',
        paymentStatus: 'pending',
        orderStatus: 'pending',
        ...(args.note ? { note: args.note } : {}),
        ...(args.paymentMethod ? { paymentMethod: args.paymentMethod } : {}),
        orderDate: at,
        createdAt: at,
        updatedAt: at,
        version: 0,
      };
      return [{ ref: { table: 'orders', id: args.id }, row: order }];
    },
    async upload(client, args, key) {
      const json = {
        id: args.id,
        productId: args.productId,
        ...(args.note ? { note: args.note } : {}),
        ...(args.paymentMethod ? { paymentMethod: args.paymentMethod } : {}),
        ...(args.couponCode ? { couponCode: args.couponCode } : {}),
        ...(args.quantity && args.quantity > 1 ? { quantity: args.quantity } : {}),
      };
      const answer = await unwrap(client.orders.$post({ json }, { headers: { 'Idempotency-Key': key } }));
      return { ref: { table: 'orders', id: args.id }, row: answer.order };
    },
  },

  setOrderStatus: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, { kind: 'setOrderStatus', orderStatus: args.orderStatus }) }];
    },
    // With the value it was made from (decision 043) the server merges by field; entries queued before
    // that carry only the version.
    upload: (client, args, key) =>
      putOrder(
        client,
        args.orderId,
        args.from ? { orderStatus: args.orderStatus, base: { orderStatus: args.from } } : { orderStatus: args.orderStatus, version: args.version },
        key,
      ),
  },

  setPaymentStatus: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, { kind: 'setPaymentStatus', paymentStatus: args.paymentStatus }) }];
    },
    upload: (client, args, key) =>
      putOrder(
        client,
        args.orderId,
        args.from ? { paymentStatus: args.paymentStatus, base: { paymentStatus: args.from } } : { paymentStatus: args.paymentStatus, version: args.version },
        key,
      ),
  },

  deliverOrder: {
    // A delivery from stock also sells the stock.
    rows: (args) => [{ table: 'orders', id: args.orderId }, ...('stockId' in args ? [{ table: 'wiseStocks' as const, id: args.stockId }] : [])],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      const delivered = changed(order, { kind: 'deliver' });
      const at = delivered.updatedAt;
      if ('stockId' in args) {
        const stock = await db.wiseStocks.get(args.stockId);
        // Gone from the device or sold meanwhile: the same to the person delivering as the server's refusal.
        if (!stock) throw new AppError('stock_unavailable', 'Wise stock not found');
        if (stock.status !== 'available') throw new AppError('stock_unavailable', 'This Wise stock is no longer available');
        return [
          { ref: { table: 'orders', id: order.id }, row: { ...delivered, wiseEmail: stock.wiseEmail, wisePassword: stock.wisePassword, stockId: stock.id } },
          { ref: { table: 'wiseStocks', id: stock.id }, row: { ...stock, status: 'sold', soldTo: order.userId, orderId: order.id, updatedAt: at } },
        ];
      }
      if ('serviceStockId' in args) {
        const item = await db.serviceStocks.get(args.serviceStockId);
        if (!item || item.status !== 'available') throw new AppError('stock_unavailable', 'This stock item is no longer available');
        const shown: Order =
          item.kind === 'account'
            ? { ...delivered, wiseEmail: item.email, serviceStockId: item.id }
            : item.kind === 'server'
              ? {
                  ...withOtherDelivery(delivered, { server: { host: item.host ?? '', port: item.port ?? 0, user: item.user ?? '', password: '' } }),
                  serviceStockId: item.id,
                }
              : { ...withOtherDelivery(delivered, { lines: [] }), deliveryLineCount: item.lineCount, serviceStockId: item.id };
        return [{ ref: { table: 'orders', id: order.id }, row: shown }];
      }
      if ('server' in args || 'lines' in args || 'file' in args) return [{ ref: { table: 'orders', id: order.id }, row: withOtherDelivery(delivered, args) }];
      // An uploaded proof is a storage path until the server answers with a URL the browser can load.
      return [{ ref: { table: 'orders', id: order.id }, row: { ...delivered, wiseEmail: args.wiseEmail, wisePassword: args.wisePassword } }];
    },
    upload: (client, { orderId, ...rest }, key) => putOrder(client, orderId, { paymentStatus: 'paid', orderStatus: 'delivered', ...rest }, key),
  },

  cancelOrder: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      if (order.orderStatus === 'cancelled') return [];
      if (!isCancellable(order)) throw new AppError('conflict', 'This order can no longer be cancelled');
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, { kind: 'cancel' }) }];
    },
    async upload(client, args) {
      const answer = await unwrap(client.orders[':id'].cancel.$post({ param: { id: args.orderId } }));
      return { ref: { table: 'orders', id: args.orderId }, row: answer };
    },
  },

  sendPaymentProof: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, { kind: 'sendPaymentProof', transactionId: args.transactionId }) }];
    },
    // The picture goes up first; a retry uploads it again (the first copy is then never referenced).
    async upload(client, args, key) {
      const screenshot = args.screenshot ? await uploadScreenshot(client, args.screenshot) : undefined;
      const json = { ...(args.transactionId ? { transactionId: args.transactionId } : {}), ...(screenshot ? { screenshot } : {}) };
      const answer = await unwrap(client.orders[':id']['payment-proof'].$put({ param: { id: args.orderId }, json }, { headers: { 'Idempotency-Key': key } }));
      return { ref: { table: 'orders', id: args.orderId }, row: answer };
    },
  },

  logReveal: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      const change = { kind: 'logReveal' as const, revealedAt: args.revealedAt, deviceLabel: args.deviceLabel };
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, change) }];
    },
    async upload(client, { orderId, ...json }, key) {
      const answer = await unwrap(client.orders[':id'].reveals.$post({ param: { id: orderId }, header: { 'idempotency-key': key }, json }));
      return { ref: { table: 'orders', id: orderId }, row: answer };
    },
  },

  reportProblem: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, { kind: 'reportProblem', reason: args.reason, note: args.note }) }];
    },
    async upload(client, { orderId, reason, note, screenshot, screenshotName }, key) {
      // Uploaded again on a retry: an unused file costs less than a report without its screenshot.
      const image = screenshot
        ? (await uploadImage(new File([screenshot], screenshotName ?? 'screenshot.png', { type: screenshot.type }), 'report')).path
        : undefined;
      const answer = await unwrap(
        client.orders[':id'].report.$post({ param: { id: orderId }, header: { 'idempotency-key': key }, json: { reason, note, ...(image ? { image } : {}) } }),
      );
      return { ref: { table: 'orders', id: orderId }, row: answer };
    },
  },

  declineReport: {
    rows: (args) => [{ table: 'orders', id: args.orderId }],
    async apply(db, args) {
      const order = await orderOnDevice(db, args.orderId);
      if (!order.report) throw new AppError('not_on_device', 'This order has no problem report');
      return [{ ref: { table: 'orders', id: order.id }, row: changed(order, { kind: 'declineReport', message: args.message }) }];
    },
    async upload(client, { orderId, message }, key) {
      const answer = await unwrap(
        client.admin.orders[':id'].report.decline.$post({ param: { id: orderId }, header: { 'idempotency-key': key }, json: { message } }),
      );
      return { ref: { table: 'orders', id: orderId }, row: answer };
    },
  },

  setStockStatus: {
    rows: (args) => [{ table: 'wiseStocks', id: args.stockId }],
    async apply(db, args) {
      const stock = await db.wiseStocks.get(args.stockId);
      if (!stock) throw new AppError('not_on_device', 'Wise stock not found');
      const row: WiseStock = {
        ...stock,
        status: args.status,
        soldTo: args.status === 'sold' ? (args.soldTo ?? null) : null,
        notes: args.notes ?? stock.notes,
        updatedAt: now(),
      };
      return [{ ref: { table: 'wiseStocks', id: stock.id }, row }];
    },
    async upload(client, { stockId, ...json }, key) {
      const answer = await unwrap(client['wise-stocks'][':id'].$put({ param: { id: stockId }, json }, { headers: { 'Idempotency-Key': key } }));
      return { ref: { table: 'wiseStocks', id: stockId }, row: answer.stock };
    },
  },

  // Support tickets (decision 170).
  ...ticketMutators,
};

/** POST /api/uploads of a customer's payment screenshot; the route reads its form itself, so it is untyped here. */
async function uploadScreenshot(client: ApiClient, screenshot: { bytes: ArrayBuffer; type: string }): Promise<string> {
  const post = client.uploads.$post as unknown as (args: { form: Record<string, string | Blob> }) => Promise<Response>;
  const file = new File([screenshot.bytes], 'payment', { type: screenshot.type });
  const answer = await unwrap<{ path: string }>(post({ form: { kind: 'payment', file } }));
  return answer.path;
}

/** The mutator of a stored entry (its args were checked when it was queued). */
export const mutatorOf = (name: MutationName) => mutators[name] as Mutator<unknown>;
