import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import {
  apiSession,
  checkA11y,
  demoLogins,
  goOffline,
  goOnline,
  openOrderCardOnPhone,
  orderDeliveredToCustomer,
  setUpServerAndBrowser,
  signIn,
} from './harness.ts';

/**
 * Issue 17 item 6 in the browser (decision 066): the customer shows a delivered password while offline,
 * the reveal waits in the outbox and is logged when the phone is back online, with its time and device;
 * the card says how often it was viewed, and staff see "First viewed" on the order and in its history.
 */
const e2e = setUpServerAndBrowser();

const PASSWORD = 'Reveal-Me-2026!';

describe('the reveal log', () => {
  it('logs a reveal made offline once the customer is back online, and staff then see "First viewed"', async () => {
    const orderId = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'revealed@wise.test', wisePassword: PASSWORD });
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const staffView = () => admin.get<Order>(`/api/admin/orders/${orderId}`);

    let deviceLabel = '';
    await e2e.withPage(async (page, context) => {
      const { card, panel } = await openOrderCardOnPhone(page, orderId);
      await panel.getByTestId('password-views').getByText('Not viewed yet').waitFor({ timeout: 30_000 });
      await checkA11y(page);

      // Offline: the password shows from the device's copy and the reveal is queued.
      await goOffline(context);
      await panel.getByRole('button', { name: 'Show password' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor();
      await panel
        .getByTestId('password-views')
        .getByText(/^Viewed once, on /)
        .waitFor();
      await card.getByText('Waiting to sync', { exact: true }).waitFor();
      assert.equal((await staffView()).views, undefined, 'nothing reaches the server while offline');
      deviceLabel = await page.evaluate(() => navigator.userAgent);

      // Back online: the outbox sends it; the card keeps the server's count.
      await goOnline(context);
      await card.getByText('Waiting to sync', { exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
      const seen = await staffView();
      assert.equal(seen.views?.count, 1);
      assert.match(seen.views?.firstDevice ?? '', /^Chrome on Linux$/, `a short label of ${deviceLabel}`);
      deviceLabel = seen.views!.firstDevice;
      assert.equal(seen.wisePassword, undefined, 'staff never get the password');

      // A second look, online: twice.
      await panel.getByRole('button', { name: 'Hide password' }).click();
      await panel.getByRole('button', { name: 'Show password' }).click();
      await panel
        .getByTestId('password-views')
        .getByText(/^Viewed 2 times, first on .+\(Chrome on Linux\)$/)
        .waitFor();
      await card.getByText('Waiting to sync', { exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal((await staffView()).views?.count, 2);
      for (const width of [412, 820]) {
        await page.setViewportSize({ width, height: width === 412 ? 915 : 1180 });
        await checkA11y(page);
      }
    });

    // Staff: "First viewed" on the order and in its history, at both widths.
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.admin);
      for (const width of [412, 820]) {
        await page.setViewportSize({ width, height: width === 412 ? 915 : 1180 });
        await page.goto('/dashboard');
        await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor({ timeout: 30_000 });
        await page.getByLabel('Search', { exact: true }).fill(orderId);
        await page.getByText('Showing 1–1 of 1 orders').waitFor({ timeout: 15_000 });
        await page.getByText(new RegExp(`^First viewed .+ on ${deviceLabel}$`)).waitFor({ timeout: 15_000 });
        await checkA11y(page);
        await page.getByRole('button', { name: /^History of / }).click();
        const history = page.getByRole('dialog', { name: /^History of order #/ });
        await history
          .getByTestId('first-viewed')
          .getByText(/viewed 2 times/)
          .waitFor({ timeout: 15_000 });
        await history.getByText(`The customer first viewed the password`, { exact: false }).waitFor({ timeout: 15_000 });
        await history.getByText(new RegExp(`first viewed the password on .+ \\(${deviceLabel}\\)$`)).waitFor();
        await checkA11y(page);
        await history.getByRole('button', { name: 'Close' }).last().click();
        await history.waitFor({ state: 'detached' });
      }
    });
  });
});
