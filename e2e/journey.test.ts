import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { AdminOrderPage, Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { apiCall, apiSession, checkA11y, demoLogins, launchBrowser, newContext, signIn, startServer, useDemoLoginsOf, type AppServer } from './harness.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';

/**
 * The journey every deployment must carry: a customer orders, an admin delivers with a proof image, the
 * customer reads the credentials and opens the proof. Against the Node entry (`npm run test:e2e`), or
 * against a running deployment named by E2E_BASE_URL (`npm run test:workers`: the worker under workerd,
 * with Supabase Auth and Storage stood in for by the Node entry's embedded auth).
 */
let server: AppServer | { url: string; stop(): Promise<void> };
let browser: Browser;

before(async () => {
  server = process.env.E2E_BASE_URL ? { url: process.env.E2E_BASE_URL.replace(/\/+$/, ''), stop: async () => {} } : await startServer();
  // A deployment's demo logins are those of the data directory that seeded it (the Supabase stand-in's).
  if (process.env.E2E_DEMO_DATA_DIR) await useDemoLoginsOf(process.env.E2E_DEMO_DATA_DIR);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A 1x1 PNG, as a phone would upload a screenshot. */
const proofPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('a customer orders and an admin delivers', () => {
  it('places an order, delivers typed credentials with a proof image, and shows them and the proof to the customer', async () => {
    const services = await apiCall<Service[]>(server.url, 'GET', '/api/services');
    const service = services.find((candidate) => candidate.category === 'wise');
    assert.ok(service, 'a Wise service to order');

    // The customer orders from the service page.
    const customerContext = await newContext(browser, server.url);
    const customerPage = await customerContext.newPage();
    await signIn(customerPage, demoLogins.customer);
    await customerPage.goto(`/service-details/${service.id}`);
    await customerPage.getByRole('heading', { level: 1, name: service.title }).waitFor();
    await customerPage.getByRole('button', { name: 'Place Order Now' }).click();
    await customerPage.getByRole('dialog', { name: 'Confirm your order' }).getByRole('button', { name: 'Confirm Order' }).click();
    await customerPage.getByText('Order placed successfully!').waitFor({ state: 'visible', timeout: 15_000 });
    await customerPage.waitForURL('**/my-orders');
    await customerPage.getByText('Payment Pending').first().waitFor();
    await checkA11y(customerPage);

    const customer = await apiSession(server.url, demoLogins.customer);
    const own = await customer.get<Order[]>(`/api/orders/user/${customer.userId}`);
    const order = own.find((candidate) => candidate.productId === service.id && candidate.paymentStatus === 'pending');
    assert.ok(order, 'the order reached the server');

    // The admin finds it and delivers, with a proof image.
    const adminContext = await newContext(browser, server.url);
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, demoLogins.admin);
    await adminPage.goto('/dashboard');
    await adminPage.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    await adminPage.getByLabel('Search', { exact: true }).fill(order.id);
    await adminPage.getByText('Showing 1–1 of 1 orders').waitFor();
    await adminPage.getByLabel(`Payment status of order #${shortOrderId(order.id)}`).selectOption('paid');
    const modal = adminPage.getByRole('dialog', { name: 'Add WISE Credentials' });
    await modal.waitFor();
    const wiseEmail = `journey.${Date.now()}@wise.test`;
    const wisePassword = 'Journey#Delivery-1';
    await modal.getByLabel('WISE Email').fill(wiseEmail);
    await modal.getByLabel('WISE Password').fill(wisePassword);
    await modal.getByLabel('Proof image (optional)').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: proofPng });
    await modal.getByRole('img', { name: 'Proof image to deliver' }).waitFor();
    await checkA11y(adminPage);
    await modal.getByRole('button', { name: 'Approve & Deliver' }).click();
    await adminPage.getByText('Order updated successfully with WISE credentials!').waitFor();
    await adminContext.close();

    const admin = await apiSession(server.url, demoLogins.admin);
    const listed = await admin.get<AdminOrderPage>(`/api/admin/orders?search=${order.id}`);
    assert.equal(listed.orders[0]?.orderStatus, 'delivered');
    assert.equal(listed.orders[0]?.wiseEmail, wiseEmail);

    // The customer sees the credentials, masked until revealed, and the proof image loads.
    await customerPage.reload();
    await customerPage.getByText(wiseEmail).first().waitFor({ timeout: 30_000 });
    const panel = customerPage.getByRole('region', { name: `Credentials for ${service.title}` }).filter({ hasText: wiseEmail });
    await panel.getByRole('button', { name: 'Show password' }).click();
    await panel.getByText(wisePassword).waitFor();
    const proof = panel.getByRole('img').first();
    await proof.waitFor();
    await customerPage.waitForFunction(
      (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
      await proof.elementHandle(),
    );
    const delivered = (await customer.get<Order[]>(`/api/orders/user/${customer.userId}`)).find((candidate) => candidate.id === order.id);
    assert.equal(delivered?.wisePassword, wisePassword);
    assert.match(delivered?.wiseImage ?? '', /^\/files\/order-proofs\/[\w-]+\.png\?expires=\d+&sig=/);
    await checkA11y(customerPage);
    await customerContext.close();
  });
});
