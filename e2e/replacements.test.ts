import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { WiseStock } from '../edge-api/src/contract/wise-stocks.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import {
  apiSession,
  checkA11yAtBoth,
  demoLogins,
  goOffline,
  goOnline,
  PHONE,
  setUpServerAndBrowser,
  signIn,
  TABLET,
  waitForServiceWorkerControl,
} from './harness.ts';

// Issue 16, items 8 and 9 (decisions 063, 064): a replacement from the customer's report on a phone to the
// new credentials on that phone, and a rotation of the new stock's password, with axe at 412 and 820 px.

const e2e = setUpServerAndBrowser();

/** A 1x1 PNG, as a phone would attach a screenshot. */
const screenshotPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const context = (viewport: { width: number; height: number }) => e2e.context({ viewport });

describe('replacement under warranty', () => {
  it('takes a report made offline on the phone to new credentials on the phone; then a rotation in stock shows there too', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const stamp = Date.now();

    // A service with a 7-day warranty, two stocks, and an order of the demo customer delivered from the first.
    const service = await admin.call<Service>(
      'POST',
      '/api/services',
      {
        title: `Warranty Wise ${stamp}`,
        description: 'A verified account with a 7-day warranty',
        category: 'wise',
        price: '30',
        deliveryTime: 'instant',
        warrantyDays: 7,
      },
      201,
    );
    const newStock = (name: string) =>
      admin.call<WiseStock>(
        'POST',
        '/api/wise-stocks',
        {
          wiseName: name,
          wiseEmail: `${name.toLowerCase()}.${stamp}@wise.test`,
          wisePassword: `${name}#Pass-${stamp}`,
          authImage: 'https://example.test/auth.png',
          userName: 'Demo Admin',
        },
        201,
      );
    const faulty = await newStock('Faulty');
    const fresh = await newStock('Fresh');
    const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
    const orderId = placed.order.id;
    await admin.call<Order>('PUT', `/api/admin/orders/${orderId}`, { stockId: faulty.id });

    // The customer's phone: the delivered order offers a report within the warranty.
    const phone = await context(PHONE);
    const customerPage = await phone.newPage();
    await signIn(customerPage, demoLogins.customer);
    await customerPage.goto('/my-orders');
    const card = customerPage.locator('article').filter({ hasText: `#${shortOrderId(orderId)}` });
    await card.getByText(faulty.wiseEmail).waitFor();
    await card.getByText(/^Warranty until /).waitFor();
    await waitForServiceWorkerControl(customerPage);
    await card.getByText(faulty.wiseEmail).waitFor();
    await checkA11yAtBoth(customerPage, PHONE);

    // Reported offline, with a screenshot: queued in the outbox, sent when the network returns.
    await goOffline(phone);
    await card.getByRole('button', { name: 'Report a problem' }).click();
    const dialog = customerPage.getByRole('dialog', { name: 'Report a problem' });
    await dialog.waitFor();
    await checkA11yAtBoth(customerPage, PHONE);
    await dialog.getByLabel('Reason').selectOption('locked');
    await dialog.getByLabel('What happened (optional)').fill('Wise says the account is suspended.');
    await dialog.getByLabel('Screenshot (optional)').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: screenshotPng });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await customerPage.getByText('Saved on this device: your report will be sent when the connection returns.').waitFor();
    await card.getByText(/You reported a problem on .* \(The account is locked or suspended\)/).waitFor();
    const before = (await customer.get<Order[]>(`/api/orders/user/${customer.userId}`)).find((o) => o.id === orderId)!;
    assert.equal(before.report, undefined, 'nothing reached the server offline');
    await goOnline(phone);
    let reported: Order | undefined;
    for (let i = 0; i < 60 && reported?.report?.status !== 'open'; i++) {
      await customerPage.waitForTimeout(500);
      reported = await admin.get<Order>(`/api/admin/orders/${orderId}`);
    }
    assert.equal(reported?.report?.status, 'open', 'the queued report reached the server');
    assert.equal(reported?.report?.reason, 'locked');
    assert.ok(reported?.report?.image, 'the screenshot was uploaded with it');

    // Staff on a tablet: the reported order is in its own filter; Replace from stock.
    const tablet = await context(TABLET);
    const adminPage = await tablet.newPage();
    await signIn(adminPage, demoLogins.admin);
    await adminPage.goto('/dashboard?report=open&limit=100');
    await adminPage.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    assert.equal(await adminPage.getByLabel('Problem reports').inputValue(), 'open');
    const row = adminPage.getByRole('article', { name: `Warranty Wise ${stamp}` });
    await row.getByText('Problem: The account is locked or suspended').waitFor();
    await row.getByRole('link', { name: /Screenshot/ }).waitFor();
    await checkA11yAtBoth(adminPage, TABLET);
    await row.getByRole('button', { name: `Decline the problem report of order #${shortOrderId(orderId)}` }).click();
    const decline = adminPage.getByRole('dialog', { name: 'Decline problem report' });
    await decline.waitFor();
    await checkA11yAtBoth(adminPage, TABLET);
    await decline.getByRole('button', { name: 'Cancel' }).click();
    await decline.waitFor({ state: 'detached' });

    await row.getByRole('button', { name: `Replace credentials of order #${shortOrderId(orderId)}` }).click();
    const modal = adminPage.getByRole('dialog', { name: 'Replace WISE Credentials' });
    await modal.waitFor();
    await modal.getByRole('button', { name: `Use stock account Fresh (${fresh.wiseEmail})` }).click();
    await checkA11yAtBoth(adminPage, TABLET);
    await modal.getByRole('button', { name: /Approve & Deliver|Override & Deliver/ }).click();
    // What the customer sees changes: the order and its customer are named, and asked about, first (decision 229).
    const question = adminPage.getByRole('dialog', { name: 'Change what the customer sees?' });
    await question.getByText(new RegExp(`^Order #${shortOrderId(orderId)}:`)).waitFor();
    await question.getByRole('button', { name: `Change order #${shortOrderId(orderId)}` }).click();
    await adminPage.getByText('Order updated successfully with WISE credentials!').waitFor();

    const replaced = await admin.get<Order>(`/api/admin/orders/${orderId}`);
    assert.equal(replaced.wiseEmail, fresh.wiseEmail);
    assert.equal(replaced.report?.status, 'replaced');
    assert.deepEqual(
      replaced.deliveryHistory?.map((past) => [past.kind, past.wiseEmail, past.stockId]),
      [['replaced', faulty.wiseEmail, faulty.id]],
      'staff see the earlier delivery in full',
    );
    const faultyNow = await admin.get<WiseStock>(`/api/wise-stocks/${faulty.id}`);
    assert.equal(faultyNow.status, 'disabled');
    assert.ok(faultyNow.faultyAt, 'the faulty stock is marked so it is never sold again');

    // Back on the phone: the new credentials, the outcome, and the earlier ones masked.
    await customerPage.reload();
    await card.getByText(fresh.wiseEmail).waitFor();
    await card.getByText(/Your problem report was answered with new credentials/).waitFor();
    await card.getByRole('button', { name: 'Show password' }).click();
    assert.equal(await card.getByTestId('delivered-password').textContent(), `Fresh#Pass-${stamp}`);
    await card.getByText('Earlier credentials (1)').click();
    await card.getByText(`${faulty.wiseEmail.slice(0, 2)}•••@wise.test`).waitFor();
    assert.equal(await card.getByText(faulty.wiseEmail).count(), 0, 'the earlier email is masked for the customer');
    await checkA11yAtBoth(customerPage, PHONE);

    // Rotation in place: the admin changes the fresh stock's password on its details page.
    await adminPage.goto(`/dashboard/wise-stocks/${fresh.id}`);
    await adminPage.getByRole('heading', { level: 1, name: 'Fresh' }).waitFor();
    await adminPage.getByRole('button', { name: 'Change Password' }).click();
    const change = adminPage.getByRole('dialog', { name: 'Change Password' });
    await change.waitFor();
    const rotatedPassword = `Rotated#Pass-${stamp}`;
    // It names the order and its customer before anything changes, and asks for the password twice (decision 221).
    await change
      .getByTestId('rotation-reaches')
      .getByText(new RegExp(`order #${shortOrderId(orderId)} of .+ will show the new password`))
      .waitFor();
    await change.getByLabel('New password', { exact: true }).fill(rotatedPassword);
    await change.getByLabel('Confirm new password').fill(`${rotatedPassword}x`);
    await change.getByRole('button', { name: `Change password of order #${shortOrderId(orderId)}` }).click();
    await change.getByText('The two passwords do not match.').waitFor();
    await change.getByLabel('Confirm new password').fill(rotatedPassword);
    await checkA11yAtBoth(adminPage, TABLET);
    await change.getByRole('button', { name: `Change password of order #${shortOrderId(orderId)}` }).click();
    await adminPage.getByText(`Password changed. Order #${shortOrderId(orderId)} now shows the new password, and its customer is told on the order.`).waitFor();

    await customerPage.reload();
    await card.getByTestId('rotation-notice').waitFor();
    await card.getByRole('button', { name: 'Show password' }).click();
    assert.equal(await card.getByTestId('delivered-password').textContent(), rotatedPassword);
    await checkA11yAtBoth(customerPage, PHONE);

    await phone.close();
    await tablet.close();
  });

  it('the admin sets the warranty on the service forms, which pass axe at 412 and 820 px', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const title = `Warranty Form ${Date.now()}`;
    const service = await admin.call<Service>(
      'POST',
      '/api/services',
      {
        title,
        description: 'A service whose warranty the form changes',
        category: 'wise',
        price: '30',
        deliveryTime: 'instant',
        image: 'https://example.test/service.png',
        warrantyDays: 21,
      },
      201,
    );

    const tablet = await context(TABLET);
    const page = await tablet.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard/admin-services');
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Service' });
    await modal.waitFor();
    assert.equal(await modal.getByLabel('Warranty (days)').inputValue(), '21');
    await checkA11yAtBoth(page, TABLET);
    await modal.getByLabel('Warranty (days)').fill('14');
    await modal.getByRole('button', { name: 'Update Service' }).click();
    await page.getByText('Service updated successfully').waitFor();
    assert.equal((await admin.get<Service>(`/api/services/${service.id}`)).warrantyDays, 14);

    await page.goto('/dashboard/add-services');
    await page.getByLabel('Warranty (days)').waitFor();
    assert.equal(await page.getByLabel('Warranty (days)').inputValue(), '0');
    await checkA11yAtBoth(page, TABLET);
    await tablet.close();
  });
});
