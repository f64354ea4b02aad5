import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { apiSession, checkA11yAtBoth, demoLogins, PHONE, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';

/** Issue 32 item 3 in the browser: an admin sets a quantity tier; a customer picks a quantity, sees the tiered price and is charged it. */
const e2e = setUpServerAndBrowser();

const cents = (text: string) => Math.round(Number(text) * 100);
const money = (value: number) => (value / 100).toFixed(2);

describe('prices that reward regulars', () => {
  it('an admin sets a tier on a tablet; a customer on a phone orders 3, sees the tier price and total first, and is charged them', async () => {
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = services.find((s) => !s.needsDetails && /^\d+(\.\d+)?$/.test(s.price) && cents(s.price) >= 200)!;
    assert.ok(service, 'a service with a plain price that asks no details');
    const list = cents(service.price);
    const tierUnit = Math.round(list * 0.8);

    await e2e.withPage(async (page) => {
      await page.setViewportSize(TABLET);
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/admin-services');
      await page
        .getByRole('button', { name: `Quantity prices of ${service.title}` })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: `Quantity prices: ${service.title}` });
      await dialog.getByText('No tiers: every quantity pays the list price.').waitFor();
      await dialog.getByRole('button', { name: 'Add tier' }).click();
      await dialog.getByLabel('Buy at least').fill('1');
      await dialog.getByLabel('Unit price ($)').fill(money(tierUnit));
      await dialog.getByRole('button', { name: 'Save tiers' }).click();
      await dialog.getByText('Buy at least: must be at least 2').waitFor();
      await checkA11yAtBoth(page, TABLET);
      await dialog.getByLabel('Buy at least').fill('3');
      await dialog.getByRole('button', { name: 'Save tiers' }).click();
      await page.getByText(`Quantity prices of ${service.title} saved`).waitFor();
    });

    await e2e.withPage(async (page) => {
      await page.setViewportSize(PHONE);
      await signIn(page, demoLogins.customer);
      await page.goto(`/service-details/${service.id}`);
      await page.getByRole('button', { name: 'Place Order Now' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm your order' });
      await dialog.getByText(`3 or more: $${money(tierUnit)} each`).waitFor();
      await dialog.getByRole('button', { name: 'One more' }).click();
      await dialog.getByRole('button', { name: 'One more' }).click();
      await dialog.getByText(`$${money(tierUnit)} each (tier price for 3 or more)`).waitFor();
      await dialog.getByText(`${service.title} × 3`).waitFor();
      await dialog.getByText(`${money(tierUnit * 3)} USD`).waitFor();
      await checkA11yAtBoth(page, PHONE);
      await dialog.getByRole('button', { name: 'Confirm Order' }).click();
      await page.getByText('Order placed successfully!').waitFor({ timeout: 15_000 });
      await page.waitForURL('**/my-orders');
    });

    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const orders = await customer.get<Order[]>(`/api/orders/user/${customer.userId}`);
    const placed = orders.find((order) => order.productId === service.id && order.pricing?.quantity === 3);
    assert.ok(placed, 'the order of 3 is listed');
    assert.equal(placed.price, money(tierUnit * 3));
    assert.deepEqual(placed.pricing, { quantity: 3, listUnit: money(list), unitPrice: money(tierUnit), rule: 'tier', minQuantity: 3 });
  });
});
