import { describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { PaymentEventView } from '../contract/payments.ts';
import { orderAndPay, paymentTestBench } from '../testing/payment-bench.ts';

// Issue 26: bKash tokenized checkout. The callback is a browser redirect anyone could forge: the shop
// believes bKash's answer to execute and query, never the callback's words.

const bench = paymentTestBench();
const asStaff = async (order: Order) => (await bench.api.call<Order>('GET', `/api/admin/orders/${order.id}`, { user: bench.moderator })).body;
const events = async (order: Order) =>
  (await bench.api.call<PaymentEventView[]>('GET', `/api/orders/${order.id}/payment-events`, { user: bench.moderator })).body;
const paymentIdOf = async (order: Order) =>
  (await bench.api.db.selectFrom('payment_intents').select('reference').where('order_id', '=', order.id).executeTakeFirstOrThrow()).reference!;
/** A browser's visit to the callback, its redirect not followed: where it sends the customer is the answer. */
const visit = (path: string) => bench.api.app.request(path, { method: 'GET', redirect: 'manual' });
const callback = (url: string) => visit(`${new URL(url).pathname}${new URL(url).search}`);

describe('a bKash payment', () => {
  it('asks bKash for the price in taka at the shop’s rate, and shows bKash’s page', async () => {
    const order = await orderAndPay(bench, 'bkash');
    // $30 at 120.50 taka to the dollar.
    expect(order.payment).toMatchObject({ rail: 'bkash', state: 'waiting', currency: 'BDT', amount: '3615.000000' });
    expect(order.payment!.payUrl).toMatch(/\/bkash\/checkout\/TR0011/);
  });

  it('is executed when bKash sends the customer back, once however often the callback comes', async () => {
    const order = await orderAndPay(bench, 'bkash');
    const back = await bench.rails.bkashApprove(await paymentIdOf(order));
    const first = await callback(back.callback);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`/my-orders?payment=received#order-${order.id}`);
    expect((await callback(back.callback)).headers.get('location')).toBe(`/my-orders?payment=received#order-${order.id}`);
    expect(await asStaff(order)).toMatchObject({ paymentStatus: 'paid', payment: { state: 'paid' } });
    expect((await events(order)).map((e) => [e.outcome, e.seen])).toEqual([['paid', 2]]);
  });

  it('changes nothing for a callback bKash did not send: a success the customer never approved, or an unknown payment', async () => {
    const order = await orderAndPay(bench, 'bkash');
    const paymentId = await paymentIdOf(order);
    const before = await asStaff(order);
    const forged = await visit(`/api/payments/bkash/callback?paymentID=${paymentId}&status=success&signature=forged`);
    expect(forged.headers.get('location')).toBe(`/my-orders?payment=failed#order-${order.id}`);
    expect((await visit('/api/payments/bkash/callback?paymentID=TR0011NOTOURS&status=success')).status).toBe(404);
    expect(await asStaff(order)).toEqual(before);
    expect(await events(order)).toEqual([]);
  });

  it('catches a payment approved on bKash whose callback never arrived, by reconciliation', async () => {
    const order = await orderAndPay(bench, 'bkash');
    await bench.rails.bkashApprove(await paymentIdOf(order));
    await bench.api.call('POST', '/api/admin/payments/reconcile', { user: bench.moderator });
    expect(await asStaff(order)).toMatchObject({ paymentStatus: 'paid', payment: { state: 'paid' } });
  });
});
