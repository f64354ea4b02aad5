import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ApiOrder, ApiService, CreatedApiKey } from '../edge-api/src/contract/partners.ts';
import { apiSession, checkA11yAtBoth, demoLogins, PHONE, setUpServerAndBrowser, signIn } from './harness.ts';

/**
 * Decision 225 in the browser: an admin on a phone sees a webhook delivery's attempts (the receiver first
 * answered 500, then 200) and resends it; the receiver gets the same webhook-id once more and the list shows
 * the new attempt. WEBHOOK_TEST_HOSTS names the receiver's host (off unless set).
 */
const e2e = setUpServerAndBrowser({ WEBHOOK_TEST_HOSTS: 'localhost' });

/** The webhook-id of every post the receiver got, in order, with its answer. */
const posts: { id: string; answered: number }[] = [];
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const id = String(request.headers['webhook-id']);
    const answered = posts.some((post) => post.id === id) ? 200 : 500;
    posts.push({ id, answered });
    response.writeHead(answered).end();
  });
});
before(() => new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done())));
after(() => new Promise<void>((done) => receiver.close(() => done())));

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 600 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(check(), what);
}

describe('webhook deliveries', () => {
  it(
    'an admin on a phone sees a delivery refused once then taken, resends it, and the receiver gets the same webhook-id again',
    { timeout: 240_000 },
    async () => {
      const admin = await apiSession(e2e.server.url, demoLogins.admin);
      const moderator = await apiSession(e2e.server.url, demoLogins.moderator);
      const customer = await apiSession(e2e.server.url, demoLogins.customer);
      const made = await admin.call<CreatedApiKey>(
        'POST',
        '/api/admin/api-keys',
        { userId: customer.userId, name: 'Resend check', scopes: ['services:read', 'orders:write', 'orders:read'] },
        201,
      );
      const v1 = (method: string, path: string, json?: unknown) =>
        fetch(`${e2e.server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${made.secret}`, ...(json ? { 'content-type': 'application/json' } : {}) },
          body: json ? JSON.stringify(json) : undefined,
        });
      const url = `http://localhost:${(receiver.address() as AddressInfo).port}/resend-hook`;
      assert.equal((await v1('POST', '/api/v1/webhooks', { url, events: ['order.paid'] })).status, 201);
      const services = (await (await v1('GET', '/api/v1/services')).json()) as ApiService[];
      const placed = (await (await v1('POST', '/api/v1/orders', { productId: services.find((s) => !s.needsDetails)!.id })).json()) as ApiOrder;
      await moderator.call('PUT', `/api/admin/orders/${placed.id}`, { paymentStatus: 'paid' });
      // 500 first, then the retry (5 s later, on the Node entry's 10 s timer) is taken.
      await until(() => posts.some((post) => post.answered === 200), 'the retry taken by the receiver');
      const id = posts[0]!.id;

      await e2e.withPage(async (page) => {
        await page.setViewportSize(PHONE);
        await signIn(page, demoLogins.admin);
        await page.goto('/dashboard/api-keys');
        await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
        const endpoint = page.getByRole('listitem').filter({ hasText: url });
        const row = endpoint.getByRole('row').filter({ hasText: `#${placed.id.slice(-8)}` });
        await row.getByText('500, 200', { exact: true }).waitFor();
        await row.getByText('delivered', { exact: true }).waitFor();
        await checkA11yAtBoth(page, PHONE);

        await row.getByRole('button', { name: `Resend the order.paid delivery of order #${placed.id.slice(-8)}` }).click();
        await until(() => posts.filter((post) => post.id === id).length === 3, 'the resent post');
        // The list, read again once the attempt is recorded: one attempt more, delivered again.
        for (let i = 0; i < 30 && (await row.getByText('500, 200, 200', { exact: true }).count()) === 0; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
        }
        await row.getByText('500, 200, 200', { exact: true }).waitFor();
        await row.getByText('delivered', { exact: true }).waitFor();
        await checkA11yAtBoth(page, PHONE);
      });
      assert.deepEqual(
        posts.filter((post) => post.id === id).map((post) => post.answered),
        [500, 200, 200],
      );
    },
  );
});
