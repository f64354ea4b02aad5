import { sql } from 'kysely';
import { percentile } from './load.ts';
import type { createApiHarness } from '../edge-api/src/testing/api-harness.ts';
import { paymentStandInClient, startPaymentStandIns } from '../edge-api/src/testing/payment-stand-ins.ts';
import { paymentRound, startPaymentJobs } from '../edge-api/src/payments/round.ts';

type Harness = Awaited<ReturnType<typeof createApiHarness>>;
type Note = (budget: string, measured: string, baseline: string, ok: boolean) => void;
type Figure = (label: string, measured: string, baseline: string) => void;

const SHOP = 'TShopWa11etStandin1nTestsXYZabcdef';

/**
 * Issue 26 (DESIGN section 9, payments): from a confirmed USDT transfer to a delivered order with 100
 * orders paid at once, through the Node entry's own payment jobs (the USDT watch every 3 s) against the
 * TronGrid stand-in; and what one reconciliation round costs with 1,000 orders waiting on each of USDT and
 * Binance Pay (requests to each rail, time).
 */
export async function paymentsBench(harness: Harness, note: Note, figure: Figure): Promise<void> {
  if (harness.mode !== 'in-process') throw new Error('the payments bench runs the API in this process');
  const started = await startPaymentStandIns();
  const rails = paymentStandInClient(started.url);
  const { deps, db } = harness;
  deps.config.payments = {
    tronApiUrl: rails.tronApiUrl,
    binancePayApiUrl: rails.binancePayApiUrl,
    bkashApiUrl: rails.bkashApiUrl,
    siteUrl: 'http://shop.bench',
  };
  const admin = await harness.createUser('admin');
  const customer = await harness.createUser('user');
  await harness.call('PUT', '/api/admin/payments/usdt_trc20', { user: admin, json: { enabled: true, settings: { address: SHOP } } });
  await harness.call('PUT', '/api/admin/payments/binance_pay', { user: admin, json: { enabled: true, secrets: rails.binanceAccount } });
  const serviceId = crypto.randomUUID();
  await sql`insert into services (id, title, description, category, price, delivery_time, auto_deliver, version) values (${serviceId}, 'Bench Wise', 'x', 'wise', '$30 USD', 'instant', true, 1)`.execute(
    db,
  );
  await sql`
    insert into wise_stocks (id, wise_name, wise_email, wise_password_enc, wise_password_index, auth_image, user_name, added_by, version)
    select gen_random_uuid(), 'Bench ' || n, 'bench' || n || '@pay.test', 'sealed', md5('pay' || n), '', 'Bench', ${admin.id}::uuid, 1 from generate_series(1, 100) as n`.execute(
    db,
  );
  const waiting = async (count: number, rail: 'usdt_trc20' | 'binance_pay') => {
    const ids = Array.from({ length: count }, () => crypto.randomUUID());
    await sql`
      insert into orders (id, product_id, title, price, user_id, user_email, version)
      select id, ${serviceId}::uuid, 'Bench Wise', '$30 USD', ${customer.id}::uuid, ${customer.email}, 1 from unnest(${ids}::uuid[]) as id`.execute(db);
    const payments: { id: string; amount: string }[] = [];
    for (const id of ids) {
      const answer = await harness.call<{ payment: { amount: string } }>('POST', `/api/orders/${id}/payment`, { user: customer, json: { rail } });
      if (answer.status !== 200) throw new Error(`starting a payment answered ${answer.status}`);
      payments.push({ id, amount: answer.body.payment.amount });
    }
    return payments;
  };

  // 100 orders paid at once: the transfers are confirmed together, the Node jobs do the rest.
  const paid = await waiting(100, 'usdt_trc20');
  const jobs = startPaymentJobs(deps);
  const confirmedAt = Date.now();
  await Promise.all(paid.map((p) => rails.transfer({ to: SHOP, amount: p.amount, at: confirmedAt })));
  const deadline = Date.now() + 120_000;
  let delivered: { delivered_at: Date }[] = [];
  while (Date.now() < deadline) {
    delivered = (await db
      .selectFrom('orders')
      .select('delivered_at')
      .where(
        'id',
        'in',
        paid.map((p) => p.id),
      )
      .where('delivered_at', 'is not', null)
      .execute()) as { delivered_at: Date }[];
    if (delivered.length === paid.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await jobs.stop();
  const latencies = delivered.map((row) => new Date(row.delivered_at).getTime() - confirmedAt).sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  note(
    'Payments: confirmed to delivered, 100 orders paid at once, p99 under 5 s',
    `${delivered.length}/100 delivered, p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms`,
    'Node payment jobs, USDT watch every 3 s, TronGrid stand-in',
    delivered.length === 100 && p99 < 5_000,
  );

  // One round with 1,000 orders waiting on USDT and 1,000 on Binance Pay.
  await waiting(1_000, 'usdt_trc20');
  await waiting(1_000, 'binance_pay');
  const before = await rails.requests();
  const start = performance.now();
  await paymentRound(deps);
  const ms = performance.now() - start;
  const after = await rails.requests();
  figure(
    'Payments: one reconciliation round per 1,000 waiting orders',
    `USDT ${after.tron - before.tron} TronGrid request(s); Binance Pay ${after.binance - before.binance} queries; ${(ms / 2).toFixed(0)} ms per 1,000 (${ms.toFixed(0)} ms for 2,000)`,
    'stand-ins on this machine',
  );
  await started.close();
}
