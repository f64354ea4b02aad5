import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../edge-api/src/contract/settings.ts';
import { apiSession, checkA11y, demoLogins, goOffline, goOnline, setUpServerAndBrowser, signIn, waitForServiceWorkerControl } from './harness.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';

/**
 * Issue 17 items 2 and 3 in the browser: the order summary with its payment instructions and a required
 * note, the instructions and proof on the order card (online and offline), staff seeing the note and a
 * reused proof flagged, and a customer cancelling a pending order.
 */
const e2e = setUpServerAndBrowser();

/** A 1x1 PNG, as a phone would attach a payment screenshot. */
const screenshotPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const ADDRESS = '01711-000111';
const ACCOUNT = 'Demo Shop Ltd';

/** A service that takes a payment method, made to need details, with instructions for its first method. */
async function prepareShop() {
  const admin = await apiSession(e2e.server.url, demoLogins.admin);
  const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
  const service = services.find((candidate) => candidate.paymentMethods.length > 0)!;
  assert.ok(service, 'a service with payment methods');
  const { id, createdAt: _c, updatedAt: _u, ...fields } = service;
  const updated = await admin.call<Service>('PUT', `/api/services/${id}`, {
    ...fields,
    needsDetails: true,
    detailsHint: 'Full name and address for the document',
  });
  const method = updated.paymentMethods[0]!;
  const settings = await admin.get<SiteSettings>('/api/settings');
  // The QR picture, uploaded as the settings screen uploads it.
  const form = new FormData();
  form.set('kind', 'service');
  form.set('file', new File([screenshotPng], 'qr.png', { type: 'image/png' }));
  const upload = await fetch(`${e2e.server.url}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
  assert.equal(upload.status, 201);
  const qrImage = ((await upload.json()) as { url: string }).url;
  await admin.call('PUT', '/api/settings', {
    ...settings,
    paymentInstructions: [{ method, address: ADDRESS, accountName: ACCOUNT, qrImage, instructions: 'Use Send Money, then send the transaction id below.' }],
  });
  return { admin, service: updated, method };
}

describe('ordering with a note, paying with instructions and a proof, cancelling', () => {
  it('runs the whole flow as a customer and as staff', async () => {
    const { admin, service } = await prepareShop();
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const ownOrders = () => customer.get<Order[]>(`/api/orders/user/${customer.userId}`);
    const before = new Set((await ownOrders()).map((order) => order.id));

    await e2e.withPage(async (page, context) => {
      await page.setViewportSize({ width: 412, height: 915 });
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);

      // 1. The summary: service, price, delivery, the method's instructions; the note is required.
      const placeWithNote = async (note: string) => {
        await page.goto(`/service-details/${service.id}`);
        await page.getByRole('heading', { level: 1, name: service.title }).waitFor();
        await page.getByRole('button', { name: 'Place Order Now' }).click();
        const dialog = page.getByRole('dialog', { name: 'Confirm your order' });
        await dialog.waitFor();
        await dialog.getByText(`$${service.price} USD`).waitFor();
        await dialog.getByText('Expected Delivery').waitFor();
        await dialog.getByText(ADDRESS).waitFor();
        await dialog.getByText(ACCOUNT).waitFor();
        await dialog.getByRole('img', { name: /payment QR code$/ }).waitFor();
        await dialog.getByText('Full name and address for the document').waitFor();
        await dialog.getByRole('button', { name: 'Confirm Order' }).click();
        await dialog.getByText('This service needs details from you: please write them in the note.').waitFor();
        await dialog.getByLabel('Details for the shop (required)').fill(note);
        await dialog.getByRole('button', { name: 'Confirm Order' }).click();
        await page.getByText('Order placed successfully!').waitFor({ state: 'visible', timeout: 15_000 });
        await page.waitForURL('**/my-orders');
        const placed = (await ownOrders()).find((order) => !before.has(order.id) && order.note === note);
        assert.ok(placed, 'the order reached the server with its note');
        before.add(placed.id);
        return placed;
      };
      const first = await placeWithNote('Jane Doe, 1 Main Street');
      assert.equal(first.paymentMethod, service.paymentMethods[0]);

      // 2. The card: the note, the instructions with copy buttons, a proof sent with a screenshot.
      const cardOf = (order: Order) => page.locator('article').filter({ has: page.getByText(`#${shortOrderId(order.id)}`, { exact: true }) });
      const card = cardOf(first);
      await card.getByText('Jane Doe, 1 Main Street').waitFor();
      await card.getByText(ADDRESS).waitFor();
      await card.getByRole('button', { name: /^Copy .* number$/ }).waitFor();
      await card.getByRole('button', { name: 'Copy account name' }).waitFor();
      assert.equal(
        await card.getByRole('img', { name: /payment QR code$/ }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        true,
        'the QR picture loads',
      );
      const transactionId = `TRX${Date.now()}`;
      await card.getByLabel('Transaction ID').fill(transactionId);
      await card.getByLabel('Payment screenshot').setInputFiles({ name: 'paid.png', mimeType: 'image/png', buffer: screenshotPng });
      await card.getByRole('button', { name: 'Send Proof' }).click();
      await page.getByText('Payment proof sent. The shop will check it and mark your order paid.').waitFor({ timeout: 15_000 });
      await card.getByText(transactionId).waitFor();
      await card.getByRole('link', { name: 'View the screenshot you sent (opens in a new tab)' }).waitFor({ timeout: 15_000 });
      assert.equal(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
        true,
        'the card fits a 412 px screen',
      );
      await card.screenshot({ path: 'test-results/order-payment-card-412.png' });
      await checkA11y(page);

      // 3. A second order, its proof sent offline (queued in the outbox) with the same id and screenshot.
      const second = await placeWithNote('John Roe, 2 Side Road');
      const secondCard = cardOf(second);
      await secondCard.getByText(ADDRESS).waitFor();
      await goOffline(context);
      await secondCard.getByLabel('Transaction ID').fill(transactionId);
      await secondCard.getByLabel('Payment screenshot').setInputFiles({ name: 'paid-again.png', mimeType: 'image/png', buffer: screenshotPng });
      await secondCard.getByRole('button', { name: 'Send Proof' }).click();
      await page.getByText('Your payment proof is saved and will be sent when you are back online.').waitFor();
      await secondCard.getByText('Waiting to sync', { exact: true }).waitFor();
      await goOnline(context);
      await secondCard.getByText('Waiting to sync', { exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
      const seen = await admin.get<Order>(`/api/admin/orders/${second.id}`);
      assert.equal(seen.paymentProof?.transactionId, transactionId);
      assert.deepEqual(seen.paymentProof?.reusedTransactionIdOn, [first.id]);
      assert.deepEqual(seen.paymentProof?.reusedScreenshotOn, [first.id]);

      // 4. The customer cancels the second order; the server has it cancelled.
      await secondCard.getByRole('button', { name: 'Cancel Order' }).click();
      const question = page.getByRole('dialog', { name: 'Cancel this order?' });
      await question.waitFor();
      await checkA11y(page);
      await question.getByRole('button', { name: 'Cancel Order' }).click();
      await page.getByText('Order cancelled.').waitFor({ timeout: 15_000 });
      await secondCard.getByText('Cancelled', { exact: true }).waitFor();
      assert.equal(await secondCard.getByRole('button', { name: 'Cancel Order' }).count(), 0);
      assert.equal((await admin.get<Order>(`/api/admin/orders/${second.id}`)).orderStatus, 'cancelled');

      // 5. Payment Failed says what to do next; a paid order offers neither instructions nor cancel.
      await admin.call('PUT', `/api/admin/orders/${first.id}`, { paymentStatus: 'failed' });
      await page.getByRole('button', { name: 'Refresh Orders' }).click();
      await card.getByText(/We could not confirm your payment\./).waitFor({ timeout: 15_000 });
      await checkA11y(page);
      await admin.call('PUT', `/api/admin/orders/${first.id}`, { paymentStatus: 'paid' });
      await page.getByRole('button', { name: 'Refresh Orders' }).click();
      await card.getByText(ADDRESS).waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(await card.getByRole('button', { name: 'Cancel Order' }).count(), 0);
    });

    // 6. Staff see the note, the proof and the reuse flags on the order.
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.moderator);
      const orders = (await admin.get<Order[]>(`/api/orders/user/${customer.userId}`)).filter((order) => order.note === 'John Roe, 2 Side Road');
      const second = orders[0]!;
      for (const width of [412, 820]) {
        await page.setViewportSize({ width, height: width === 412 ? 915 : 1180 });
        await page.goto('/dashboard');
        await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor({ timeout: 30_000 });
        await page.getByLabel('Search', { exact: true }).fill(second.id);
        await page.getByText('Showing 1–1 of 1 orders').waitFor({ timeout: 15_000 });
        const details = page.getByTestId('customer-payment-details');
        await details.getByText('John Roe, 2 Side Road').waitFor();
        await details.getByText(/^Cancelled by the customer/).waitFor();
        await details.getByText(/This transaction ID was already used on #/).waitFor();
        await details.getByText(/The same screenshot was already sent for #/).waitFor();
        await details.getByRole('link', { name: /Payment screenshot/ }).waitFor();
        await checkA11y(page);
      }
    });
  });
});
