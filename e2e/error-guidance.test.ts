import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { apiSession, checkA11yAtBoth, demoLogins, PHONE, setUpServerAndBrowser, signIn } from './harness.ts';

/**
 * Issue 33 item 3: every error says what to do. A server error while ordering, a file of the wrong kind,
 * a mobile number with letters, a profile that fails to load, a browser that refuses notifications, and
 * My Orders' landmarks, each at a phone's and a tablet's width with axe.
 */
const e2e = setUpServerAndBrowser();

const serverError = { status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Internal server error' } }) };

async function orderableService(): Promise<Service> {
  const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
  return services.find((service) => !service.needsDetails)!;
}

/** A signed-in customer's phone-wide page. */
async function customerPage(page: Page) {
  await page.setViewportSize(PHONE);
  await signIn(page, demoLogins.customer);
}

describe('errors that say what to do', () => {
  it('an order the server fails is said to have failed at once, with the spec’s message, and nothing is queued', async () => {
    const service = await orderableService();
    await e2e.withPage(async (page) => {
      await customerPage(page);
      await page.goto(`/service-details/${service.id}`);
      await page.route('**/api/orders', (route) => (route.request().method() === 'POST' ? route.fulfill(serverError) : route.fallback()));
      await page.getByRole('button', { name: 'Place Order Now' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm your order' });
      const started = Date.now();
      await dialog.getByRole('button', { name: 'Confirm Order' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Failed to place order. Please try again.' }).waitFor({ timeout: 5_000 });
      assert.ok(Date.now() - started < 5_000, 'the failure is said within seconds, not after the 10 s wait');
      assert.equal(await dialog.getByRole('button', { name: 'Confirm Order' }).isEnabled(), true);
      assert.equal(await page.getByText(/could not be saved/).count(), 0, 'the failure is not listed again among failed changes');
      assert.equal(await page.evaluate(() => location.pathname), `/service-details/${service.id}`);
      await checkA11yAtBoth(page, PHONE);

      // The server is back: the same button places the order, once.
      await page.unroute('**/api/orders');
      await dialog.getByRole('button', { name: 'Confirm Order' }).click();
      await page.waitForURL('**/my-orders');
    });
  });

  it('My Orders names each unpaid order’s landmarks apart, and the payment screenshot says which files it takes', async () => {
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const service = await orderableService();
    const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id, paymentMethod: service.paymentMethods[0] }, 201);
    await customer.call('POST', '/api/orders', { productId: service.id }, 201);
    await e2e.withPage(async (page) => {
      await customerPage(page);
      await page.goto('/my-orders');
      const form = page.getByRole('form', { name: `Send a payment proof for order #${shortOrderId(placed.order.id)}` });
      await form.waitFor();
      assert.ok((await page.getByRole('form', { name: /^Send a payment proof for order #/ }).count()) >= 2);
      const { violations } = await new AxeBuilder({ page }).withRules(['landmark-unique']).analyze();
      assert.deepEqual(
        violations.map((violation) => violation.nodes.map((node) => node.target.join(' '))),
        [],
      );

      const picker = form.getByLabel('Payment screenshot');
      assert.match((await picker.getAttribute('accept')) ?? '', /image\/png.*\.heic/);
      await form.getByText('Accepted: JPG, PNG, WEBP, GIF or HEIC images, up to 10 MB.').waitFor();
      await picker.setInputFiles({ name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from('paid 15 USD') });
      const typesSaid = 'Invalid file type! Please select JPG, PNG, WEBP, GIF, or HEIC image files';
      await form.getByRole('alert').filter({ hasText: typesSaid }).waitFor();
      await form.getByRole('button', { name: 'Send Proof' }).click();
      assert.equal(await form.getByRole('alert').textContent(), typesSaid);
      await checkA11yAtBoth(page, PHONE);
    });
  });

  it('a mobile number with letters is refused on registration and on the profile, under its field', async () => {
    await e2e.withPage(async (page) => {
      await page.setViewportSize(PHONE);
      await page.goto('/register');
      await page.getByLabel('Full Name').fill('Mina Akter');
      await page.getByLabel('Email Address').fill(`mina-${Date.now()}@example.com`);
      await page.getByLabel('Mobile Number').fill('abc!!');
      await page.getByLabel('Password', { exact: true }).fill('secret-123');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByRole('alert').filter({ hasText: 'Your mobile number may hold only digits, spaces and a leading +' }).waitFor();
      await checkA11yAtBoth(page, PHONE);

      await signIn(page, demoLogins.customer);
      await page.goto('/profile');
      const form = page.getByRole('region', { name: 'Edit Profile' });
      await form.getByLabel('Mobile Number').fill('0171abc');
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await form.getByText('may hold only digits, spaces and a leading +').waitFor();
      assert.equal(await form.getByLabel('Mobile Number').getAttribute('aria-invalid'), 'true');
      await checkA11yAtBoth(page, PHONE);
    });
  });

  it('a profile the server fails to load says so, as the specification words it, above the copy on the device', async () => {
    await e2e.withPage(async (page) => {
      await customerPage(page);
      await page.route(/\/api\/users\/[0-9a-f-]{36}$/, (route) => (route.request().method() === 'GET' ? route.fulfill(serverError) : route.fallback()));
      await page.goto('/profile');
      await page.getByRole('status').filter({ hasText: 'Unable to Load Profile. Failed to fetch user profile.' }).waitFor();
      await page.getByRole('heading', { level: 1, name: 'Demo Customer' }).waitFor();
      await checkA11yAtBoth(page, PHONE);
    });
  });

  it('a browser that refuses the subscription gets plain words and the steps to allow notifications', async () => {
    await e2e.withPage(async (page, context) => {
      await context.grantPermissions(['notifications'], { origin: e2e.server.url });
      // The refusal a browser gives when notifications are not allowed for the site (or in a private window).
      await page.addInitScript(() => {
        PushManager.prototype.subscribe = () => Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError'));
        PushManager.prototype.getSubscription = () => Promise.resolve(null);
      });
      await customerPage(page);
      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'Notifications' });
      await card.getByText('Off on this device.').waitFor();
      await card.getByRole('switch', { name: 'Notifications on this device' }).click();
      const alert = card.getByRole('alert');
      await alert.filter({ hasText: 'Your browser refused notifications for this site. To allow them' }).waitFor();
      assert.doesNotMatch((await alert.textContent()) ?? '', /Registration failed/);
      await checkA11yAtBoth(page, PHONE);
    });
  });
});
