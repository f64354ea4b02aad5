import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { apiSession, checkA11y, checkA11yAtBoth, demoLogins, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';

/** Issue 32 item 2 in the browser: an admin adds a coupon and edits its limit; a customer applies it, sees the new total and is charged it. */
const e2e = setUpServerAndBrowser();

describe('coupons', () => {
  it('an admin adds a coupon on a tablet and edits it; a customer on a phone applies it, sees the new total and is charged it', async () => {
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = services.find((s) => !s.needsDetails && /^\d+(\.\d+)?$/.test(s.price))!;
    assert.ok(service, 'a service with a plain price that asks no details');

    await e2e.withPage(async (page) => {
      await page.setViewportSize({ width: 820, height: 1180 });
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/coupons');
      await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
      // The demo shop's coupon is listed.
      await page.getByText('WELCOME10').waitFor();
      const form = page.getByRole('form', { name: 'Add Coupon' });
      await form.getByLabel('Code').fill('bad code!');
      await form.getByRole('button', { name: 'Add Coupon' }).click();
      await form.getByText('must be 3 to 32 letters, digits, - or _').waitFor();
      await form.getByLabel('Code').fill('spring-25');
      await form.getByLabel('Takes off').selectOption('fixed');
      await form.getByLabel('Amount off (USD)').fill('2.50');
      await form.getByLabel('Uses in all (optional)').fill('1');
      await form.getByRole('button', { name: 'Add Coupon' }).click();
      await page.getByText('Coupon SPRING-25 added').waitFor();
      await page.getByRole('listitem').filter({ hasText: 'SPRING-25' }).getByText('Used 0 of 1 times').waitFor();
      await checkA11yAtBoth(page, TABLET);

      // Editing in place (decision 220): a bad limit is refused on its field, a good one saved and listed.
      await page.getByRole('button', { name: 'Edit SPRING-25' }).click();
      const edit = page.getByRole('form', { name: 'Edit Coupon SPRING-25' });
      await edit.getByLabel('Uses in all (optional)').fill('0');
      await edit.getByRole('button', { name: 'Save Coupon' }).click();
      await edit.getByText('must be at least 1').waitFor();
      await checkA11yAtBoth(page, TABLET);
      await edit.getByLabel('Uses in all (optional)').fill('2');
      await edit.getByRole('button', { name: 'Save Coupon' }).click();
      await page.getByRole('listitem').filter({ hasText: 'SPRING-25' }).getByText('Used 0 of 2 times').waitFor();
      await edit.waitFor({ state: 'detached' });
    });

    await e2e.withPage(async (page) => {
      await page.setViewportSize({ width: 412, height: 915 });
      await signIn(page, demoLogins.customer);
      await page.goto(`/service-details/${service.id}`);
      await page.getByRole('button', { name: 'Place Order Now' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm your order' });
      await dialog.getByLabel('Coupon code (optional)').fill('nope-nope');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.getByText('This coupon code is not valid.').waitFor();
      await dialog.getByLabel('Coupon code (optional)').fill('spring-25');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.getByText('$2.50 off.').waitFor();
      const expected = (Math.round(Number(service.price) * 100) - 250) / 100;
      await dialog.getByText(`${expected.toFixed(2)} USD`).waitFor();
      await checkA11y(page);
      await page.setViewportSize({ width: 820, height: 1180 });
      await checkA11y(page);
      await dialog.getByRole('button', { name: 'Confirm Order' }).click();
      await page.getByText('Order placed successfully!').waitFor({ timeout: 15_000 });
      await page.waitForURL('**/my-orders');
      await page
        .getByText(`Coupon SPRING-25: $2.50 off the list price of $${Number(service.price).toFixed(2)}`)
        .first()
        .waitFor({ timeout: 15_000 });
    });

    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const orders = await customer.get<Order[]>(`/api/orders/user/${customer.userId}`);
    const charged = orders.find((order) => order.coupon?.code === 'SPRING-25');
    assert.ok(charged, 'the order carries its coupon');
    assert.equal(charged.coupon?.discount, '2.50');
    assert.equal(Number(charged.price), Math.round(Number(service.price) * 100 - 250) / 100);
  });
});
