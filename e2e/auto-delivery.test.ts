import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../edge-api/src/contract/settings.ts';
import {
  apiCall,
  apiSession,
  checkA11y,
  checkA11yAtBoth,
  demoLogins,
  goOffline,
  goOnline,
  markPaidForAutoDelivery,
  PHONE,
  setUpServerAndBrowser,
  signIn,
  TABLET,
  waitForServiceWorkerControl,
} from './harness.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';

const e2e = setUpServerAndBrowser();

describe('automatic delivery from stock (issue 16, items 5-7)', () => {
  it('admin sets a Wise service to deliver by itself, marks its order paid, and the customer sees the credentials', async () => {
    const { server } = e2e;
    const admin = await apiSession(server.url, demoLogins.admin);
    const customer = await apiSession(server.url, demoLogins.customer);
    const services = await apiCall<Service[]>(server.url, 'GET', '/api/services');
    const service = services.find((candidate) => candidate.title === 'Wise Business Account');
    assert.ok(service, 'the demo shop sells a Wise Business Account');

    // The admin turns automatic delivery on, on the service form.
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard/admin-services');
    await page.getByRole('button', { name: `Edit ${service.title}` }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Service' });
    await modal.waitFor();
    await modal.getByLabel('Deliver automatically from stock when the order is marked paid').check();
    await modal.getByLabel('Low-stock threshold for this service').fill('2');
    await checkA11yAtBoth(page, TABLET);
    await modal.getByRole('button', { name: 'Update Service' }).click();
    await modal.waitFor({ state: 'detached' });
    const saved = await apiCall<Service>(server.url, 'GET', `/api/services/${service.id}`);
    assert.equal(saved.autoDeliver, true);
    assert.equal(saved.lowStockThreshold, 2);

    // The customer orders it; one account is put in stock, the only one available.
    const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
    const orderId = placed.order.id;
    const stocks = await admin.get<{ id: string; status: string }[]>('/api/wise-stocks');
    for (const stock of stocks.filter((s) => s.status === 'available')) {
      await admin.call('PUT', `/api/wise-stocks/${stock.id}`, { status: 'disabled' });
    }
    const wiseEmail = `auto.${Date.now()}@wise.test`;
    const wisePassword = 'Auto#Delivery-7';
    await admin.call(
      'POST',
      '/api/wise-stocks',
      { wiseName: 'Auto Stock', wiseEmail, wisePassword, authImage: `${server.url}/pwa-192.png`, userName: 'Demo Admin' },
      201,
    );

    // The admin marks it paid: no credentials form, the server delivers from stock.
    await markPaidForAutoDelivery(page, orderId);
    assert.equal(await page.getByRole('dialog', { name: 'Add WISE Credentials' }).count(), 0, 'no credentials form opens');
    const delivered = await admin.get<Order>(`/api/admin/orders/${orderId}`);
    assert.equal(delivered.paymentStatus, 'paid');
    assert.equal(delivered.orderStatus, 'delivered');
    assert.equal(delivered.wiseEmail, wiseEmail);
    assert.ok(delivered.stockId);

    // Stock is now 0, under the service's threshold of 2: the dashboard warns, and the bell lists it.
    await page.reload();
    await page.getByTestId('low-stock-banner').getByText('Low stock for Wise Business Account.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Notifications' }).click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    await panel.getByText('Low stock for Wise Business Account').first().waitFor();
    await checkA11yAtBoth(page, TABLET);

    // The notification centre: the new order, the low stock; marked read, the unread count goes to 0.
    await page.goto('/dashboard/notifications');
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page
      .getByRole('main')
      .getByText(`#${shortOrderId(orderId)}`, { exact: false })
      .first()
      .waitFor();
    await checkA11yAtBoth(page, TABLET);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByTestId('unread-summary').getByText('0', { exact: true }).waitFor();
    await checkA11yAtBoth(page, TABLET);

    // Offline, the centre still opens from what was synced, read state included.
    await waitForServiceWorkerControl(page);
    await goOffline(context);
    await page.reload();
    await page.getByText('Offline: these are the notifications synced to this device.', { exact: false }).waitFor();
    await page
      .getByRole('main')
      .getByText(`#${shortOrderId(orderId)}`, { exact: false })
      .first()
      .waitFor();
    await page.getByTestId('unread-summary').getByText('0', { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Mark all read' }).isDisabled(), true);
    await goOnline(context);

    // The shop-wide threshold on the settings screen.
    await page.goto('/dashboard/settings');
    await page.getByLabel('Low-stock threshold', { exact: true }).fill('3');
    await checkA11yAtBoth(page, TABLET);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Settings saved successfully').waitFor();
    assert.equal((await apiCall<SiteSettings>(server.url, 'GET', '/api/settings')).lowStockThreshold, 3);
    await context.close();

    // The customer's phone shows the delivered account.
    const phone = await e2e.context();
    const customerPage = await phone.newPage();
    await customerPage.setViewportSize(PHONE);
    await signIn(customerPage, demoLogins.customer);
    await customerPage.goto('/my-orders');
    const card = customerPage.locator('article', { hasText: wiseEmail });
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: /^Show/ }).first().click();
    await card.getByText(wisePassword).waitFor();
    await checkA11y(customerPage);
    const own = await customer.get<Order[]>(`/api/orders/user/${customer.userId}`);
    assert.equal(own.find((order) => order.id === orderId)?.wisePassword, wisePassword);
    await phone.close();
  });
});
