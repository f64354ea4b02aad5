import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { AdminOrderPage, Order } from '../edge-api/src/contract/orders.ts';
import { SESSION_STORAGE_KEY } from '../pwa/src/lib/supabase.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { apiSession, checkA11y, demoLogins, goOffline, goOnline, setUpServerAndBrowser, signIn, waitForServiceWorkerControl } from './harness.ts';

const e2e = setUpServerAndBrowser();

/** A 1x1 PNG, as a phone would upload a screenshot. */
const proofPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Narrows the table to one order by searching its id (the search covers id, title, email and name). */
async function showOnly(page: Page, orderId: string) {
  await page.getByLabel('Search', { exact: true }).fill(orderId);
  await page.getByText('Showing 1–1 of 1 orders').waitFor();
}

describe('admin order management', () => {
  it('delivers typed credentials with a proof image, warns of duplicates, and the customer sees the delivery', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const unpaid = await admin.get<AdminOrderPage>(`/api/admin/orders?paymentStatus=pending&search=${encodeURIComponent(demoLogins.customer.email)}`);
    const failed = await admin.get<AdminOrderPage>('/api/admin/orders?paymentStatus=failed');
    const order = unpaid.orders[0];
    const other = failed.orders[0];
    assert.ok(order && other, 'the demo data has an unpaid order of the demo customer and an order whose payment failed');

    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    await page.getByText('Total Orders').waitFor();
    await checkA11y(page);

    await showOnly(page, order.id);
    await page.getByLabel(`Payment status of order #${shortOrderId(order.id)}`).selectOption('paid');
    const modal = page.getByRole('dialog', { name: 'Add WISE Credentials' });
    await modal.waitFor();
    const approve = modal.getByRole('button', { name: 'Approve & Deliver' });
    assert.equal(await approve.isDisabled(), true, 'approve waits for both email and password');
    await checkA11y(page);

    const wiseEmail = `e2e.${Date.now()}@wise.test`;
    const wisePassword = 'E2e#Delivery-1';
    assert.equal(await modal.getByLabel('WISE Email').getAttribute('type'), 'email');
    await modal.getByLabel('WISE Email').fill(wiseEmail);
    await modal.getByLabel('WISE Password').fill(wisePassword);
    await modal.getByLabel('Proof image (optional)').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: proofPng });
    await modal.getByRole('img', { name: 'Proof image to deliver' }).waitFor();
    await approve.click();
    await page.getByText('Order updated successfully with WISE credentials!').waitFor();
    await modal.waitFor({ state: 'detached' });

    const delivered = await admin.get<Order>(`/api/admin/orders/${order.id}`);
    assert.equal(delivered.paymentStatus, 'paid');
    assert.equal(delivered.orderStatus, 'delivered');
    assert.equal(delivered.wiseEmail, wiseEmail);
    assert.ok(delivered.wiseImage, 'the proof image is kept with the order');

    // The same pair typed for another order: the server's duplicate check warns before anything is saved.
    await showOnly(page, other.id);
    await page.getByLabel(`Payment status of order #${shortOrderId(other.id)}`).selectOption('paid');
    await modal.waitFor();
    await modal.getByLabel('WISE Email').fill(wiseEmail.toUpperCase());
    await modal.getByLabel('WISE Password').fill(wisePassword);
    await modal.getByText('⚠️ These exact credentials already exist in another order!').waitFor();
    await modal.getByText('Email and password combination is identical to an existing order.').waitFor();
    await modal.getByText('This will create duplicate credentials!').waitFor();
    await modal.getByRole('button', { name: 'Override & Deliver' }).waitFor();
    await checkA11y(page);
    await modal.getByLabel('WISE Password').fill('A-different#password');
    await modal.getByText('⚠️ This email already exists in another order').waitFor();
    await modal.getByText('This email is already used in another order').waitFor();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
    const untouched = await admin.get<Order>(`/api/admin/orders/${other.id}`);
    assert.equal(untouched.paymentStatus, other.paymentStatus, 'cancelling the modal saves nothing');
    assert.equal(untouched.version, other.version);
    await context.close();

    // The customer's My Orders shows the delivered credentials.
    const customerContext = await e2e.context();
    const customerPage = await customerContext.newPage();
    await signIn(customerPage, demoLogins.customer);
    await customerPage.goto('/my-orders');
    await customerPage.getByText(wiseEmail).first().waitFor();
    const own = await customer.get<Order[]>(`/api/orders/user/${customer.userId}`);
    const mine = own.find((candidate) => candidate.id === order.id);
    assert.equal(mine?.wiseEmail, wiseEmail);
    assert.equal(mine?.wisePassword, wisePassword);
    assert.ok(mine?.wiseImage);
    await customerContext.close();
  });

  it('queues a status change made offline, keeps it through a restart, and syncs it when the network returns', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const waiting = await admin.get<AdminOrderPage>('/api/admin/orders?status=pending&limit=100');
    const order = waiting.orders[0];
    assert.ok(order, 'the demo data has an order awaiting processing');

    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard');
    await page.getByText('All changes synced', { exact: true }).waitFor();
    await waitForServiceWorkerControl(page);
    await showOnly(page, order.id);
    const status = page.getByLabel(`Order status of order #${shortOrderId(order.id)}`);

    await goOffline(context);
    await page.getByText('Offline: showing the orders saved on this device', { exact: false }).waitFor();
    await status.selectOption('processing');
    await page.getByText('1 change waiting to sync', { exact: true }).waitFor();
    await page.getByText('Pending sync', { exact: true }).waitFor();
    assert.equal(await status.inputValue(), 'processing');
    assert.equal((await admin.get<Order>(`/api/admin/orders/${order.id}`)).orderStatus, 'pending', 'nothing reached the server offline');

    // The tablet restarts the app with no network: the guard admits the admin by the synced role, and the
    // queued change is still there.
    await page.reload();
    await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    await page.getByText('1 change waiting to sync', { exact: true }).waitFor();
    await showOnly(page, order.id);
    assert.equal(await status.inputValue(), 'processing');

    await goOnline(context);
    await page.getByText('All changes synced', { exact: true }).waitFor();
    assert.equal((await admin.get<Order>(`/api/admin/orders/${order.id}`)).orderStatus, 'processing');
    assert.equal(await page.getByText('Pending sync', { exact: true }).count(), 0);
    await context.close();
  });

  it('lands a status change made offline on one tablet and a payment change made on another to the same order: no false conflict', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const waiting = await admin.get<AdminOrderPage>('/api/admin/orders?status=pending&paymentStatus=pending&limit=100');
    const order = waiting.orders.at(-1);
    assert.ok(order, 'the demo data has an order awaiting payment and processing');
    const label = `order #${shortOrderId(order.id)}`;

    const tablet = await e2e.context();
    const moderatorPage = await tablet.newPage();
    await signIn(moderatorPage, demoLogins.moderator);
    await moderatorPage.goto('/dashboard');
    await moderatorPage.getByText('All changes synced', { exact: true }).waitFor();
    await waitForServiceWorkerControl(moderatorPage);
    await showOnly(moderatorPage, order.id);
    await goOffline(tablet);
    await moderatorPage.getByLabel(`Order status of ${label}`).selectOption('processing');
    await moderatorPage.getByText('1 change waiting to sync', { exact: true }).waitFor();

    // Meanwhile the admin marks its payment failed on a phone ('paid' would open the delivery form).
    const phone = await e2e.context();
    const adminPage = await phone.newPage();
    await signIn(adminPage, demoLogins.admin);
    await adminPage.goto('/dashboard');
    await showOnly(adminPage, order.id);
    await adminPage.getByLabel(`Payment status of ${label}`).selectOption('failed');
    await adminPage.locator('.toast').getByText(`Payment of ${label} is now Failed.`).waitFor();

    await goOnline(tablet);
    await moderatorPage.getByText('All changes synced', { exact: true }).waitFor({ timeout: 30_000 });
    const onServer = await admin.get<Order>(`/api/admin/orders/${order.id}`);
    assert.equal(onServer.orderStatus, 'processing');
    assert.equal(onServer.paymentStatus, 'failed');
    assert.equal(await moderatorPage.getByText('The server refused', { exact: false }).count(), 0);
    await moderatorPage.waitForFunction(
      (name) => (document.querySelector(`[aria-label="Payment status of ${name}"]`) as HTMLSelectElement | null)?.value === 'failed',
      label,
    );
    await tablet.close();
    await phone.close();
  });

  it('shows a queued change the server refused, with its reason, and sends it again on Retry', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const processing = await admin.get<AdminOrderPage>('/api/admin/orders?status=processing');
    const order = processing.orders[0];
    assert.ok(order, 'the demo data has an order in progress');

    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard');
    await page.getByText('All changes synced', { exact: true }).waitFor();
    await showOnly(page, order.id);
    const status = page.getByLabel(`Order status of order #${shortOrderId(order.id)}`);

    await goOffline(context);
    await status.selectOption('completed');
    await page.getByText('1 change waiting to sync', { exact: true }).waitFor();
    // Meanwhile another admin changes the same order.
    const meanwhile = await fetch(`${e2e.server.url}/api/admin/orders/${order.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderStatus: 'cancelled', version: order.version }),
    });
    assert.equal(meanwhile.status, 200);

    await goOnline(context);
    const refused = page.getByRole('alert').filter({ hasText: 'The server refused a change made on this device' });
    await refused.getByText(`Set order #${shortOrderId(order.id)} status to completed`).waitFor();
    // Both values, named: the field someone else changed, and to what; and what this device wanted.
    await refused.getByText('Someone else changed the order status of this order from "processing" to "cancelled"', { exact: false }).waitFor();
    // The header never says "synced" beside a refused change.
    await page.getByText('1 change refused', { exact: true }).waitFor();
    assert.equal(await page.getByText('All changes synced', { exact: true }).count(), 0);
    assert.equal((await admin.get<Order>(`/api/admin/orders/${order.id}`)).orderStatus, 'cancelled');
    await page.waitForFunction(
      (id) => (document.querySelector(`[aria-label="Order status of order #${id}"]`) as HTMLSelectElement | null)?.value === 'cancelled',
      shortOrderId(order.id),
    );

    await refused.getByRole('button', { name: 'Retry' }).click();
    await refused.waitFor({ state: 'detached' });
    await page.getByText('All changes synced', { exact: true }).waitFor();
    assert.equal((await admin.get<Order>(`/api/admin/orders/${order.id}`)).orderStatus, 'completed');
    await context.close();
  });

  it('exports the filtered orders as CSV without passwords, and deletes an order only after confirmation', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const refunded = await admin.get<AdminOrderPage>('/api/admin/orders?paymentStatus=refunded');
    const victim = refunded.orders[0];
    assert.ok(victim && refunded.total >= 2, 'the demo data has refunded orders');

    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard');
    await page.getByLabel('Payment status', { exact: true }).selectOption('refunded');
    await page.getByText(`Showing 1–${refunded.total} of ${refunded.total} orders`).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    assert.match(download.suggestedFilename(), /^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split(/\r?\n/);
    assert.equal(lines.length, refunded.total + 1, 'a header and one line per refunded order');
    assert.doesNotMatch(lines[0]!, /password/i);
    assert.ok(lines.slice(1).every((line) => line.includes(',refunded,')));

    // A status change says it is done.
    await page.getByLabel(`Order status of order #${shortOrderId(victim.id)}`).selectOption('processing');
    await page
      .locator('.toast')
      .getByText(`Order #${shortOrderId(victim.id)} is now Processing.`)
      .waitFor();
    assert.equal((await admin.get<Order>(`/api/admin/orders/${victim.id}`)).orderStatus, 'processing');

    const remove = page.getByRole('button', { name: `Delete order #${shortOrderId(victim.id)}` });
    await remove.click();
    const question = page.getByRole('dialog', { name: 'Delete order?' });
    await question.getByText('Are you sure you want to delete this order?').waitFor();
    // The question names the order, so nobody deletes the wrong one.
    await question.getByText(`Order #${shortOrderId(victim.id)}: ${victim.title}`).waitFor();
    await question.getByText(`${victim.userName} (${victim.userEmail})`, { exact: false }).waitFor();
    await question.getByRole('button', { name: 'Cancel', exact: true }).first().click();
    assert.equal((await fetch(`${e2e.server.url}/api/admin/orders/${victim.id}`, { headers: { authorization: `Bearer ${admin.token}` } })).status, 200);

    await remove.click();
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText(`Showing 1–${refunded.total - 1} of ${refunded.total - 1} orders`).waitFor();
    assert.equal((await fetch(`${e2e.server.url}/api/admin/orders/${victim.id}`, { headers: { authorization: `Bearer ${admin.token}` } })).status, 404);

    // So does a payment change.
    const next = refunded.orders[1]!;
    await page.getByLabel(`Payment status of order #${shortOrderId(next.id)}`).selectOption('failed');
    await page
      .locator('.toast')
      .getByText(`Payment of order #${shortOrderId(next.id)} is now Failed.`)
      .waitFor();
    assert.equal((await admin.get<Order>(`/api/admin/orders/${next.id}`)).paymentStatus, 'failed');
    await context.close();
  });

  it("opens, from each of the bell's counts, the order list showing exactly the orders it counted", async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const services = await customer.get<{ id: string; category: string; needsDetails?: boolean }[]>('/api/services');
    const service = services.find((candidate) => candidate.category !== 'wise' && !candidate.needsDetails) ?? services[0]!;
    // One order whose payment proof waits for a check, one paid and waiting for its delivery.
    const proofed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
    await customer.call('PUT', `/api/orders/${proofed.order.id}/payment-proof`, { transactionId: `E2E-${Date.now()}` });
    const paid = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
    await admin.call('PUT', `/api/admin/orders/${paid.order.id}`, { paymentStatus: 'paid' });

    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    for (const [text, attention, label] of [
      ['Paid orders waiting for delivery', 'delivery', 'Awaiting delivery'],
      ['Orders waiting for a payment check', 'payment-check', 'Payment proof to check'],
    ] as const) {
      const counted = await admin.get<AdminOrderPage>(`/api/admin/orders?attention=${attention}&limit=100`);
      assert.ok(counted.total >= 1, `the arranged orders give "${text}" something to count`);
      await page.getByRole('button', { name: 'Notifications' }).click();
      const link = page.getByRole('link', { name: new RegExp(`^${text}\\s*${counted.total}$`) });
      await link.waitFor({ timeout: 30_000 });
      await link.click();
      await page.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('attention') === attention);
      await page.getByText(new RegExp(`^Showing 1–${Math.min(counted.total, 10)} of ${counted.total} orders$`)).waitFor();
      const select = page.getByLabel('Needs staff');
      assert.equal(await select.locator('option:checked').textContent(), label);
    }
    // The filter is chosen with the keyboard too, and goes into the address.
    await page.getByLabel('Needs staff').selectOption({ label: 'All orders' });
    await page.waitForURL((url) => url.searchParams.get('attention') === null);
    await checkA11y(page);
    await context.close();
  });

  it("pages the list by the server's cursors: Next and Previous, the place kept in the address through a reload", async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const services = await customer.get<{ id: string; category: string; needsDetails?: boolean }[]>('/api/services');
    const service = services.find((candidate) => candidate.category !== 'wise' && !candidate.needsDetails) ?? services[0]!;
    const before = await admin.get<AdminOrderPage>('/api/admin/orders?limit=10');
    for (let i = before.total; i < 21; i++) await customer.call('POST', '/api/orders', { productId: service.id }, 201);
    const first = await admin.get<AdminOrderPage>('/api/admin/orders?limit=10');
    assert.ok(first.nextCursor, 'more than one page');
    const second = await admin.get<AdminOrderPage>(`/api/admin/orders?limit=10&page=2&cursor=${first.nextCursor}`);
    const shown = (order: Order) => `#${shortOrderId(order.id)}`;

    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    await page.getByText(shown(first.orders[0]!), { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Previous' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('cursor') === first.nextCursor);
    for (const order of [second.orders[0]!, second.orders.at(-1)!]) await page.getByText(shown(order), { exact: true }).waitFor();
    assert.equal(await page.getByText(shown(first.orders[0]!), { exact: true }).count(), 0, 'page 1 is gone');
    await checkA11y(page);
    await page.reload();
    await page.getByText(shown(second.orders[0]!), { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === null && url.searchParams.get('cursor') === null);
    await page.getByText(shown(first.orders[0]!), { exact: true }).waitFor();
    await context.close();
  });

  it('tells a signed-in customer who opens a dashboard address that it is not for them, and keeps them signed in', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, demoLogins.customer);
    const storedSession = () => page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY);
    assert.notEqual(await storedSession(), null, 'signed in, the session is kept on this device');
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'No access to the dashboard' }).waitFor();
    await page.getByText(`You are signed in as ${demoLogins.customer.email}.`, { exact: false }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard');
    assert.notEqual(await storedSession(), null, 'still signed in');
    await page.getByRole('link', { name: 'My Orders' }).click();
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();
    await context.close();
  });
});
