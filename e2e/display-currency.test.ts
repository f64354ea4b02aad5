import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { formatDisplayPrice, type DisplayCurrency } from '../edge-api/src/contract/currencies.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../edge-api/src/contract/settings.ts';
import { checkA11yAtBoth, demoLogins, PHONE, setUpServerAndBrowser, signIn, TABLET, waitForAppTakeover } from './harness.ts';

/**
 * Issue 32 item 4 in the browser (decision 241): an admin enables a currency from a rate file; a customer on
 * a phone chooses it, sees "≈" prices on the services list and in the confirm step, and the payment step
 * says what is actually due in USD.
 */
const e2e = setUpServerAndBrowser();

const yen: DisplayCurrency = { code: 'JPY', rate: 151.2 };

/** The height of a service's card on the services list: the same before and after the app converts its price. */
const cardHeight = async (page: Page, title: string) =>
  (await page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) })
    .first()
    .boundingBox())!.height;

describe('display currencies', () => {
  it('an admin enables JPY from a file; a customer on a phone sees prices in it, approximate, and pays in USD', async () => {
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = services.find((s) => !s.needsDetails && /^\d+(\.\d+)?$/.test(s.price) && s.paymentMethods.length > 0)!;
    assert.ok(service, 'a service with a plain price and a payment method that asks no details');
    const shown = formatDisplayPrice(service.price, yen);
    const usd = `$${service.price}`;

    await e2e.withPage(async (page) => {
      await page.setViewportSize(TABLET);
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/settings');
      const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Display currencies' }) });
      // The demo shop's currencies.
      assert.equal(await section.getByLabel('Currency 1 code').inputValue(), 'EUR');
      await section.getByLabel('Import rates from a file').setInputFiles({
        name: 'rates.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('code,rate\nJPY,151.2\nUSD,1\n'),
      });
      await section.getByText("Line 3: code is the shop's own currency (USD)").waitFor();
      assert.equal(await section.getByRole('button', { name: 'Use These Rates' }).isDisabled(), true);
      await checkA11yAtBoth(page, TABLET);
      await section.getByRole('button', { name: 'Drop the row with errors' }).click();
      await section.getByRole('button', { name: 'Use These Rates' }).click();
      assert.equal(await section.getByLabel('Currency 4 code').inputValue(), 'JPY');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('Settings saved successfully').waitFor();
    });
    const settings = (await (await fetch(`${e2e.server.url}/api/settings`)).json()) as SiteSettings;
    assert.deepEqual(settings.displayCurrencies?.at(-1), yen);

    await e2e.withPage(async (page, context) => {
      await page.setViewportSize(PHONE);
      // Signed out: the choice is this device's.
      await page.goto('/services');
      await waitForAppTakeover(page);
      const rendered = await cardHeight(page, service.title);
      await page.getByLabel('Show prices in').selectOption('JPY');
      const card = page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: service.title, exact: true }) })
        .first();
      await card.getByText(shown, { exact: true }).waitFor();
      await card.getByText(`You pay ${usd} USD`).waitFor();
      assert.equal(await cardHeight(page, service.title), rendered, 'the converted price takes the room the server render kept');
      // Opened afresh, the server's page (in USD) becomes the converted one in place, nothing moving.
      const plain = await context.browser()!.newContext({ baseURL: e2e.server.url, javaScriptEnabled: false, viewport: PHONE });
      const serverPage = await plain.newPage();
      await serverPage.goto('/services');
      const serverHeight = await cardHeight(serverPage, service.title);
      await plain.close();
      await page.reload();
      await card.getByText(shown, { exact: true }).waitFor();
      assert.equal(await cardHeight(page, service.title), serverHeight);
      await checkA11yAtBoth(page, PHONE);

      await signIn(page, demoLogins.customer);
      await page.goto(`/service-details/${service.id}`);
      await page.getByRole('button', { name: 'Place Order Now' }).last().click();
      const dialog = page.getByRole('dialog', { name: 'Confirm your order' });
      await dialog.getByText(`You pay ${usd} USD`).waitFor();
      await dialog.getByText(shown, { exact: true }).waitFor();
      await checkA11yAtBoth(page, PHONE);
      await dialog.getByRole('button', { name: 'Confirm Order' }).click();
      await page.getByText('Order placed successfully!').waitFor({ timeout: 15_000 });
      await page.waitForURL('**/my-orders');
      const order = page.getByRole('article').filter({ hasText: service.title }).first();
      await order.getByText(shown, { exact: true }).waitFor({ timeout: 15_000 });
      await order.getByTestId('amount-due').getByText(`You pay ${usd} (USD)`).waitFor();
      assert.equal(await order.getByTestId('amount-due').innerText(), `You pay ${usd} (USD); ${shown} shown for reference`);
      await checkA11yAtBoth(page, PHONE);
    });
  });
});
