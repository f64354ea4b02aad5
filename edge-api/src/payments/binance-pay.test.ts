import { describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { PaymentEventView } from '../contract/payments.ts';
import { orderAndPay, paymentTestBench } from '../testing/payment-bench.ts';
import type { SignedWebhook } from '../testing/payment-stand-ins.ts';

// Issue 26: Binance Pay's merchant API, its webhook verified with Binance's certificate. The stand-in
// signs notifications as Binance documents; the tests replay, reorder, forge and lose them.

const bench = paymentTestBench();
const send = (hook: SignedWebhook, body = hook.body, headers = hook.headers) =>
  bench.api.call<{ returnCode?: string; error?: { code: string } }>('POST', new URL(hook.url).pathname, { body, headers });
const asStaff = async (order: Order) => (await bench.api.call<Order>('GET', `/api/admin/orders/${order.id}`, { user: bench.moderator })).body;
const events = async (order: Order) =>
  (await bench.api.call<PaymentEventView[]>('GET', `/api/orders/${order.id}/payment-events`, { user: bench.moderator })).body;
const prepayOf = async (order: Order) =>
  (await bench.api.db.selectFrom('payment_intents').select('reference').where('order_id', '=', order.id).executeTakeFirstOrThrow()).reference!;
const footprint = async (order: Order) => ({
  order: await bench.api.db
    .selectFrom('orders')
    .select(['version', 'payment_status', 'order_status', 'wise_email'])
    .where('id', '=', order.id)
    .executeTakeFirstOrThrow(),
  events: Number(
    (
      await bench.api.db
        .selectFrom('payment_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

describe('a Binance Pay payment', () => {
  it('creates a Binance Pay order for the amount due and shows its checkout', async () => {
    const order = await orderAndPay(bench, 'binance_pay');
    expect(order.payment).toMatchObject({ rail: 'binance_pay', state: 'waiting', currency: 'USDT', amount: '30.000000' });
    expect(order.payment!.payUrl).toMatch(/\/binance\/checkout\/\d{19}$/);
  });

  it('delivers once when its webhook is replayed ten times and out of order', async () => {
    await bench.orders.seedStock(`binance-${crypto.randomUUID().slice(0, 6)}@wise.test`, `pw-${crypto.randomUUID().slice(0, 8)}`);
    const order = await orderAndPay(bench, 'binance_pay');
    const prepayId = await prepayOf(order);
    const closed = await bench.rails.binanceClosed(prepayId);
    const paid = await bench.rails.binancePay(prepayId);
    // PAY_CLOSED first, then PAY_SUCCESS ten times, sent all at once.
    expect((await send(closed)).body).toEqual({ returnCode: 'SUCCESS', returnMessage: null });
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(paid)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const after = await asStaff(order);
    expect(after).toMatchObject({ paymentStatus: 'paid', orderStatus: 'delivered', payment: { state: 'paid' } });
    const seen = await events(order);
    expect(seen.map((e) => [e.kind, e.outcome, e.seen])).toEqual([
      ['closed', 'closed', 1],
      ['payment', 'paid', 10],
    ]);
    expect((await bench.orders.auditRows(order.id)).filter((row) => row.action === 'order.deliver')).toHaveLength(1);
    expect(await bench.api.db.selectFrom('wise_stocks').select('id').where('order_id', '=', order.id).execute()).toHaveLength(1);
  });

  it('refuses a forged or tampered webhook and changes nothing', async () => {
    const order = await orderAndPay(bench, 'binance_pay');
    const hook = await bench.rails.binancePay(await prepayOf(order));
    const before = await footprint(order);
    // The amount inside `data` (a JSON string in the body, so its quotes are escaped).
    const tampered = hook.body.replace('\\"totalFee\\":\\"30.00', '\\"totalFee\\":\\"3.00');
    expect(tampered).not.toBe(hook.body);
    const refusals = [
      await send(hook, tampered),
      await send(hook, hook.body, { ...hook.headers, 'BinancePay-Signature': Buffer.from('not a signature').toString('base64') }),
      await send(hook, hook.body, { ...hook.headers, 'BinancePay-Certificate-SN': 'another-certificate' }),
      await send(hook, hook.body, { 'content-type': 'application/json' }),
    ];
    expect(refusals.map((r) => [r.status, r.body.error?.code])).toEqual(Array(4).fill([400, 'bad_request']));
    expect(await footprint(order)).toEqual(before);
  });

  it('catches a payment whose webhook never came, by asking Binance Pay', async () => {
    const order = await orderAndPay(bench, 'binance_pay');
    await bench.rails.binancePay(await prepayOf(order));
    expect((await asStaff(order)).paymentStatus).toBe('pending');
    const round = await bench.api.call<{ requests: Record<string, number> }>('POST', '/api/admin/payments/reconcile', { user: bench.moderator });
    expect(round.body.requests.binance_pay).toBeGreaterThan(0);
    expect(await asStaff(order)).toMatchObject({ paymentStatus: 'paid', payment: { state: 'paid' } });
    expect((await events(order)).map((e) => e.outcome)).toEqual(['paid']);
  });

  it('marks a delivered order refunded when Binance reports the refund, and flags it to staff', async () => {
    await bench.orders.seedStock(`refund-${crypto.randomUUID().slice(0, 6)}@wise.test`, `pw-${crypto.randomUUID().slice(0, 8)}`);
    const order = await orderAndPay(bench, 'binance_pay');
    const prepayId = await prepayOf(order);
    await send(await bench.rails.binancePay(prepayId));
    expect((await asStaff(order)).orderStatus).toBe('delivered');
    await send(await bench.rails.binanceRefund(prepayId));
    expect(await asStaff(order)).toMatchObject({ paymentStatus: 'refunded', payment: { state: 'refunded' } });
    const notice = await bench.api.db
      .selectFrom('notifications')
      .selectAll()
      .where('order_id', '=', order.id)
      .where('kind', '=', 'refund')
      .executeTakeFirstOrThrow();
    expect(notice.title).toBe('Delivered order refunded');
    expect(notice.body).toContain('withdraw');
  });
});
