import { afterAll, beforeAll, expect } from 'vitest';
import type { Order, OrderStatus, PaymentStatus } from '../contract/orders.ts';
import type { StockStatus } from '../contract/wise-stocks.ts';
import { nextVersion } from '../db/versions.ts';
import { createApiHarness, type ApiHarness, type TestUser } from './api-harness.ts';

/** An error answer as the tests read it. */
export interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

/** The fields a 400 names. */
export const errorPaths = (body: ErrorBody) => body.error.details?.map((d) => d.path) ?? [];

export const random = () => crypto.randomUUID().slice(0, 8);

export interface OrderSeed {
  user: { id: string; email: string; name: string };
  title?: string;
  price?: string;
  paymentStatus?: PaymentStatus;
  orderStatus?: OrderStatus;
  createdAt?: Date;
  deleted?: boolean;
}

/**
 * Orders, stocks and deliveries for the order tests, on the real API: one service to order, orders
 * placed through POST /api/orders or written straight into the database when a test controls their
 * contents and dates, and typed deliveries by the moderator. Every password delivered or stocked is
 * remembered in `passwordsUsed`, so a test can prove none of them is ever stored in plain text.
 */
export async function createOrderFixtures(api: ApiHarness, people: { admin: TestUser; moderator: TestUser; customer: TestUser }) {
  const { admin, moderator, customer } = people;
  const passwordsUsed: string[] = [];
  const serviceId = crypto.randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id: serviceId,
        title: 'Wise Personal Account',
        description: 'Verified',
        category: 'wise',
        features: '[]',
        popular: true,
        image: '',
        price: '$30 USD',
        delivery_time: '1hour',
        payment_methods: '[]',
        version: await nextVersion(trx),
      })
      .execute();
  });

  /** An order written straight into the database, for lists whose contents and dates the test controls. */
  async function seedOrder(seed: OrderSeed) {
    const id = crypto.randomUUID();
    const at = seed.createdAt ?? new Date();
    await api.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('orders')
        .values({
          id,
          product_id: serviceId,
          title: seed.title ?? 'Wise Personal Account',
          description: '',
          category: 'wise',
          image: '',
          price: seed.price ?? '$30 USD',
          delivery_time: '1hour',
          user_id: seed.user.id,
          user_email: seed.user.email,
          user_name: seed.user.name,
          payment_status: seed.paymentStatus ?? 'pending',
          order_status: seed.orderStatus ?? 'pending',
          order_date: at,
          created_at: at,
          updated_at: at,
          deleted_at: seed.deleted ? new Date() : null,
          version: await nextVersion(trx),
        })
        .execute();
    });
    return id;
  }

  async function placeOrder(user: TestUser = customer) {
    const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user, json: { productId: serviceId } });
    expect(placed.status).toBe(201);
    return placed.body.order.id;
  }

  async function seedStock(email: string, password: string, status: StockStatus = 'available') {
    passwordsUsed.push(password);
    const id = crypto.randomUUID();
    await api.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('wise_stocks')
        .values({
          id,
          wise_name: 'Karim Stock',
          wise_email: email,
          wise_password_enc: await api.deps.secrets.encrypt(password),
          wise_password_index: await api.deps.secrets.blindIndex(password),
          auth_image: 'stock-images/auth-1.png',
          doc_img1: '',
          doc_img2: '',
          user_name: 'Demo Admin',
          user_email: admin.email,
          added_by: admin.id,
          service_name: 'WiseStock',
          status,
          sold_to: null,
          order_id: null,
          notes: '',
          version: await nextVersion(trx),
        })
        .execute();
    });
    return id;
  }

  function deliverTyped(orderId: string, wiseEmail: string, wisePassword: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
    passwordsUsed.push(wisePassword);
    return api.call<Order & ErrorBody>('PUT', `/api/admin/orders/${orderId}`, {
      user: moderator,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail, wisePassword, ...extra },
      headers,
    });
  }

  return {
    serviceId,
    passwordsUsed,
    seedOrder,
    placeOrder,
    seedStock,
    deliverTyped,
    orderRow: (id: string) => api.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    stockRow: (id: string) => api.db.selectFrom('wise_stocks').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    auditRows: (entityId: string) => api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', entityId).execute(),
  };
}

export type OrderFixtures = Awaited<ReturnType<typeof createOrderFixtures>>;

export interface OrderTestBench {
  api: ApiHarness;
  admin: TestUser;
  moderator: TestUser;
  customer: TestUser;
  orders: OrderFixtures;
}

/** A test file's API, an admin, a moderator, a customer and the order fixtures; filled by the file's beforeAll. */
export function orderTestBench(): OrderTestBench {
  const bench = {} as OrderTestBench;
  beforeAll(async () => {
    bench.api = await createApiHarness();
    [bench.admin, bench.moderator, bench.customer] = await Promise.all([
      bench.api.createUser('admin'),
      bench.api.createUser('moderator'),
      bench.api.createUser('user'),
    ]);
    bench.orders = await createOrderFixtures(bench.api, bench);
  });
  afterAll(() => bench.api.close());
  return bench;
}
