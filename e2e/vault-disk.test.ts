import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { apiSession, checkA11y, demoLogins, goOffline, openOrderCardOnPhone, orderDeliveredToCustomer, PHONE, setUpServerAndBrowser } from './harness.ts';
import { encodings, profileFilesHolding } from './indexeddb-files.ts';

/**
 * Issue 30 item 4 in the browser (decisions 181, 184, 251, 254): with a profile on disk (not the in-memory
 * profile of the other tests), neither the delivered password nor a delivered file's bytes are ever written
 * in clear: the whole profile (IndexedDB's LevelDB logs and tables, its blob files, the origin private file
 * system, caches, everything), read as an offline auditor reads it (Snappy-compressed table blocks and
 * values opened, log records put together; e2e/indexeddb-files.ts), holds neither right after the password
 * was shown with the vault off (sealed with the device key from the first write), nor once the vault is on
 * and locked, while the browser runs and once it has closed the profile; nor then the device key's bytes
 * (deleted from the OPFS). Unlocking asks the server; once unlocked, the password reads offline. The same
 * reader finds a clear value and a large blob written to IndexedDB, so an absence means something.
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

/** The device's delivered files as IndexedDB holds them: how many, and how many are sealed with the device key. */
const keptFiles = (page: Page) =>
  page.evaluate(async () => {
    const name = (await indexedDB.databases()).map((db) => db.name ?? '').find((n) => n.startsWith('storefront-user-') && !n.endsWith('-compacting'));
    if (!name) return { count: 0, deviceSealed: 0 };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      if (!db.objectStoreNames.contains('deliveredFiles')) return { count: 0, deviceSealed: 0 };
      const rows = await new Promise<{ bytes: unknown }[]>((resolve, reject) => {
        const all = db.transaction('deliveredFiles').objectStore('deliveredFiles').getAll();
        all.onsuccess = () => resolve(all.result as { bytes: unknown }[]);
        all.onerror = () => reject(all.error);
      });
      return { count: rows.length, deviceSealed: rows.filter((row) => typeof row.bytes === 'string' && row.bytes.startsWith('dev1.')).length };
    } finally {
      db.close();
    }
  });

/** The device keys in the origin private file system, as bytes (decision 254). */
const deviceKeys = (page: Page) =>
  page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('device-keys').catch(() => null);
    const found: number[][] = [];
    if (!dir) return found;
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
      const file = await (await dir.getFileHandle(name)).getFile();
      found.push([...new Uint8Array(await file.arrayBuffer())]);
    }
    return found;
  });

/** A clear string and 200 KiB of random bytes written to a throwaway IndexedDB database: the reader must find both. */
const writeCanary = (page: Page, text: string, bytes: number[]) =>
  page.evaluate(
    async ({ text, bytes }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('audit-canary', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('values');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('values', 'readwrite', { durability: 'strict' });
        tx.objectStore('values').put({ text, bytes: new Uint8Array(bytes).buffer }, 'canary');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { text, bytes },
  );

describe('the vault on disk', () => {
  // It failed 2 of 3 runs once (issue 30): the offer's PIN dialog closed as soon as the vault record was written,
  // before the database rewrite (decision 184) had finished, and the page load below cut the rewrite between its
  // delete and its write-back: the vault record was gone and the next sync filled the database in clear. Now the
  // dialog stays until switching on is done, and an interrupted rewrite is finished at the next open.
  it('never writes the password or a delivered file in clear to the profile, vault off or on and locked, running and closed; unlocking asks the server; unlocked, it reads offline', async () => {
    // A small text file (kept inside LevelDB) and 200 KiB of random bytes (Blink keeps a value that large,
    // and that cannot be compressed, as a separate blob file).
    const fileText = `Disk-Audit-File-${Date.now()} the delivered document`;
    const bigFile = new Uint8Array(randomBytes(200 * 1024));
    await fileDeliveredToCustomer(new TextEncoder().encode(fileText));
    await fileDeliveredToCustomer(bigFile);
    const orderId = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'disk@wise.test', wisePassword: PASSWORD });
    const slices = (bytes: Uint8Array) => [0, Math.floor(bytes.length / 2), bytes.length - 64].map((at) => Buffer.from(bytes.subarray(at, at + 64)));
    const everySecret = [...encodings(PASSWORD), ...encodings(fileText), ...slices(bigFile)];
    const profile = await mkdtemp(join(tmpdir(), 'vault-profile-'));
    profiles.push(profile);
    let context = await launch(profile);
    try {
      let page = context.pages()[0] ?? (await context.newPage());
      const { panel } = await openOrderCardOnPhone(page, orderId);
      // The delivered password is read (vault off: opened with the device key, no PIN).
      await panel.getByRole('button', { name: 'Show password' }).click({ timeout: 30_000 });
      await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      // The sync keeps both files for offline use, sealed with the device key from their first write.
      let kept = await keptFiles(page);
      for (let tries = 0; kept.count < 2 && tries < 120; tries++) {
        await page.waitForTimeout(500);
        kept = await keptFiles(page);
      }
      assert.equal(kept.count, 2, 'both delivered files are kept on the device');
      const off = await profileFilesHolding(profile, everySecret);
      assert.ok(off.read > 0, 'the profile has files');
      assert.deepEqual(off.holding, [], `vault off: no file of the profile holds the password or a file in clear: ${off.holding.join(', ')}`);

      assert.equal(kept.deviceSealed, 2, 'both delivered files are sealed with the device key');
      const keys = await deviceKeys(page);
      assert.equal(keys.length, 1, 'one device key in the origin private file system');
      const keyBytes = Buffer.from(keys[0]!);
      assert.equal(keyBytes.length, 32);

      await page.getByTestId('vault-offer').getByRole('button', { name: 'Set a PIN' }).click();
      const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
      await enable.getByLabel(/New PIN/).fill(PIN);
      await enable.getByLabel('The same PIN again').fill(PIN);
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.waitFor({ state: 'detached', timeout: 60_000 });

      // Locked by a page load; the browser still runs (its LevelDB open). The device key's file is gone.
      await page.goto('/profile');
      await page
        .getByTestId('vault-card')
        .getByText(/Locked now/)
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(await deviceKeys(page), [], 'the device key is deleted once the vault is on');
      const needles = [...everySecret, keyBytes];
      const running = await profileFilesHolding(profile, needles);
      assert.deepEqual(
        running.holding,
        [],
        `no file of the profile holds the password, a file or the device key once on and locked (browser running): ${running.holding.join(', ')}`,
      );

      // The browser closes the profile: what it leaves on disk is what a copy of the device holds.
      await context.close();
      const closed = await profileFilesHolding(profile, needles);
      assert.deepEqual(
        closed.holding,
        [],
        `no file of the profile holds the password, a file or the device key once on and locked (browser closed): ${closed.holding.join(', ')}`,
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
        await page.setViewportSize({ width, height: 915 });
        await checkA11y(page);
      }
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await reopened.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      await goOffline(context);
      await reopened.getByRole('button', { name: /Hide/ }).click();
      await reopened.getByRole('button', { name: 'Show password' }).click();
      await reopened.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });

      // The reader finds what IndexedDB holds in clear, in LevelDB and in a blob file: an absence above means something.
      const canaryText = `Audit-Canary-${Date.now()}`;
      const canaryBytes = new Uint8Array(randomBytes(200 * 1024));
      await writeCanary(page, canaryText, [...canaryBytes]);
      await context.close();
      const text = await profileFilesHolding(profile, encodings(canaryText));
      assert.ok(text.holding.length > 0, 'the reader finds a clear string written to IndexedDB');
      const blob = await profileFilesHolding(profile, slices(canaryBytes));
      assert.ok(
        blob.holding.some((path) => path.includes('.indexeddb.blob')),
        `the reader finds large bytes in IndexedDB's blob files: ${blob.holding.join(', ') || 'none'}`,
      );
    } finally {
      await context.close();
    }
  });
});
