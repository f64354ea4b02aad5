import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { decryptPush, startPushService } from '../edge-api/src/testing/push-service.ts';
import { apiCall, apiSession, checkA11y, demoLogins, setUpServerAndBrowser, signIn, waitForServiceWorkerControl } from './harness.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';

/**
 * Issue 17 item 4 in the browser (decision 067): a push received by a subscribed page.
 *
 * This machine has no internet, so Chromium's PushManager cannot reach its push service (Google's). What
 * is real here: the notifications permission (granted to the context), the profile switch and its calls,
 * the server's public key, the subscription saved on the server, the staff delivery, the server's
 * encrypted message to the subscription's endpoint (a push-service stand-in on this machine), and the
 * page's own service worker showing the notification once Chromium delivers that message to it (the
 * DevTools Protocol's ServiceWorker.deliverPushMessage, the path a push service's message takes from the
 * browser on). What is replaced, in the page only: PushManager.subscribe/getSubscription answer a
 * subscription whose endpoint is the stand-in and whose keys this test holds, so it can decrypt the
 * message as the browser would. Sign-out is checked to remove that subscription on the server.
 */
const e2e = setUpServerAndBrowser({ PUSH_ALLOW_LOCAL_ENDPOINTS: '1' });
let pushService: Awaited<ReturnType<typeof startPushService>>;
before(async () => {
  // Any free port: a fixed one can be taken (the ephemeral range, where outgoing connections get theirs, covers most).
  pushService = await startPushService();
});
after(() => pushService?.close());

describe('web push', () => {
  it('the profile switch subscribes the device, a delivery by staff reaches its service worker as a notification, and sign-out removes it', async () => {
    const sub = pushService.subscription(`browser-${crypto.randomUUID()}`);
    const { pushPublicKey } = await apiCall<{ pushPublicKey: string | null }>(e2e.server.url, 'GET', '/api/config');
    assert.ok(pushPublicKey, 'embedded mode serves the VAPID public key it keeps in DATA_DIR');

    await e2e.withPage(async (page, context) => {
      await context.grantPermissions(['notifications'], { origin: e2e.server.url });
      // The browser's push channel (see above): a subscription on the stand-in, with this test's keys.
      await page.addInitScript(
        ({ endpoint, keys }) => {
          const made = () => sessionStorage.getItem('test-push-subscribed') === '1';
          const fake = {
            endpoint,
            expirationTime: null,
            options: { userVisibleOnly: true, applicationServerKey: null },
            toJSON: () => ({ endpoint, expirationTime: null, keys }),
            unsubscribe: async () => {
              sessionStorage.setItem('test-push-subscribed', '0');
              sessionStorage.setItem('test-push-unsubscribed', '1');
              return true;
            },
          };
          PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
            const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
            sessionStorage.setItem(
              'test-push-key',
              btoa(String.fromCharCode(...key))
                .replace(/\+/g, '-')
                .replace(/\//g, '_')
                .replace(/=+$/, ''),
            );
            sessionStorage.setItem('test-push-visible', String(options?.userVisibleOnly));
            sessionStorage.setItem('test-push-subscribed', '1');
            return fake as unknown as PushSubscription;
          };
          PushManager.prototype.getSubscription = async () => (made() ? (fake as unknown as PushSubscription) : null);
        },
        { endpoint: sub.endpoint, keys: sub.keys },
      );

      await page.setViewportSize({ width: 412, height: 915 });
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'Notifications' });
      const toggle = card.getByRole('switch', { name: 'Notifications on this device' });
      await card.getByText('Off on this device.').waitFor({ timeout: 30_000 });
      assert.equal(await toggle.isChecked(), false);
      assert.equal(await page.evaluate(() => Notification.permission), 'granted');
      await checkA11y(page);

      await toggle.click();
      await card.getByText('On for this device.').waitFor({ timeout: 30_000 });
      assert.equal(await toggle.isChecked(), true);
      // Subscribed with the key the server serves at run time, for visible notifications only.
      assert.equal(await page.evaluate(() => sessionStorage.getItem('test-push-key')), pushPublicKey);
      assert.equal(await page.evaluate(() => sessionStorage.getItem('test-push-visible')), 'true');
      await page.setViewportSize({ width: 820, height: 1180 });
      await checkA11y(page);

      // Staff deliver an order of this customer: the server encrypts a message to the saved subscription.
      const [admin, customer] = await Promise.all([apiSession(e2e.server.url, demoLogins.admin), apiSession(e2e.server.url, demoLogins.customer)]);
      const services = await apiCall<Service[]>(e2e.server.url, 'GET', '/api/services');
      const service = services.find((candidate) => candidate.category !== 'wise' && !candidate.needsDetails) ?? services[0]!;
      const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
      const orderId = placed.order.id;
      const password = `Push-E2E-${crypto.randomUUID().slice(0, 8)}`;
      await admin.call('PUT', `/api/admin/orders/${orderId}`, {
        paymentStatus: 'paid',
        orderStatus: 'delivered',
        wiseEmail: 'push@wise.test',
        wisePassword: password,
      });
      const received = await pushService.next(sub);
      assert.equal(received.headers['content-encoding'], 'aes128gcm');
      assert.ok(String(received.headers.authorization).endsWith(`k=${pushPublicKey}`), 'signed with the shop’s VAPID key');
      const message = decryptPush(received, sub) as { title: string; body: string; url: string; tag: string };
      assert.equal(message.title, 'Order delivered');
      assert.equal(message.url, `/my-orders#order-${orderId}`);
      assert.ok(!JSON.stringify(message).includes(password), 'no credential in a push message');

      // Chromium hands the message to the page's service worker, which shows it.
      const cdp = await context.newCDPSession(page);
      const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: typeof registrations }) => registrations.push(...event.registrations));
      await cdp.send('ServiceWorker.enable');
      const origin = new URL(e2e.server.url).origin;
      const deadline = Date.now() + 10_000;
      while (!registrations.some((r) => r.scopeURL === `${origin}/` && !r.isDeleted) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const registration = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      assert.ok(registration, 'the page has a service worker registration');
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registration.registrationId, data: JSON.stringify(message) });
      // The worker shows it in its own time: asked until it is there (the test's timeout bounds the wait).
      const shown = await page.evaluate(async () => {
        const worker = await navigator.serviceWorker.ready;
        for (;;) {
          const all = await worker.getNotifications();
          if (all.length > 0) return all.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url?: string } | null)?.url }));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      });
      assert.deepEqual(shown, [{ title: 'Order delivered', body: message.body, tag: `order-${orderId}`, url: `/my-orders#order-${orderId}` }]);

      // A url that names another site (`//host`, `/\host`, or not a path) is not kept: a click opens home.
      for (const [n, url] of ['//evil.example/x', '/\\evil.example/x', 'https://evil.example/'].entries()) {
        await cdp.send('ServiceWorker.deliverPushMessage', {
          origin,
          registrationId: registration.registrationId,
          data: JSON.stringify({ title: 'Hostile', body: 'x', url, tag: `hostile-${n}` }),
        });
      }
      const hostile = await page.evaluate(async () => {
        const worker = await navigator.serviceWorker.ready;
        for (;;) {
          const all = (await worker.getNotifications()).filter((n) => n.tag.startsWith('hostile-'));
          if (all.length === 3) return all.map((n) => (n.data as { url?: string } | null)?.url);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      });
      assert.deepEqual(hostile, ['/', '/', '/']);

      // The page a click opens shows the order.
      await page.goto(message.url);
      await page
        .locator(`#order-${orderId}`)
        .getByText(`#${shortOrderId(orderId)}`, { exact: true })
        .waitFor({ timeout: 30_000 });

      // Sign-out removes the device's subscription on the server and in the browser.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.waitForFunction(() => sessionStorage.getItem('test-push-unsubscribed') === '1', undefined, { timeout: 30_000 });
      const again = await customer.call<{ removed: boolean }>('DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint });
      assert.deepEqual(again, { removed: false }, 'the server no longer holds it');
    });
  });
});
