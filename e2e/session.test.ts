import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { apiSession, databaseNames, demoLogins, goOffline, goOnline, setUpServerAndBrowser, signIn, waitForServiceWorkerControl } from './harness.ts';

/**
 * Issue 11, items 1 and 2: an old token never locks a customer out of the device copy, and a session the
 * auth server ended keeps the user's data and queued changes until they sign in again.
 */
const e2e = setUpServerAndBrowser();
const slow = { timeout: 180_000 };
const SESSION_KEY = 'storefront:auth';

/** Polls `probe` until it answers something truthy (at most 20 s). */
async function eventually<T>(probe: () => Promise<T | undefined | false>, what = 'the condition'): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Makes the stored session's access token look an hour past its lifetime (what a device sees after an hour away). */
function ageStoredSession(page: Page, refreshToken?: string): Promise<void> {
  return page.evaluate(
    ([key, refresh]) => {
      const session = JSON.parse(localStorage.getItem(key!)!) as { expires_at: number; refresh_token: string };
      session.expires_at = Math.floor(Date.now() / 1000) - 3600;
      if (refresh) session.refresh_token = refresh;
      localStorage.setItem(key!, JSON.stringify(session));
    },
    [SESSION_KEY, refreshToken] as const,
  );
}

const storedExpiry = (page: Page) =>
  page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? 'null') as { expires_at?: number } | null)?.expires_at ?? null, SESSION_KEY);

/** The queued changes of this device's user database, read with the raw IndexedDB API. */
function outbox(page: Page): Promise<{ name: string; status: string }[]> {
  return page.evaluate(async () => {
    const name = (await indexedDB.databases()).map((db) => db.name ?? '').find((n) => n.startsWith('storefront-user-'));
    if (!name) return [];
    return new Promise<{ name: string; status: string }[]>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('outbox')) {
          db.close();
          resolve([]);
          return;
        }
        const request = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
        request.onsuccess = () => {
          db.close();
          resolve(request.result as { name: string; status: string }[]);
        };
        request.onerror = () => reject(request.error);
      };
    });
  });
}

/** Places an order for the first service while offline; it waits in the outbox. */
async function placeOrderOffline(page: Page): Promise<string> {
  await page.goto('/services');
  const link = page.getByRole('link', { name: /^View Details/ }).first();
  await link.waitFor();
  await link.click();
  await page.waitForURL('**/service-details/**');
  await page.getByRole('button', { name: 'Place Order Now' }).waitFor();
  const title = (await page.getByRole('heading', { level: 1 }).first().textContent())!.trim();
  await page.getByRole('button', { name: 'Place Order Now' }).click();
  await page.getByRole('dialog', { name: 'Confirm your order' }).getByRole('button', { name: 'Confirm Order' }).click();
  await page.getByText('Your order is saved and will be sent when you are back online.').waitFor();
  await page.waitForURL('**/my-orders');
  return title;
}

describe('offline with an expired token', () => {
  it('opens My Orders and Profile from the device copy, then renews the token when the network returns', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 20_000 });
      await page.goto('/profile');
      await page.getByText(demoLogins.customer.email).first().waitFor({ timeout: 20_000 });

      await ageStoredSession(page);
      await goOffline(context);
      // A cold start: a new tab on the same profile, no network, a token past its lifetime.
      const cold = await context.newPage();
      await page.close();
      await cold.goto('/my-orders');
      // The device copy, not the sign-in form and not "Loading…" until supabase-js gives up (26 s before).
      await cold.getByText('Payment Pending').first().waitFor({ timeout: 5_000 });
      assert.equal(new URL(cold.url()).pathname, '/my-orders');
      await cold.getByText('You are offline.').waitFor();
      await cold.goto('/profile');
      await cold.getByText(demoLogins.customer.email).first().waitFor({ timeout: 5_000 });
      assert.equal(new URL(cold.url()).pathname, '/profile');
      assert.equal(await cold.getByRole('button', { name: 'Sign In' }).count(), 0, 'no sign-in form');
      assert.equal(await cold.getByText('Your session has ended.').count(), 0, 'an old token is not an ended session');

      // Back online, the token is renewed by itself and the user stays signed in.
      const before = (await storedExpiry(cold))!;
      await goOnline(context);
      await eventually(async () => ((await storedExpiry(cold)) ?? 0) > before, 'a renewed token');
      await cold.goto('/my-orders');
      await cold.getByText('Payment Pending').first().waitFor();
      assert.equal(new URL(cold.url()).pathname, '/my-orders');
    });
  });
});

describe('a session the auth server ended', () => {
  it('keeps the orders and the queued order, says so, and sends the order once the user signs in again', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 20_000 });

      await goOffline(context);
      const title = await placeOrderOffline(page);
      assert.equal((await outbox(page)).filter((entry) => entry.status === 'pending').length, 1);

      // The refresh token no longer works (revoked, or expired while away): the auth server refuses it.
      await ageStoredSession(page, 'revoked-refresh-token');
      await goOnline(context);
      await page.reload();
      await page.getByText('Your session has ended.').waitFor({ timeout: 20_000 });
      assert.equal(new URL(page.url()).pathname, '/my-orders');
      const card = page.locator('article').filter({ has: page.getByRole('heading', { level: 2, name: title }) });
      await card.getByText('Waiting to sync', { exact: true }).first().waitFor();
      assert.ok(
        (await databaseNames(page)).some((name) => name.startsWith('storefront-user-')),
        "the user's database is kept",
      );
      assert.equal((await outbox(page)).length, 1, 'the queued order is kept');

      // Signing in again sends it, once.
      await page.getByRole('link', { name: 'Sign In Again' }).click();
      await page.getByLabel('Email Address').fill(demoLogins.customer.email);
      await page.getByLabel('Password', { exact: true }).fill(demoLogins.customer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/my-orders', { timeout: 30_000 });
      await eventually(async () => (await outbox(page)).length === 0, 'the queued order to be sent');
      await card.getByText('Waiting to sync', { exact: true }).first().waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal(await page.getByText('Your session has ended.').count(), 0);
    });
  });
});

describe('the server answers 503 (its database is down)', () => {
  it('an admin with 2 queued changes opens the dashboard: still signed in, the changes kept and shown, sent once the server is back', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard');
      await page.getByText('All changes synced', { exact: true }).waitFor({ timeout: 20_000 });
      await waitForServiceWorkerControl(page);
      await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();

      await goOffline(context);
      for (const index of [0, 1]) {
        const select = page.getByLabel(/^Order status of order #/).nth(index);
        await select.selectOption((await select.inputValue()) === 'processing' ? 'completed' : 'processing');
      }
      await page.getByText('2 changes waiting to sync', { exact: true }).waitFor();

      // Back online, but every API call answers 503 as the server does while its database is down.
      await context.route('**/api/**', (route) =>
        route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '2' },
          body: JSON.stringify({ error: { code: 'unavailable', message: 'The shop cannot reach its database right now. Please try again in a few seconds.' } }),
        }),
      );
      await goOnline(context);
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor({ timeout: 20_000 });
      await page.getByText('2 changes waiting to sync', { exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/dashboard');
      assert.equal(await page.getByText('All changes synced', { exact: true }).count(), 0);
      assert.equal((await outbox(page)).filter((entry) => entry.status === 'pending').length, 2, 'both changes kept, still pending');
      assert.ok(
        (await databaseNames(page)).some((name) => name.startsWith('storefront-user-')),
        "the user's database is kept",
      );
      assert.ok(await page.evaluate((key) => localStorage.getItem(key) !== null, SESSION_KEY), 'still signed in');

      await context.unroute('**/api/**');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText('All changes synced', { exact: true }).waitFor({ timeout: 30_000 });
      assert.equal((await outbox(page)).length, 0);
    });
  });

  it('a customer with a queued order who opens a dashboard address offline keeps the order and stays signed in', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 20_000 });
      await goOffline(context);
      const title = await placeOrderOffline(page);
      await page.goto('/dashboard');
      await page
        .getByRole('heading', { name: /dashboard/i })
        .first()
        .waitFor({ timeout: 20_000 });
      assert.equal((await outbox(page)).length, 1, 'the queued order is kept');
      await page.goto('/my-orders');
      const card = page.locator('article').filter({ has: page.getByRole('heading', { level: 2, name: title }) });
      await card.getByText('Waiting to sync', { exact: true }).first().waitFor();
      await goOnline(context);
      await eventually(async () => (await outbox(page)).length === 0, 'the queued order to be sent');
    });
  });
});

describe('signing out with unsent changes', () => {
  it('offers to send them: offline it says they were not sent and stays signed in; once the server answers it sends them, then signs out', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 20_000 });
      await goOffline(context);
      const title = await placeOrderOffline(page);
      const cards = page.locator('article').filter({ has: page.getByRole('heading', { level: 2, name: title }) });
      await cards.getByText('Waiting to sync', { exact: true }).first().waitFor();
      const before = await cards.count();

      // Offline, "Send now" cannot send: the user is told and stays signed in with the change kept.
      await page.getByRole('button', { name: 'Logout' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Send or discard 1 change before signing out?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Discard 1 change and Sign Out' }).waitFor();
      await dialog.getByRole('button', { name: 'Stay Signed In' }).waitFor();
      await dialog.getByRole('button', { name: 'Send 1 change Now' }).click();
      await page.getByText('1 change not sent, so you are still signed in.', { exact: false }).waitFor({ timeout: 20_000 });
      assert.equal(new URL(page.url()).pathname, '/my-orders');
      assert.equal((await outbox(page)).length, 1, 'the change is kept');
      assert.ok(await page.evaluate((key) => localStorage.getItem(key) !== null, SESSION_KEY), 'still signed in');

      // Back online while the API is unreachable (so nothing syncs by itself), then it answers again just
      // as the user chooses "Send now": the change goes, then the user is signed out.
      await context.route('**/api/**', (route) => route.abort('connectionrefused'));
      await goOnline(context);
      await page.getByRole('button', { name: 'Logout' }).first().click();
      await dialog.waitFor();
      await context.unroute('**/api/**');
      await dialog.getByRole('button', { name: 'Send 1 change Now' }).click();
      await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
      await eventually(async () => !(await databaseNames(page)).some((name) => name.startsWith('storefront-user-')), "the user's database to go");

      // The server has the order, once.
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await eventually(async () => (await cards.count()) === before, `${before} orders titled ${title}`);
      assert.equal(await cards.getByText('Waiting to sync', { exact: true }).count(), 0);
    });
  });
});

describe('a session ended elsewhere while its access token is still valid (Sign Out Other Devices, an account removed)', () => {
  /** Signs `login` in once more, through the API, and ends every other session of it there. */
  async function endOtherSessions(login: { email: string; password: string }): Promise<void> {
    const config = (await (await fetch(`${e2e.server.url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
    const other = await apiSession(e2e.server.url, login);
    const ended = await fetch(new URL('/auth/v1/logout?scope=others', config.supabaseUrl || e2e.server.url), {
      method: 'POST',
      headers: { apikey: config.supabaseAnonKey, authorization: `Bearer ${other.token}` },
    });
    assert.equal(ended.status, 204);
    // The API remembers a live session for 5 s (decision 045): past that, it refuses the ended one.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
  }

  it('says the session has ended on My Orders and on the dashboard, not a load error, and signing in again works', slow, async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await page.getByText('Payment Pending').first().waitFor({ timeout: 20_000 });
      await endOtherSessions(demoLogins.customer);
      await page.reload();
      await page.getByText('Your session has ended.').waitFor({ timeout: 20_000 });
      await page.getByRole('link', { name: 'Sign In Again' }).click();
      await page.getByLabel('Email Address').fill(demoLogins.customer.email);
      await page.getByLabel('Password', { exact: true }).fill(demoLogins.customer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/my-orders', { timeout: 30_000 });
      await page.getByText('Payment Pending').first().waitFor({ timeout: 20_000 });
      assert.equal(await page.getByText('Your session has ended.').count(), 0);
      assert.equal(await page.getByText('Error Loading Orders').count(), 0);
    });
    await e2e.withPage(async (page) => {
      await page.setViewportSize({ width: 820, height: 1180 });
      await signIn(page, demoLogins.moderator);
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor({ timeout: 20_000 });
      await endOtherSessions(demoLogins.moderator);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Your session has ended' }).waitFor({ timeout: 20_000 });
      assert.equal(await page.getByText('Check your connection').count(), 0);
      await page.getByRole('link', { name: 'Sign In Again' }).waitFor();
    });
  });
});
