import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiOrder, ApiService } from '../edge-api/src/contract/partners.ts';
import { apiSession, checkA11yAtBoth, demoLogins, orderDeliveredToCustomer, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';

/** Issue 27 item 2 in the browser: an admin makes a reseller key on a tablet, the key places and reads orders, the admin revokes it. */
const e2e = setUpServerAndBrowser();

const v1 = (key: string, method: string, path: string, json?: unknown) =>
  fetch(`${e2e.server.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });

describe('API keys', () => {
  it('an admin makes a key shown once; it places an order and reads a delivery; revoked, it is refused at once', async () => {
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const delivered = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'api-read@example.test', wisePassword: 'Pw-api-read-1' });
    await e2e.withPage(async (page) => {
      page.on('dialog', (dialog) => void dialog.accept());
      await page.setViewportSize(TABLET);
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/api-keys');
      await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
      const form = page.getByRole('form', { name: 'New API Key' });
      await form.getByRole('button', { name: 'Make Key' }).click();
      await form.getByText('Choose the account the key acts as').waitFor();
      await form.getByLabel('Account').selectOption({ label: (await form.getByLabel('Account').locator('option', { hasText: demoLogins.customer.email }).textContent())! });
      await form.getByLabel('Name').fill('Reseller bot');
      await form.getByRole('button', { name: 'Make Key' }).click();
      const shown = page.getByRole('status').filter({ hasText: 'Copy the key for Reseller bot now' });
      const key = (await shown.locator('code').textContent())!.trim();
      assert.match(key, /^sk_[A-Za-z0-9_-]{43}$/);
      await page.getByRole('listitem').filter({ hasText: 'Reseller bot' }).getByText('Active').waitFor();
      await checkA11yAtBoth(page, TABLET);

      // The key, as a reseller's program uses it.
      const services = (await (await v1(key, 'GET', '/api/v1/services')).json()) as ApiService[];
      const service = services.find((s) => !s.needsDetails)!;
      const placed = await v1(key, 'POST', '/api/v1/orders', { productId: service.id });
      assert.equal(placed.status, 201);
      const order = (await placed.json()) as ApiOrder;
      assert.equal(order.price, service.price);
      const read = (await (await v1(key, 'GET', `/api/v1/orders/${delivered}`)).json()) as ApiOrder;
      assert.deepEqual(read.delivery, { kind: 'account', sealed: true, email: 'api-read@example.test' });
      const mine = await customer.get<{ id: string }[]>(`/api/orders/user/${customer.userId}`);
      assert.ok(mine.some((o) => o.id === order.id), "the key's order is the account's");

      // A page read later never shows the secret again.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
      assert.equal(await page.getByText(key).count(), 0);
      await page.getByRole('button', { name: 'Revoke Reseller bot' }).first().click();
      await page.getByText('Reseller bot revoked').waitFor();
      assert.equal((await v1(key, 'GET', '/api/v1/services')).status, 401);
    });
  });
});
