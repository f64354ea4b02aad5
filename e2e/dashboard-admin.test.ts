import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { User } from '../edge-api/src/contract/users.ts';
import { apiSession, checkA11y, demoLogins, setUpServerAndBrowser, signIn } from './harness.ts';

const e2e = setUpServerAndBrowser();
/** One admin page for the whole file (closed with the browser). */
let page: Page;

/** A session token straight from the auth server, to check what the API holds (not what the screen says). */
/** A 1x1 PNG, as an admin would upload a picture. */
const onePixelPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const toast = (text: string) => page.locator('.toast').getByText(text, { exact: true }).waitFor({ timeout: 15_000 });

describe('admin dashboard: users, services, settings', () => {
  // In the suite, so it runs once the harness's own before hook has started the server and browser.
  before(async () => {
    page = await (await e2e.context()).newPage();
    await signIn(page, demoLogins.admin);
  });

  it("changes a user's role after confirming, and the server keeps it", async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const target = (await admin.get<User[]>('/api/users')).find((user) => user.userRole === 'user' && user.email !== demoLogins.customer.email);
    assert.ok(target, 'the demo data has a regular user besides the demo customer');

    await page.goto('/dashboard/admin-users');
    await page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor();
    await page.getByText(/^Showing \d+ of \d+ users$/).waitFor();
    await page.getByRole('columnheader', { name: 'Joined' }).waitFor();
    // The list shows the device's copy while the server's answer loads; axe once Refresh is back, its
    // colours no longer on their way from the disabled ones.
    await page.locator('button:not([disabled])', { hasText: 'Refresh' }).waitFor();
    await checkA11y(page);

    await page.getByPlaceholder('Search users by name, email, or UID...').fill(target.email.toUpperCase());
    await page.getByText(/^Showing 1 of \d+ users$/).waitFor();
    await page.getByLabel(`Role of ${target.displayName} (${target.email})`).selectOption('moderator');
    const dialog = page.getByRole('dialog', { name: 'Update User Role?' });
    await dialog.getByText("Are you sure you want to change this user's role to moderator?").waitFor();
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Yes, update it!' }).click();
    await toast('User role updated to moderator');

    const after = (await admin.get<User[]>('/api/users')).find((user) => user.uid === target.uid);
    assert.equal(after?.userRole, 'moderator');
    assert.equal(await page.getByLabel(`Role of ${target.displayName} (${target.email})`).inputValue(), 'moderator');
  });

  it('creates a service in the modal; it shows in the dashboard and in the storefront listing', async () => {
    const title = `E2E Proxy Bundle ${Date.now()}`;
    await page.goto('/dashboard/admin-services');
    await page.getByRole('heading', { name: 'All Services', level: 1 }).waitFor();
    await page.getByText('Total Services').waitFor();
    await page.locator('article').first().waitFor();
    await checkA11y(page);

    await page.getByRole('button', { name: 'Add Service' }).click();
    const modal = page.getByRole('dialog', { name: 'Add New Service' });
    await modal.waitFor();
    await modal.getByRole('button', { name: 'Create Service' }).click();
    await modal.getByText('Title is required').waitFor();
    await checkA11y(page);

    await modal.getByLabel('Title', { exact: true }).fill(title);
    await modal.getByLabel('Category', { exact: true }).selectOption('vps');
    await modal.getByLabel('Description', { exact: true }).fill('Residential proxy bundle for testing the dashboard end to end.');
    await modal.getByLabel('Price', { exact: true }).fill('19');
    await modal.getByLabel('Delivery Time', { exact: true }).selectOption('instant');
    await modal.getByLabel('Image URL', { exact: true }).fill('https://images.example.test/proxy.png');
    await modal.getByLabel('Feature 1', { exact: true }).fill('SOCKS5 and HTTP');
    await modal.getByRole('button', { name: 'Add Feature' }).click();
    await modal.getByLabel('Payment Method 1', { exact: true }).selectOption('binance');
    await modal.getByLabel('Mark as popular service').check();
    await modal.getByRole('button', { name: 'Create Service' }).click();
    await toast('Service created successfully');
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: title }).waitFor();

    const created = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = created.find((s) => s.title === title);
    assert.ok(service, 'the server has the new service');
    assert.deepEqual(service.features, ['SOCKS5 and HTTP'], 'the blank feature was dropped');
    assert.deepEqual(service.paymentMethods, ['binance']);
    assert.equal(service.popular, true);

    await page.goto('/services');
    await page.getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });
  });

  it('adds a service with an uploaded image from the Add New Service form', async () => {
    const title = `E2E Statement Template ${Date.now()}`;
    await page.goto('/dashboard/add-services');
    await page.getByRole('heading', { name: 'Add New Service', level: 1 }).waitFor();
    assert.equal(await page.getByLabel('Category').inputValue(), 'documents');
    assert.equal(await page.getByLabel(/^Feature \d$/).count(), 3);
    await checkA11y(page);

    await page.getByLabel('Service Title').fill(title);
    await page.getByLabel('Description').fill('Editable statement in Word and PDF.');
    await page.getByLabel('Service Image (optional)').setInputFiles({ name: 'statement.png', mimeType: 'image/png', buffer: onePixelPng });
    await page.getByLabel('Price').fill('12');
    await page.getByLabel('Delivery Time').selectOption('3hours');
    await page.getByLabel('bKash').check();
    await page.getByLabel('Feature 1', { exact: true }).fill('Word and PDF');
    await page.getByRole('button', { name: 'Save Service' }).click();
    await toast('Service added successfully!');
    assert.equal(await page.getByLabel('Service Title').inputValue(), '', 'the form is reset');

    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = services.find((s) => s.title === title);
    assert.ok(service, 'the server has the new service');
    assert.match(service.image, /service-images\//);
    assert.deepEqual(service.features, ['Word and PDF']);
    assert.deepEqual(service.paymentMethods, ['bkash']);
    assert.equal((await fetch(new URL(service.image, e2e.server.url))).status, 200, 'the uploaded image can be loaded');
  });

  it("edits the site settings, showing the server's validation per field", async () => {
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByLabel('Brand name').waitFor();
    await checkA11y(page);

    await page.getByLabel('Support email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Support email must be an email address').waitFor();
    assert.equal(await page.getByLabel('Support email').getAttribute('aria-invalid'), 'true');
    await checkA11y(page);

    await page.getByLabel('Support email').fill('help@shop.example');
    await page.getByLabel('Brand name').fill('E2E Digital Shop');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast('Settings saved successfully');
    const settings = (await (await fetch(`${e2e.server.url}/api/settings`)).json()) as { brandName: string; supportEmail: string };
    assert.equal(settings.brandName, 'E2E Digital Shop');
    assert.equal(settings.supportEmail, 'help@shop.example');
  });

  it('tells a moderator that User Management is for admins', async () => {
    await e2e.withPage(async (moderatorPage) => {
      await signIn(moderatorPage, demoLogins.moderator);
      await moderatorPage.goto('/dashboard/admin-users');
      await moderatorPage.getByRole('heading', { name: 'Access Denied!' }).waitFor();
      await moderatorPage.getByText('You do not have permission to access this data.').waitFor();
      assert.equal(await moderatorPage.getByRole('table').count(), 0, 'no user data is shown');
    });
  });
});
