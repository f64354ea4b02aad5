import assert from 'node:assert/strict';
import { before, after, describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { freePort } from '../edge-api/src/testing/free-port.ts';
import { paymentStandInClient, startPaymentStandIns } from '../edge-api/src/testing/payment-stand-ins.ts';
import { apiSession, checkA11y, demoLogins, PHONE, setUpServerAndBrowser, signIn } from './harness.ts';

// Issue 26: a customer pays an order in USDT on a phone and sees the credentials appear, with nobody at
// the shop doing anything. TronGrid is a stand-in on this machine; the app reads it as it would the real one.

const SHOP_ADDRESS = 'TShopWa11etStandin1nTestsXYZabcdef';
const railsPort = await freePort();
let closeRails: (() => Promise<void>) | undefined;
before(async () => {
  closeRails = (await startPaymentStandIns(railsPort)).close;
});
after(async () => closeRails?.());
const e2e = setUpServerAndBrowser({ TRON_API_URL: `http://127.0.0.1:${railsPort}/trongrid` });

describe('paying an order in USDT on a phone', () => {
  it('shows the exact amount, the address with a copy button and a QR code, and the credentials once the transfer is confirmed', async () => {
    const { server } = e2e;
    const rails = paymentStandInClient(`http://127.0.0.1:${railsPort}`);
    const admin = await apiSession(server.url, demoLogins.admin);
    // The owner switches USDT on, and the Wise Business Account delivers by itself from one account in stock.
    await admin.call('PUT', '/api/admin/payments/usdt_trc20', { enabled: true, settings: { address: SHOP_ADDRESS } });
    const service = (await admin.get<Service[]>('/api/services')).find((s) => s.title === 'Wise Business Account')!;
    const { id: _id, createdAt: _c, updatedAt: _u, version: _v, ...fields } = service as Service & Record<string, unknown>;
    await admin.call('PUT', `/api/services/${service.id}`, { ...fields, paymentMethods: [...service.paymentMethods, 'usdt'], autoDeliver: true });
    for (const stock of (await admin.get<{ id: string; status: string }[]>('/api/wise-stocks')).filter((s) => s.status === 'available')) {
      await admin.call('PUT', `/api/wise-stocks/${stock.id}`, { status: 'disabled' });
    }
    const wiseEmail = `usdt.${Date.now()}@wise.test`;
    await admin.call(
      'POST',
      '/api/wise-stocks',
      { wiseName: 'USDT Stock', wiseEmail, wisePassword: 'Usdt#Paid-2026', authImage: `${server.url}/pwa-192.png`, userName: 'Demo Admin' },
      201,
    );
    const customer = await apiSession(server.url, demoLogins.customer);
    const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id, paymentMethod: 'usdt' }, 201);

    await e2e.withPage(async (page) => {
      await page.setViewportSize(PHONE);
      await signIn(page, demoLogins.customer);
      await page.goto(`/my-orders#order-${placed.order.id}`);
      const card = page.locator('article', { has: page.getByText(`#${placed.order.id.slice(-8)}`) });
      await card.getByRole('button', { name: 'Pay with USDT (TRC20)' }).click();
      const amount = card.getByTestId('rail-payment-amount');
      await amount.waitFor({ timeout: 30_000 });
      const due = (await amount.innerText()).replace(' USDT', '');
      assert.match(due, /^180\.00\d{4}$/);
      assert.equal(await card.getByTestId('rail-payment-address').innerText(), SHOP_ADDRESS);
      await card.getByRole('button', { name: 'Copy address' }).waitFor();
      await card.getByRole('img', { name: `QR code of the address ${SHOP_ADDRESS}` }).waitFor();
      assert.match(await card.getByTestId('rail-payment-time-left').innerText(), /Time left: (29|30):\d\d/);
      await checkA11y(page);

      // The customer's wallet sends exactly that; the chain confirms it; the page updates by itself.
      await rails.transfer({ to: SHOP_ADDRESS, amount: due });
      await card.getByText(wiseEmail).waitFor({ timeout: 30_000 });
      await card.getByText('Payment received. Thank you!').waitFor();
      await checkA11y(page);
    });
    const order = await admin.get<Order>(`/api/admin/orders/${placed.order.id}`);
    assert.equal(order.paymentStatus, 'paid');
    assert.equal(order.orderStatus, 'delivered');
    assert.equal(order.wiseEmail, wiseEmail);
  });
});
