import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../edge-api/src/contract/settings.ts';
import { apiSession, checkA11y, demoLogins, FIRST_ORDERS_PAGE, setUpServerAndBrowser } from './harness.ts';
import { controlsOutOfView, keepScreenshot, pageScrollsSideways, peopleOf, screenChecker, SIZES } from './screen-checks.ts';

/** The tablet and the phone in use: staff and customers' tasks that must fit the screen at each width. */

const e2e = setUpServerAndBrowser();
const people = peopleOf(e2e);
const checkScreen = screenChecker(people);

describe('the tablet and the phone in use', () => {
  it('an admin on an 820 px tablet finds, changes, delivers and deletes an order without a sideways scroll', async () => {
    const page = (await people()).pages.get('admin')!;
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto('/dashboard?paymentStatus=pending');
    await page.getByText(FIRST_ORDERS_PAGE).waitFor({ timeout: 30_000 });
    const first = page.getByRole('article').first();
    const orderLabel = (await first.getByLabel(/^Order status of order #/).getAttribute('aria-label'))?.replace('Order status of ', '') ?? '';
    const shortId = orderLabel.slice('order #'.length);

    // Find it among all orders.
    await page.goto('/dashboard');
    await page.getByLabel('Search', { exact: true }).fill(shortId);
    await page.getByText('Showing 1–1 of 1 orders').waitFor();
    const card = page.getByRole('article').first();
    const inView = async () => {
      assert.equal(await pageScrollsSideways(page), false, 'the page scrolls sideways');
      assert.deepEqual(await controlsOutOfView(page), []);
    };
    await inView();

    // Change it: a toast says so.
    await card.getByLabel(`Order status of ${orderLabel}`).selectOption('processing');
    await page.locator('.toast').getByText(`Order #${shortId} is now Processing.`).waitFor();

    // Deliver it.
    await card.getByRole('button', { name: `Add credentials to ${orderLabel}` }).click();
    const modal = page.getByRole('dialog', { name: 'Add WISE Credentials' });
    await modal.waitFor();
    await inView();
    await keepScreenshot(page, 'admin-deliver-modal-820');
    await modal.getByLabel('WISE Email').fill(`tablet.${Date.now()}@wise.test`);
    await modal.getByLabel('WISE Password').fill('Tablet#Delivery-1');
    await modal.getByRole('button', { name: 'Approve & Deliver' }).click();
    await page.getByText('Order updated successfully with WISE credentials!').waitFor();
    await modal.waitFor({ state: 'detached' });

    // Delete it, after a question that names it.
    await card.getByRole('button', { name: `Delete ${orderLabel}` }).click();
    const question = page.getByRole('dialog', { name: 'Delete order?' });
    await question.getByText(new RegExp(`^Order #${shortId}: `)).waitFor();
    await inView();
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText(`Order #${shortId} deleted.`).waitFor();
  });

  it("on a phone the dashboard's bell panel, drawer and delete questions fit the screen and name what they are about", async () => {
    // An order whose payment proof waits for a check, for the bell to count.
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const services = await customer.get<Service[]>('/api/services');
    const service = services.find((candidate) => candidate.category !== 'wise' && !candidate.needsDetails) ?? services[0]!;
    const proofed = await customer.call<{ order: { id: string } }>('POST', '/api/orders', { productId: service.id }, 201);
    await customer.call('PUT', `/api/orders/${proofed.order.id}/payment-proof`, { transactionId: `E2E-BELL-${Date.now()}` });

    const page = (await people()).pages.get('admin')!;
    await page.setViewportSize({ width: 412, height: 915 });
    const fits = async (what: string) => {
      assert.equal(await pageScrollsSideways(page), false, `${what}: the page scrolls sideways`);
      assert.deepEqual(await controlsOutOfView(page), [], what);
    };

    await page.goto('/dashboard/admin-services');
    await page.getByRole('button', { name: /^Edit/ }).first().waitFor({ timeout: 30_000 });
    const bell = page.getByRole('button', { name: 'Notifications' });
    await bell.click();
    const panel = page.locator(`#${(await bell.getAttribute('aria-controls'))!.replace(/:/g, '\\:')}`);
    await panel.getByRole('link', { name: /Orders waiting for a payment check/ }).waitFor({ timeout: 30_000 });
    await fits('the bell panel');
    await keepScreenshot(page, 'admin-bell-panel-412');
    await panel.getByRole('link', { name: /Orders waiting for a payment check/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('attention') === 'payment-check');

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    // Once it has slid in.
    await page.waitForFunction(() => document.getElementById('dashboard-sidebar')!.getBoundingClientRect().left >= 0);
    await fits('the drawer');
    await keepScreenshot(page, 'admin-drawer-412');
    await page.getByRole('button', { name: 'Close menu' }).click();

    await page.goto('/dashboard/admin-services');
    const firstDelete = page.getByRole('button', { name: /^Delete/ }).first();
    await firstDelete.waitFor({ timeout: 30_000 });
    const title = (await firstDelete.getAttribute('aria-label'))?.replace(/^Delete /, '') ?? '';
    await firstDelete.click();
    const question = page.getByRole('dialog', { name: 'Are you sure?' });
    await question.getByText("You won't be able to revert this!").waitFor();
    await question.getByText(title, { exact: true }).waitFor();
    await fits('the delete question');
    await keepScreenshot(page, 'admin-delete-question-412');
    await question.getByRole('button', { name: 'Cancel' }).click();
  });

  it('on a phone the order bar stays in reach on a service page, and toasts leave the header alone', async () => {
    const { pages, service } = await people();
    const page = pages.get('customer')!;
    await page.setViewportSize({ width: 412, height: 915 });
    await page.goto(`/service-details/${service.id}`);
    await page.getByRole('heading', { level: 1, name: service.title }).waitFor();
    const order = page.getByRole('button', { name: 'Place Order Now' });
    const box = async () => (await order.boundingBox())!;
    assert.ok((await box()).y + (await box()).height <= 915, 'Place Order Now is on the first screen');
    await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(200);
    assert.ok((await box()).y >= 0 && (await box()).y + (await box()).height <= 915, 'and stays there while scrolling');

    // A toast (here: copying delivered credentials on My Orders) never covers the header's Logout button.
    await page.goto('/my-orders');
    await page.getByRole('button', { name: 'Copy email' }).first().waitFor({ timeout: 30_000 });
    const logout = (await page.getByRole('button', { name: 'Logout' }).boundingBox())!;
    await page.getByRole('button', { name: 'Copy email' }).first().click();
    const toast = page.locator('.toast .alert').first();
    await toast.waitFor();
    const shown = (await toast.boundingBox())!;
    const apart =
      shown.x >= logout.x + logout.width || shown.x + shown.width <= logout.x || shown.y >= logout.y + logout.height || shown.y + shown.height <= logout.y;
    assert.ok(apart, `the toast (${JSON.stringify(shown)}) covers Logout (${JSON.stringify(logout)})`);
    assert.ok(shown.x >= 0 && shown.x + shown.width <= 412 && shown.y + shown.height <= 915, 'the toast is on the screen');
  });

  it('the order summary, the payment instructions and a needs-details service form fit and pass axe at both sizes (issue 17)', async () => {
    const { pages, service } = await people();
    const staff = await apiSession(e2e.server.url, demoLogins.admin);
    const settings = await staff.get<SiteSettings>('/api/settings');
    const method = service.paymentMethods[0] ?? 'binance';
    const instructions = [
      { method, address: 'TXz9Demo1234567890', accountName: 'Demo Shop', qrImage: '', instructions: 'Send the exact amount, then send the transaction id.' },
    ];
    await staff.call('PUT', '/api/settings', { ...settings, paymentInstructions: instructions });

    const customer = pages.get('customer')!;
    for (const size of SIZES) {
      await customer.setViewportSize({ width: size.width, height: size.height });
      await customer.goto(`/service-details/${service.id}`);
      await customer.getByRole('heading', { level: 1, name: service.title }).waitFor({ timeout: 30_000 });
      await customer.getByRole('button', { name: 'Place Order Now' }).click();
      const dialog = customer.getByRole('dialog', { name: 'Confirm your order' });
      await dialog.getByText('TXz9Demo1234567890').waitFor();
      assert.deepEqual(await controlsOutOfView(customer), [], `the order summary at ${size.width}px: controls beyond the screen's edge`);
      await checkA11y(customer);
      await keepScreenshot(customer, `customer-order-summary-${size.width}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }

    await checkScreen({
      who: 'admin',
      path: '/dashboard/settings',
      shot: 'settings-payment-instructions',
      ready: (page) => page.getByLabel('Number or address').first().waitFor({ timeout: 30_000 }),
    });

    const admin = pages.get('admin')!;
    for (const size of SIZES) {
      await admin.setViewportSize({ width: size.width, height: size.height });
      await admin.goto('/dashboard/add-services');
      await admin.getByRole('heading', { level: 1, name: 'Add New Service' }).waitFor({ timeout: 30_000 });
      await admin.getByLabel('Orders need details from the customer').check();
      await admin.getByLabel('What the customer should write').waitFor();
      assert.deepEqual(await controlsOutOfView(admin), [], `the service form with details at ${size.width}px`);
      await checkA11y(admin);
    }
  });
});
