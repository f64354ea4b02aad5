import { describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { PaymentEventView } from '../contract/payments.ts';
import type { ReceiptMail } from '../operations/receipts.ts';
import { remoteApi } from '../testing/api-harness.ts';
import { orderAndPay, paymentTestBench, SHOP_TRON_ADDRESS } from '../testing/payment-bench.ts';

// Issue 26: USDT on TRON, confirmed by reading the shop address's TRC20 transfers from TronGrid (a
// stand-in on this machine that follows its documentation). Each waiting order has an exact amount.

const bench = paymentTestBench();
const check = (order: Order) => bench.api.call<Order>('POST', `/api/orders/${order.id}/payment/check`, { user: bench.customer });
const events = (order: Order) => bench.api.call<PaymentEventView[]>('GET', `/api/orders/${order.id}/payment-events`, { user: bench.moderator });
const stock = (email: string) => bench.orders.seedStock(email, `pw-${crypto.randomUUID().slice(0, 8)}`);
const noticesFor = (orderId: string) =>
  bench.api.db.selectFrom('notifications').selectAll().where('order_id', '=', orderId).where('kind', '=', 'payment_problem').execute();

describe('a USDT payment', () => {
  it('asks for an exact amount to the last digit, at the shop address, for 30 minutes; asking again answers the same', async () => {
    const order = await orderAndPay(bench, 'usdt_trc20');
    const payment = order.payment!;
    expect(payment).toMatchObject({ rail: 'usdt_trc20', state: 'waiting', currency: 'USDT', payTo: SHOP_TRON_ADDRESS, qrContent: SHOP_TRON_ADDRESS });
    expect(payment.amount).toMatch(/^30\.00\d{4}$/);
    expect(payment.amount).not.toBe('30.000000');
    const minutes = (Date.parse(payment.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    const again = await bench.api.call<Order>('POST', `/api/orders/${order.id}/payment`, { user: bench.customer, json: { rail: 'usdt_trc20' } });
    expect(again.body.payment).toEqual(payment);
  });

  it('gives two waiting orders two different amounts', async () => {
    const [a, b] = await Promise.all([orderAndPay(bench, 'usdt_trc20'), orderAndPay(bench, 'usdt_trc20')]);
    expect(a.payment!.amount).not.toBe(b.payment!.amount);
  });

  it('once the exact amount is confirmed, marks the order paid and delivers it in the same step, once', async () => {
    await stock(`usdt-${crypto.randomUUID().slice(0, 6)}@wise.test`);
    const order = await orderAndPay(bench, 'usdt_trc20');
    const pending = await bench.rails.transfer({ to: SHOP_TRON_ADDRESS, amount: order.payment!.amount, confirmed: false });
    expect((await check(order)).body).toMatchObject({ paymentStatus: 'pending', payment: { state: 'waiting' } });
    await bench.rails.confirm(pending.txid);
    const paid = await check(order);
    expect(paid.body).toMatchObject({ paymentStatus: 'paid', orderStatus: 'delivered', payment: { state: 'paid' } });
    // The oldest free account of the pool, sold to this order (other test files may have stocked the pool first).
    const sold = await bench.api.db.selectFrom('wise_stocks').select(['wise_email', 'status']).where('order_id', '=', order.id).execute();
    expect(sold).toEqual([{ wise_email: paid.body.wiseEmail, status: 'sold' }]);
    expect(paid.body.wisePassword).toBeTruthy();
    // Read again by another round: nothing more happens.
    expect((await bench.api.call('POST', '/api/admin/payments/reconcile', { user: bench.moderator })).status).toBe(200);
    const seen = (await events(order)).body;
    expect(seen).toEqual([
      expect.objectContaining({ rail: 'usdt_trc20', reference: pending.txid, amount: order.payment!.amount, currency: 'USDT', outcome: 'paid', seen: 1 }),
    ]);
    const audit = await bench.orders.auditRows(order.id);
    expect(audit.filter((row) => row.action === 'order.deliver')).toHaveLength(1);
    expect(audit.find((row) => row.action === 'order.deliver')?.actor_email).toBe('payment rail');
  });

  // The Workers deployment has no mail of its own (Supabase's mailer sends only its auth mail): Node only.
  it.skipIf(remoteApi !== undefined)('mails the customer a receipt when paid and when delivered, with a link to the order and no password', async () => {
    const sent: ReceiptMail[] = [];
    if (bench.api.mode !== 'in-process') return;
    bench.api.deps.mailer = { send: async (mail) => void sent.push(mail) };
    try {
      await stock(`receipt-${crypto.randomUUID().slice(0, 6)}@wise.test`);
      const order = await orderAndPay(bench, 'usdt_trc20');
      await bench.rails.transfer({ to: SHOP_TRON_ADDRESS, amount: order.payment!.amount });
      const paid = (await check(order)).body;
      expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
        [bench.customer.email, `Payment received for order #${order.id.slice(-8)} (Wise Instant)`],
        [bench.customer.email, `Order #${order.id.slice(-8)} (Wise Instant) is delivered`],
      ]);
      for (const mail of sent) {
        expect(mail.text).toContain(`http://shop.test/my-orders#order-${order.id}`);
        expect(mail.text).not.toContain(paid.wisePassword!);
      }
    } finally {
      delete bench.api.deps.mailer;
    }
  });

  it('holds an underpaid order for staff, shows what arrived, and delivers nothing', async () => {
    const order = await orderAndPay(bench, 'usdt_trc20');
    const due = order.payment!.amount;
    const short = `${Number(due.split('.')[0]) - 1}.${due.split('.')[1]}`;
    const { txid } = await bench.rails.transfer({ to: SHOP_TRON_ADDRESS, amount: short });
    const held = await check(order);
    expect(held.body).toMatchObject({ paymentStatus: 'pending', orderStatus: 'pending', payment: { state: 'underpaid', amount: due, amountReceived: short } });
    expect(held.body.wiseEmail).toBeUndefined();
    expect((await events(order)).body).toEqual([expect.objectContaining({ reference: txid, outcome: 'underpaid', amount: short })]);
    const [notice] = await noticesFor(order.id);
    expect(notice?.body).toContain(`${short} USDT arrived on usdt_trc20, less than the ${due} due`);
  });

  it('expires an order not paid in its window, and holds a transfer that comes after it as late', async () => {
    const order = await orderAndPay(bench, 'usdt_trc20');
    await bench.api.db
      .updateTable('payment_intents')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('order_id', '=', order.id)
      .execute();
    expect((await bench.api.call('POST', '/api/admin/payments/reconcile', { user: bench.moderator })).status).toBe(200);
    const expired = await check(order);
    expect(expired.body).toMatchObject({ orderStatus: 'cancelled', paymentStatus: 'failed', payment: { state: 'expired' } });
    await bench.rails.transfer({ to: SHOP_TRON_ADDRESS, amount: order.payment!.amount });
    await bench.api.call('POST', '/api/admin/payments/reconcile', { user: bench.moderator });
    const late = (await bench.api.call<Order>('GET', `/api/admin/orders/${order.id}`, { user: bench.moderator })).body;
    expect(late).toMatchObject({ orderStatus: 'cancelled', paymentStatus: 'failed', payment: { state: 'late' } });
    expect((await events(order)).body.map((e) => e.outcome)).toEqual(['late']);
    expect((await noticesFor(order.id)).length).toBe(1);
  });

  it('tells staff of a transfer that matches no order, and changes no order', async () => {
    const before = await bench.api.db.selectFrom('orders').select(['id', 'version']).where('user_id', '=', bench.customer.id).execute();
    const { txid } = await bench.rails.transfer({ to: SHOP_TRON_ADDRESS, amount: '12.340000' });
    await bench.api.call('POST', '/api/admin/payments/reconcile', { user: bench.moderator });
    const row = await bench.api.db.selectFrom('payment_events').selectAll().where('reference', '=', txid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ outcome: 'unmatched', order_id: null });
    const notice = await bench.api.db.selectFrom('notifications').selectAll().where('body', 'like', `%${txid}%`).executeTakeFirstOrThrow();
    expect(notice.title).toBe('Payment matches no order');
    const after = await bench.api.db.selectFrom('orders').select(['id', 'version']).where('user_id', '=', bench.customer.id).execute();
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after).toHaveLength(before.length);
  });

  it('cannot be started for someone else’s order, or on a rail the shop has not switched on', async () => {
    const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user: bench.customer, json: { productId: bench.autoServiceId } });
    const stranger = await bench.api.createUser('user', 'stranger');
    expect((await bench.api.call('POST', `/api/orders/${placed.body.order.id}/payment`, { user: stranger, json: { rail: 'usdt_trc20' } })).status).toBe(403);
    expect((await bench.api.call('GET', `/api/orders/${placed.body.order.id}/payment-events`, { user: bench.customer })).status).toBe(403);
  });
});
