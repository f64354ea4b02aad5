import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { ServiceStock } from '../edge-api/src/contract/service-stocks.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { apiSession, checkA11yAtBoth, demoLogins, markPaidForAutoDelivery, PHONE, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';

// Issue 16, item 4, last part (decision 072): an admin on a tablet keeps stock for a service that
// delivers a server login; its order is delivered automatically when marked paid, and the customer's
// phone shows the server login. axe on the new dialog at 412 and 820 px.

const e2e = setUpServerAndBrowser();

const context = (viewport: { width: number; height: number }) => e2e.context({ viewport });

describe('stock kept for a service', () => {
  it("admin adds server logins to a service's stock on a tablet; its order is delivered automatically when paid; the phone shows the login", async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const stamp = Date.now();
    const title = `VPS Stock ${stamp}`;
    const service = await admin.call<Service>(
      'POST',
      '/api/services',
      {
        title,
        description: 'A server, delivered from stock',
        category: 'vps',
        price: '12',
        deliveryTime: 'instant',
        deliveryKind: 'server',
        image: `${e2e.server.url}/pwa-192.png`,
      },
      201,
    );

    const tablet = await context(TABLET);
    const page = await tablet.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard/admin-services');
    await page.getByRole('button', { name: `Stock of ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Stock: ${title}` });
    await dialog.waitFor();
    await dialog.getByText('No stock for this service yet.').waitFor();
    await checkA11yAtBoth(page, TABLET);

    // One server login, typed in.
    const password = `Srv#${stamp}`;
    await dialog.getByLabel('Host').fill('vps-stock.example.net');
    await dialog.getByLabel('Port').fill('2222');
    await dialog.getByLabel('User').fill('root');
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Add to stock' }).click();
    await dialog.getByText('root@vps-stock.example.net:2222').waitFor();
    await dialog.getByText('1 available · 0 sold · 0 withdrawn').waitFor();
    assert.equal(await dialog.getByText(password).count(), 0, 'the password is never shown in the list');

    // The same password again: the duplicate warning, and nothing added without the override.
    await dialog.getByLabel('Host').fill('vps-other.example.net');
    await dialog.getByLabel('Port').fill('22');
    await dialog.getByLabel('User').fill('admin');
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Add to stock' }).click();
    await dialog.getByRole('alert').getByText('Already in stock or delivered to an order. Add it anyway?').waitFor();
    await dialog.getByRole('button', { name: 'Override & Add' }).waitFor();
    await checkA11yAtBoth(page, TABLET);
    const listed = await admin.get<ServiceStock[]>(`/api/service-stocks?serviceId=${service.id}`);
    assert.equal(listed.length, 1);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // With stock of its own, the service may now deliver automatically.
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Service' });
    await modal.waitFor();
    await modal.getByLabel('Deliver automatically from stock when the order is marked paid').check();
    await modal.getByRole('button', { name: 'Update Service' }).click();
    await modal.waitFor({ state: 'detached' });
    assert.equal((await admin.get<Service>(`/api/services/${service.id}`)).autoDeliver, true);

    // The customer orders it; the admin marks it paid: no delivery form, the server delivers from stock.
    const orderId = (await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201)).order.id;
    await markPaidForAutoDelivery(page, orderId);
    const delivered = await admin.get<Order>(`/api/admin/orders/${orderId}`);
    assert.equal(delivered.orderStatus, 'delivered');
    assert.equal(delivered.deliveryKind, 'server');
    assert.equal(delivered.serviceStockId, listed[0]!.id);
    assert.equal((await admin.get<ServiceStock[]>(`/api/service-stocks?serviceId=${service.id}`))[0]!.status, 'sold');

    // Staff delivering by hand pick an item of the service's stock instead of typing it.
    const second = await admin.call<ServiceStock>(
      'POST',
      '/api/service-stocks',
      { serviceId: service.id, server: { host: 'vps-two.example.net', port: 22, user: 'admin', password: `Two#${stamp}` } },
      201,
    );
    const secondOrder = (await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201)).order.id;
    await page.reload();
    await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill(secondOrder);
    await page.getByText('Showing 1–1 of 1 orders').waitFor();
    await page.getByRole('button', { name: `Add credentials to order #${shortOrderId(secondOrder)}` }).click();
    const deliverDialog = page.getByRole('dialog', { name: 'Deliver Server Login' });
    await deliverDialog.getByLabel("From this service's stock").selectOption({ label: 'admin@vps-two.example.net:22' });
    await checkA11yAtBoth(page, TABLET);
    await deliverDialog.getByRole('button', { name: 'Approve & Deliver' }).click();
    await deliverDialog.waitFor({ state: 'detached' });
    const handDelivered = await admin.get<Order>(`/api/admin/orders/${secondOrder}`);
    assert.equal(handDelivered.serviceStockId, second.id);
    assert.equal(handDelivered.serverHost, 'vps-two.example.net');
    await tablet.close();

    // The customer's phone shows the server login.
    const phone = await context(PHONE);
    const customerPage = await phone.newPage();
    await signIn(customerPage, demoLogins.customer);
    await customerPage.goto('/my-orders');
    const card = customerPage.locator('article').filter({ hasText: `#${shortOrderId(orderId)}` });
    await card.getByText('vps-stock.example.net').waitFor();
    await card.getByRole('button', { name: 'Show password' }).click();
    await card.getByText(password).waitFor();
    await phone.close();
  });
});
