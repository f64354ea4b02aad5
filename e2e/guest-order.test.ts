import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readMailbox } from '../edge-api/src/auth/embedded/mailer.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { apiSession, checkA11yAtBoth, demoLogins, PHONE, setUpServerAndBrowser, TABLET } from './harness.ts';

/** Issue 32 item 1 in the browser: a visitor orders with just an email, and only the mailed link shows the order. */
const e2e = setUpServerAndBrowser();

async function mailedLink(email: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const mail = (await readMailbox(join(e2e.server.dataDir, 'mailbox'))).find((m) => m.to === email);
    if (mail) return /(http\S+\/auth\/v1\/verify\S+)/.exec(mail.text)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail to ${email}`);
}

describe('ordering with just an email', () => {
  it('a visitor orders on a phone with an email, opens the mailed link on a tablet and sees the order; the email and order id alone show no credentials', async () => {
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = services.find((s) => !s.needsDetails)!;
    const email = `visitor-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const started = Date.now();

    const placingDevice = await e2e.context({ viewport: PHONE });
    const phone = await placingDevice.newPage();
    await phone.goto(`/service-details/${service.id}`);
    await phone.getByRole('button', { name: 'Place Order Now' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Confirm your order' });
    await dialog.getByRole('button', { name: 'Confirm Order' }).click();
    await dialog.getByText('Enter your email address: your sign-in link and the order go there.').waitFor();
    assert.equal(await dialog.getByLabel('Coupon code (optional)').count(), 0, 'a visitor gets no coupon field');
    await dialog.getByLabel('Your email').fill(email);
    await checkA11yAtBoth(phone, PHONE);
    await dialog.getByRole('button', { name: 'Confirm Order' }).click();
    await phone.waitForURL('**/order-status/*');
    const orderId = phone.url().split('/').at(-1)!;
    await phone.getByText(`We sent a sign-in link to ${email}.`).waitFor();
    await phone.getByText('Pending', { exact: true }).first().waitFor();
    await checkA11yAtBoth(phone, PHONE);
    assert.ok(Date.now() - started < 60_000, 'ordered in under a minute');

    // Staff deliver credentials; the placing device still sees only the order's state.
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    await admin.call('PUT', `/api/admin/orders/${orderId}`, {
      paymentStatus: 'paid',
      orderStatus: 'delivered',
      wiseEmail: 'delivered@wise.test',
      wisePassword: 'Secret-Pass-123',
    });
    await phone.reload();
    await phone.getByText('Delivered', { exact: true }).waitFor();
    assert.ok(!(await phone.locator('body').innerText()).includes('delivered@wise.test'));

    // Someone who knows the email and the order id, without the link: no state, no credentials.
    const stranger = await e2e.context({ viewport: PHONE });
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`/order-status/${orderId}`);
    await strangerPage.getByText("This page shows an order's state only on the device that placed it").waitFor();
    assert.ok(!(await strangerPage.locator('body').innerText()).includes('delivered@wise.test'));
    const lookup = await fetch(`${e2e.server.url}/api/guest-orders/${orderId}`, { headers: { 'x-order-token': email } });
    assert.equal(lookup.status, 404);
    assert.ok(!(await lookup.text()).includes('Secret-Pass-123'));
    await stranger.close();

    // The mailed link on a second device signs in and shows the order.
    const secondDevice = await e2e.context({ viewport: TABLET });
    const tablet = await secondDevice.newPage();
    await tablet.goto(await mailedLink(email));
    await tablet.waitForURL(/\/my-orders#?$/);
    await tablet
      .getByText(`#${shortOrderId(orderId)}`, { exact: true })
      .first()
      .waitFor({ timeout: 20_000 });
    await checkA11yAtBoth(tablet, TABLET);
    await secondDevice.close();
    await placingDevice.close();
  });
});
