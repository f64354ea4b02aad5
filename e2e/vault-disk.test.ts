import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium, type BrowserContext } from 'playwright-core';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { apiSession, checkA11y, demoLogins, goOffline, openOrderCardOnPhone, orderDeliveredToCustomer, PHONE, setUpServerAndBrowser } from './harness.ts';
import { encodings, indexedDbFilesHolding } from './indexeddb-files.ts';

/**
 * Issue 30 item 4 in the browser (decisions 181, 184, 251): with a profile on disk (not the in-memory profile
 * of the other tests), switching the vault on and locking leaves neither the delivered password nor a
 * delivered file's bytes in any of the profile's IndexedDB files, read as an offline auditor reads them
 * (Snappy-compressed table blocks and values opened, log records put together; e2e/indexeddb-files.ts):
 * checked while the browser still runs, and again once it has closed the profile. Unlocking asks the
 * server; once unlocked, the password reads offline.
 */
const e2e = setUpServerAndBrowser();
const PASSWORD = 'Disk-Audit-Pass-2026';
const PIN = '739154';
const profiles: string[] = [];
after(async () => {
  for (const dir of profiles) await rm(dir, { recursive: true, force: true });
});

const launch = (profile: string): Promise<BrowserContext> =>
  chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    baseURL: e2e.server.url,
    serviceWorkers: 'allow',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });

/** A file order of the demo customer, delivered by the admin through the API with these bytes. */
async function fileDeliveredToCustomer(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const admin = await apiSession(e2e.server.url, demoLogins.admin);
  const customer = await apiSession(e2e.server.url, demoLogins.customer);
  const service = { title: `Audit Document ${Date.now()}`, description: 'A file', category: 'vps', price: '5', deliveryTime: 'instant', deliveryKind: 'file' };
  const created = await admin.call<Service>('POST', '/api/services', service, 201);
  const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: created.id }, 201);
  const form = new FormData();
  form.append('kind', 'delivery');
  form.append('file', new File([bytes], 'audit.bin', { type: 'application/octet-stream' }));
  const upload = await fetch(new URL('/api/uploads', e2e.server.url), { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
  assert.equal(upload.status, 201, await upload.clone().text());
  const file = (await upload.json()) as { path: string; name: string };
  await admin.call('PUT', `/api/admin/orders/${placed.order.id}`, { paymentStatus: 'paid', file: { path: file.path, name: file.name } });
}

describe('the vault on disk', () => {
  // It failed 2 of 3 runs once (issue 30): the offer's PIN dialog closed as soon as the vault record was written,
  // before the database rewrite (decision 184) had finished, and the page load below cut the rewrite between its
  // delete and its write-back: the vault record was gone and the next sync filled the database in clear. Now the
  // dialog stays until switching on is done, and an interrupted rewrite is finished at the next open.
  it('leaves no clear password or file in the profile’s IndexedDB files once on and locked, running and closed; unlocking asks the server; unlocked, it reads offline', async () => {
    // A small text file (kept inside LevelDB) and 200 KiB of random bytes (Blink keeps a value that large,
    // and that cannot be compressed, as a separate blob file).
    const fileText = `Disk-Audit-File-${Date.now()} the delivered document`;
    const bigFile = new Uint8Array(randomBytes(200 * 1024));
    await fileDeliveredToCustomer(new TextEncoder().encode(fileText));
    await fileDeliveredToCustomer(bigFile);
    const orderId = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'disk@wise.test', wisePassword: PASSWORD });
    const slices = [0, 100 * 1024, 200 * 1024 - 64].map((at) => Buffer.from(bigFile.subarray(at, at + 64)));
    const secrets = { password: encodings(PASSWORD), file: encodings(fileText), bigFile: slices };
    const everySecret = [...secrets.password, ...secrets.file, ...secrets.bigFile];
    const filesHolding = async (what: keyof typeof secrets, profile: string) => (await indexedDbFilesHolding(profile, secrets[what])).holding;
    const profile = await mkdtemp(join(tmpdir(), 'vault-profile-'));
    profiles.push(profile);
    let context = await launch(profile);
    try {
      let page = context.pages()[0] ?? (await context.newPage());
      const { panel } = await openOrderCardOnPhone(page, orderId);
      await panel.getByRole('button', { name: 'Show password' }).waitFor({ timeout: 30_000 });
      // The check finds both when they are stored in clear (the sync keeps the file for offline use).
      const bothFilesKept = async () => (await filesHolding('file', profile)).length > 0 && (await filesHolding('bigFile', profile)).length > 0;
      for (let tries = 0; !(await bothFilesKept()) && tries < 60; tries++) await page.waitForTimeout(500);
      assert.ok((await filesHolding('password', profile)).length > 0, 'the clear password is in the IndexedDB files before the vault');
      assert.ok((await filesHolding('file', profile)).length > 0, 'the clear file is in the IndexedDB files before the vault');
      const bigHolders = await filesHolding('bigFile', profile);
      assert.ok(bigHolders.length > 0, 'the clear large file is in the IndexedDB files before the vault');
      assert.ok(
        bigHolders.some((path) => path.includes('.indexeddb.blob')),
        `the large file is kept in a blob file outside LevelDB (the case this covers): ${bigHolders.join(', ')}`,
      );

      await page.getByTestId('vault-offer').getByRole('button', { name: 'Set a PIN' }).click();
      const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
      await enable.getByLabel(/New PIN/).fill(PIN);
      await enable.getByLabel('The same PIN again').fill(PIN);
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.waitFor({ state: 'detached', timeout: 60_000 });

      // Locked by a page load; the browser still runs (its LevelDB open).
      await page.goto('/profile');
      await page
        .getByTestId('vault-card')
        .getByText(/Locked now/)
        .waitFor({ timeout: 30_000 });
      const running = await indexedDbFilesHolding(profile, everySecret);
      assert.ok(running.read > 0, 'the profile has IndexedDB files');
      assert.deepEqual(
        running.holding,
        [],
        `no IndexedDB file holds the password or the file once on and locked (browser running): ${running.holding.join(', ')}`,
      );

      // The browser closes the profile: what it leaves on disk is what a copy of the device holds.
      await context.close();
      const closed = await indexedDbFilesHolding(profile, everySecret);
      assert.deepEqual(
        closed.holding,
        [],
        `no IndexedDB file holds the password or the file once on and locked (browser closed): ${closed.holding.join(', ')}`,
      );

      // Unlock (the server checks the PIN), then offline: the password still shows.
      context = await launch(profile);
      page = context.pages()[0] ?? (await context.newPage());
      // The session in localStorage signs the reopened browser in.
      await page.setViewportSize(PHONE);
      await page.goto('/my-orders');
      const reopened = page
        .locator('article')
        .filter({ has: page.getByText(`#${shortOrderId(orderId)}`, { exact: true }) })
        .getByRole('region', { name: /Credentials for/ });
      await reopened.getByRole('button', { name: 'Unlock to show the password' }).click();
      const unlock = page.getByRole('dialog', { name: 'Unlock passwords' });
      await unlock.getByLabel('PIN', { exact: true }).fill(PIN);
      for (const width of [412, 820]) {
        await page.setViewportSize({ width, height: width === 412 ? 915 : 1180 });
        await checkA11y(page);
      }
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await reopened.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      await goOffline(context);
      await reopened.getByRole('button', { name: /Hide/ }).click();
      await reopened.getByRole('button', { name: 'Show password' }).click();
      await reopened.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });
});
