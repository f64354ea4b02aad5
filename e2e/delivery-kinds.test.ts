import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { apiSession, checkA11yAtBoth, demoLogins, goOffline, PHONE, setUpServerAndBrowser, signIn, TABLET, waitForServiceWorkerControl } from './harness.ts';

// Issue 16, item 4 (decision 069): staff on a tablet deliver a server login and a file; the customer's
// phone shows them with copy buttons and downloads the file, also offline; axe at 412 and 820 px.

const e2e = setUpServerAndBrowser();

const context = (viewport: { width: number; height: number }) => e2e.context({ viewport, acceptDownloads: true });

async function showOnly(page: Page, orderId: string) {
  await page.getByLabel('Search', { exact: true }).fill(orderId);
  await page.getByText('Showing 1–1 of 1 orders').waitFor();
}

/** Clicks `button` and answers the text of the file the browser downloads. */
async function downloadText(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

describe('every kind of delivery', () => {
  it('delivers a server login and a file from the tablet; the phone shows them, copies them and opens the file offline', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const stamp = Date.now();
    const newService = (title: string, deliveryKind: string) =>
      admin.call<Service>(
        'POST',
        '/api/services',
        { title, description: 'Delivered by staff', category: 'vps', price: '12', deliveryTime: 'instant', deliveryKind },
        201,
      );
    const vps = await newService(`VPS ${stamp}`, 'server');
    const document = await newService(`Edited Document ${stamp}`, 'file');
    const place = async (service: Service) => (await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201)).order.id;
    const vpsOrder = await place(vps);
    const documentOrder = await place(document);
    const proxies = await newService(`Proxies ${stamp}`, 'lines');
    const proxyOrder = await place(proxies);

    // Staff on a tablet: the order's service decides which form opens.
    const tablet = await context(TABLET);
    const adminPage = await tablet.newPage();
    await signIn(adminPage, demoLogins.admin);
    await adminPage.goto('/dashboard');
    await adminPage.getByRole('heading', { name: 'Admin Order Management' }).waitFor();

    await showOnly(adminPage, vpsOrder);
    await adminPage.getByRole('button', { name: `Add credentials to order #${shortOrderId(vpsOrder)}` }).click();
    const serverDialog = adminPage.getByRole('dialog', { name: 'Deliver Server Login' });
    await serverDialog.waitFor();
    await serverDialog.getByLabel('Host').fill('vps-7.example.net');
    await serverDialog.getByLabel('Port').fill('2222');
    await serverDialog.getByLabel('User').fill('root');
    const serverPassword = `Srv#${stamp}`;
    await serverDialog.getByLabel('Password', { exact: true }).fill(serverPassword);
    await checkA11yAtBoth(adminPage, TABLET);
    await serverDialog.getByRole('button', { name: 'Approve & Deliver' }).click();
    await serverDialog.waitFor({ state: 'detached' });
    await adminPage.getByText('Order delivered.').first().waitFor();
    await adminPage.getByText('Server: root@vps-7.example.net:2222').waitFor();

    await showOnly(adminPage, documentOrder);
    await adminPage.getByRole('button', { name: `Add credentials to order #${shortOrderId(documentOrder)}` }).click();
    const fileDialog = adminPage.getByRole('dialog', { name: 'Deliver File' });
    await fileDialog.waitFor();
    const content = `The finished document ${stamp}\n`;
    await fileDialog.getByLabel('File to deliver').setInputFiles({ name: 'Finished letter.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
    await fileDialog.getByTestId('chosen-file').waitFor();
    await checkA11yAtBoth(adminPage, TABLET);
    await fileDialog.getByRole('button', { name: 'Approve & Deliver' }).click();
    await fileDialog.waitFor({ state: 'detached' });
    await adminPage.getByText('File: Finished letter.txt').waitFor();

    await showOnly(adminPage, proxyOrder);
    await adminPage.getByRole('button', { name: `Add credentials to order #${shortOrderId(proxyOrder)}` }).click();
    const linesDialog = adminPage.getByRole('dialog', { name: 'Deliver Lines' });
    await linesDialog.waitFor();
    const proxyLines = [`10.0.0.1:8080:u1:${stamp}a`, `10.0.0.2:8080:u2:${stamp}b`];
    await linesDialog.getByLabel('Lines (one per line)').fill(`${proxyLines[0]}\n\n${proxyLines[1]}\n`);
    await linesDialog.getByText('2 lines; at most 500 lines').waitFor();
    await checkA11yAtBoth(adminPage, TABLET);
    await linesDialog.getByRole('button', { name: 'Approve & Deliver' }).click();
    await linesDialog.waitFor({ state: 'detached' });
    await adminPage.getByText('Lines: 2').waitFor();

    // The database holds no clear server password.
    const staffView = await admin.get<Order>(`/api/admin/orders/${vpsOrder}`);
    assert.equal(staffView.serverPassword, undefined, 'staff never get the password');

    // The customer's phone: each value with a copy button; the file kept on the device by the sync.
    const phone = await context(PHONE);
    await phone.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
    const customerPage = await phone.newPage();
    await signIn(customerPage, demoLogins.customer);
    await customerPage.goto('/my-orders');
    await waitForServiceWorkerControl(customerPage);
    const vpsCard = customerPage.locator('article').filter({ hasText: `#${shortOrderId(vpsOrder)}` });
    await vpsCard.getByText('vps-7.example.net').waitFor();
    for (const name of ['Copy host', 'Copy port', 'Copy user', 'Copy password']) await vpsCard.getByRole('button', { name }).waitFor();
    await vpsCard.getByRole('button', { name: 'Copy password' }).click();
    assert.equal(await customerPage.evaluate(() => navigator.clipboard.readText()), serverPassword);
    await vpsCard.getByRole('button', { name: 'Show password' }).click();
    await vpsCard.getByText(serverPassword).waitFor();

    const proxyCard = customerPage.locator('article').filter({ hasText: `#${shortOrderId(proxyOrder)}` });
    await proxyCard.getByRole('button', { name: 'Copy all lines' }).click();
    assert.equal(await customerPage.evaluate(() => navigator.clipboard.readText()), proxyLines.join('\n'));
    await proxyCard.getByRole('button', { name: 'Show line 2' }).click();
    await proxyCard.getByText(proxyLines[1]!).waitFor();
    await proxyCard.getByRole('button', { name: 'Copy line 1' }).waitFor();

    const documentCard = customerPage.locator('article').filter({ hasText: `#${shortOrderId(documentOrder)}` });
    await documentCard.getByTestId('delivered-file-name').getByText('Finished letter.txt').waitFor();
    await documentCard.getByText('Saved on this device: opens offline too.').waitFor({ timeout: 30_000 });
    await checkA11yAtBoth(customerPage, PHONE);
    const download = documentCard.getByRole('button', { name: 'Download Finished letter.txt' });
    assert.deepEqual(await downloadText(customerPage, download), { name: 'Finished letter.txt', text: content });

    // Offline, after a reload too: the file still opens from the device.
    await goOffline(phone);
    await customerPage.reload();
    await documentCard.getByText('Saved on this device: opens offline too.').waitFor();
    assert.deepEqual(await downloadText(customerPage, download), { name: 'Finished letter.txt', text: content });
    await vpsCard.getByText('vps-7.example.net').waitFor();

    // Nobody else gets the file: another customer is refused, a /files link does not exist.
    const moderator = await apiSession(e2e.server.url, demoLogins.moderator);
    const asStaff = await fetch(`${e2e.server.url}/api/orders/${documentOrder}/file`, { headers: { authorization: `Bearer ${moderator.token}` } });
    assert.equal(asStaff.status, 200);
    assert.equal(await asStaff.text(), content);

    await phone.close();
    await tablet.close();
  });
});
