import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ApiOrder, ApiService } from '../edge-api/src/contract/partners.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { apiSession, checkA11yAtBoth, demoLogins, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';

/**
 * Issue 27 items 2 and 3 in the browser: an admin makes a reseller key on a tablet; the key places an order,
 * reads its delivery and registers a webhook a receiver on this machine gets; the admin sees the delivery's
 * attempts and revokes the key. WEBHOOK_TEST_HOSTS names the receiver's host (off unless set).
 */
const e2e = setUpServerAndBrowser({ WEBHOOK_TEST_HOSTS: 'localhost' });

const events: string[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    events.push((JSON.parse(body) as { type: string }).type);
    response.writeHead(200).end();
  });
});
before(() => new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done())));
after(() => new Promise<void>((done) => receiver.close(() => done())));

const v1 = (key: string, method: string, path: string, json?: unknown) =>
  fetch(`${e2e.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(check(), what);
}

describe('API keys', () => {
  it('an admin makes a key shown once; it orders, reads a delivery and gets webhooks; revoked, it is refused at once', async () => {
    const moderator = await apiSession(e2e.server.url, demoLogins.moderator);
    await e2e.withPage(async (page) => {
      page.on('dialog', (dialog) => void dialog.accept());
      await page.setViewportSize(TABLET);
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/api-keys');
      await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
      const form = page.getByRole('form', { name: 'New API Key' });
      await form.getByRole('button', { name: 'Make Key' }).click();
      await form.getByText('Choose the account the key acts as').waitFor();
      await form
        .getByLabel('Account')
        .selectOption({ label: (await form.getByLabel('Account').locator('option', { hasText: demoLogins.customer.email }).textContent())! });
      await form.getByLabel('Name').fill('Partner shop');
      await form.getByRole('button', { name: 'Make Key' }).click();
      const shown = page.getByRole('status').filter({ hasText: 'Copy the key for Partner shop now' });
      const key = (await shown.locator('code').textContent())!.trim();
      assert.match(key, /^sk_[A-Za-z0-9_-]{43}$/);
      await page.getByRole('listitem').filter({ hasText: 'Partner shop' }).getByText('Active').waitFor();
      await checkA11yAtBoth(page, TABLET);

      // The key, as a reseller's program uses it.
      const port = (receiver.address() as AddressInfo).port;
      const hook = await v1(key, 'POST', '/api/v1/webhooks', { url: `http://localhost:${port}/hook`, events: ['order.paid', 'order.delivered'] });
      assert.equal(hook.status, 201);
      assert.equal((await v1(key, 'POST', '/api/v1/webhooks', { url: 'https://10.0.0.1/hook', events: ['order.paid'] })).status, 400);
      const services = (await (await v1(key, 'GET', '/api/v1/services')).json()) as ApiService[];
      // One that delivers an account (typed below) and asks no details.
      const kinds = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
      const service = services.find((s) => !s.needsDetails && (kinds.find((k) => k.id === s.id)?.deliveryKind ?? 'account') === 'account')!;
      assert.ok(service, 'a demo service that delivers an account');
      const placed = await v1(key, 'POST', '/api/v1/orders', { productId: service.id });
      assert.equal(placed.status, 201);
      const order = (await placed.json()) as ApiOrder;
      assert.equal(order.price, service.price);
      await moderator.call('PUT', `/api/admin/orders/${order.id}`, {
        paymentStatus: 'paid',
        orderStatus: 'delivered',
        wiseEmail: 'api-read@example.test',
        wisePassword: 'Pw-api-read-1',
      });
      const read = (await (await v1(key, 'GET', `/api/v1/orders/${order.id}`)).json()) as ApiOrder;
      assert.deepEqual(read.delivery, { kind: 'account', sealed: true, email: 'api-read@example.test' });
      await until(() => events.length >= 2, 'the receiver got the paid and delivered events');
      assert.deepEqual([...events].sort(), ['order.delivered', 'order.paid']);

      // A page read later never shows the secret again, and shows what was sent.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
      assert.equal(await page.getByText(key).count(), 0);
      const endpoint = page.getByRole('listitem').filter({ hasText: `http://localhost:${port}/hook` });
      await endpoint.getByRole('row').filter({ hasText: 'order.delivered' }).getByText('delivered', { exact: true }).waitFor();
      await checkA11yAtBoth(page, TABLET);
      await page.getByRole('button', { name: 'Revoke Partner shop', exact: true }).click();
      await page.getByText('Partner shop revoked').waitFor();
      assert.equal((await v1(key, 'GET', '/api/v1/services')).status, 401);
    });
  });
});
