import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { apiSession, checkA11yAtBoth, demoLogins, goOffline, goOnline, PHONE, setUpServerAndBrowser, signIn, waitForServiceWorkerControl } from './harness.ts';

/**
 * Issue 33, item 6 (decision 040): the "session ended" banner clears itself once the server takes the
 * session again and the queued changes are sent, and /login (or /register) never sends an ended session
 * away: it shows the form, so the person can sign in again.
 */
const e2e = setUpServerAndBrowser();
const slow = { timeout: 240_000 };
const ENDED_BANNER = 'Your session has ended.';

/** Polls `probe` until it answers something truthy (at most 30 s). */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** How many changes wait in this device's outbox, read with the raw IndexedDB API. */
function queued(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const name = (await indexedDB.databases()).map((db) => db.name ?? '').find((n) => n.startsWith('storefront-user-'));
    if (!name) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const request = db.transaction('outbox', 'readonly').objectStore('outbox').count();
        request.onsuccess = () => {
          db.close();
          resolve(request.result);
        };
        request.onerror = () => reject(request.error);
      };
    });
  });
}

/**
 * What the app keeps when the API refused the session supabase-js still holds (reportSessionEnded): the
 * user and the expiry of that session. Written here as the app writes it, so that the next start meets a
 * session the app believes ended while the server in fact still takes it (a refusal that did not last).
 */
function markSessionEnded(page: Page): Promise<void> {
  return page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('storefront:auth')!) as { expires_at: number; user: { id: string } };
    localStorage.setItem('storefront:session-ended', JSON.stringify({ id: session.user.id, expiresAt: session.expires_at }));
  });
}

describe('an ended session', () => {
  it('is not sent away from /login or /register, and its banner clears itself once the queued order is sent', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.setViewportSize(PHONE);
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 30_000 });

      // A change made offline waits in the queue.
      await goOffline(context);
      await page.goto('/services');
      await page
        .getByRole('link', { name: /^View Details/ })
        .first()
        .click();
      await page.getByRole('button', { name: 'Place Order Now' }).click();
      await page.getByRole('dialog', { name: 'Confirm your order' }).getByRole('button', { name: 'Confirm Order' }).click();
      await page.getByText('Your order is saved and will be sent when you are back online.').waitFor();
      assert.equal(await queued(page), 1);

      // The session was refused (the app says so from the first render), and the sign-in screens show their form.
      await markSessionEnded(page);
      for (const path of ['/login', '/register']) {
        await page.goto(path);
        await page.getByText(ENDED_BANNER).waitFor();
        await page.getByRole('button', { name: path === '/login' ? 'Sign In' : 'Create Account' }).waitFor();
        await page.waitForTimeout(500);
        assert.equal(new URL(page.url()).pathname, path, `${path} keeps an ended session on its form`);
      }
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      await checkA11yAtBoth(page, PHONE);

      // Back online, the server takes the session after all: the order goes, and the banner clears itself.
      await goOnline(context);
      await page.goto('/my-orders');
      await eventually(async () => (await queued(page)) === 0, 'the queued order to be sent');
      await page.getByText(ENDED_BANNER).waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal(await page.evaluate(() => localStorage.getItem('storefront:session-ended')), null, 'the mark is gone');
      await page.reload();
      await page.getByText('Payment Pending').first().waitFor({ timeout: 30_000 });
      assert.equal(await page.getByText(ENDED_BANNER).count(), 0, 'a reload does not bring the banner back');
    });
  });

  it('a session ended elsewhere: a fresh load of /login shows the form, and signing in again clears the banner', slow, async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 30_000 });
      // Sign Out Other Devices, from another device: this device's session ends on the auth server.
      const config = (await (await fetch(`${e2e.server.url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
      const other = await apiSession(e2e.server.url, demoLogins.customer);
      const ended = await fetch(new URL('/auth/v1/logout?scope=others', config.supabaseUrl || e2e.server.url), {
        method: 'POST',
        headers: { apikey: config.supabaseAnonKey, authorization: `Bearer ${other.token}` },
      });
      assert.equal(ended.status, 204);
      // The API remembers a live session for 5 s (decision 045).
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      await page.reload();
      await page.getByText(ENDED_BANNER).waitFor({ timeout: 30_000 });

      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      await page.waitForTimeout(1000);
      assert.equal(new URL(page.url()).pathname, '/login');
      await page.getByLabel('Email Address').fill(demoLogins.customer.email);
      await page.getByLabel('Password', { exact: true }).fill(demoLogins.customer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 30_000 });
      assert.equal(await page.getByText(ENDED_BANNER).count(), 0);
    });
  });
});
