import type { Order } from '../contract/orders.ts';
import { nextVersion } from '../db/versions.ts';
import type { ApiHarness, TestUser } from './api-harness.ts';
import type { ErrorBody } from './order-fixtures.ts';

/** The setup the coupon and pricing tests share: a plain service with a price, and an order of it. */

/** A service at `price` (a plain number, or text such as "Ask us"), paid with Binance; its id. */
export async function insertPricedService(api: ApiHarness, title: string, price: string): Promise<string> {
  const id = crypto.randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id,
        title,
        description: title,
        category: 'wise',
        features: '[]',
        price,
        delivery_time: 'instant',
        payment_methods: '["binance"]',
        version: await nextVersion(trx),
      })
      .execute();
  });
  return id;
}

/** POST /api/orders as `user`, of `productId` unless the body names another. */
export const placeOrderAs = (api: ApiHarness, user: TestUser, productId: string, json: Record<string, unknown> = {}) =>
  api.call<{ order: Order } & ErrorBody>('POST', '/api/orders', { user, json: { productId, ...json } });
