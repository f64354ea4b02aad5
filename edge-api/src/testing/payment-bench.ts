import { afterAll, beforeAll, expect } from 'vitest';
import type { Order } from '../contract/orders.ts';
import { nextVersion } from '../db/versions.ts';
import { orderTestBench, type OrderTestBench } from './order-fixtures.ts';
import { paymentStandInClient, startPaymentStandIns, type PaymentStandInClient } from './payment-stand-ins.ts';

/** The shop's TRON address in the tests: any well-formed one (the stand-in keeps its own chain). */
export const SHOP_TRON_ADDRESS = 'TShopWa11etStandin1nTestsXYZabcdef';

export interface PaymentTestBench extends OrderTestBench {
  rails: PaymentStandInClient;
  /** A service that delivers a Wise account by itself once paid, priced "$30 USD". */
  autoServiceId: string;
}

/**
 * The order test bench with the three rails' stand-ins, each rail switched on by the admin through
 * Settings → Payments as an owner would, and a service that delivers by itself. Against a running entry
 * (the Workers suite) the stand-ins it was started with are used (TEST_PAYMENT_STAND_INS_URL).
 */
export function paymentTestBench(): PaymentTestBench {
  const bench = orderTestBench() as PaymentTestBench;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    let url = process.env.TEST_PAYMENT_STAND_INS_URL;
    if (!url) {
      const started = await startPaymentStandIns();
      close = started.close;
      url = started.url;
    }
    bench.rails = paymentStandInClient(url);
    if (bench.api.mode === 'in-process') {
      bench.api.deps.config.payments = {
        tronApiUrl: bench.rails.tronApiUrl,
        binancePayApiUrl: bench.rails.binancePayApiUrl,
        bkashApiUrl: bench.rails.bkashApiUrl,
        siteUrl: 'http://shop.test',
      };
    }
    const admin = bench.admin;
    const on = async (rail: string, json: unknown) =>
      expect((await bench.api.call('PUT', `/api/admin/payments/${rail}`, { user: admin, json })).status).toBe(200);
    await on('usdt_trc20', { enabled: true, settings: { address: SHOP_TRON_ADDRESS, contract: bench.rails.usdtContract } });
    await on('binance_pay', { enabled: true, secrets: bench.rails.binanceAccount });
    await on('bkash', { enabled: true, secrets: bench.rails.bkashAccount });
    expect((await bench.api.call('PUT', '/api/admin/payments', { user: admin, json: { expiryMinutes: 30, bdtPerUsd: '120.50' } })).status).toBe(200);
    bench.autoServiceId = crypto.randomUUID();
    await bench.api.db.transaction().execute(async (trx) =>
      trx
        .insertInto('services')
        .values({
          id: bench.autoServiceId,
          title: 'Wise Instant',
          description: 'Delivered as soon as it is paid',
          category: 'wise',
          features: '[]',
          popular: false,
          image: '',
          price: '$30 USD',
          delivery_time: 'instant',
          payment_methods: '["usdt","binance","bkash"]',
          auto_deliver: true,
          version: await nextVersion(trx),
        })
        .execute(),
    );
  });
  afterAll(async () => close?.());
  return bench;
}

/** Places an order of the bench's self-delivering service as the customer, and starts paying it on `rail`. */
export async function orderAndPay(bench: PaymentTestBench, rail: 'usdt_trc20' | 'binance_pay' | 'bkash', user = bench.customer): Promise<Order> {
  const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user, json: { productId: bench.autoServiceId } });
  expect(placed.status).toBe(201);
  const started = await bench.api.call<Order>('POST', `/api/orders/${placed.body.order.id}/payment`, { user, json: { rail } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body;
}
