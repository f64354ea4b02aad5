import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { checkA11y, goOffline, openOrderCardOnPhone, orderDeliveredToCustomer, setUpServerAndBrowser } from './harness.ts';

/**
 * Issue 30 item 4 in the browser (decisions 181, 184): with a profile on disk (not the in-memory profile of
 * the other tests), switching the vault on and locking leaves the delivered password nowhere in the
 * profile's IndexedDB files; unlocking asks the server; once unlocked, the password reads offline.
 */
const e2e = setUpServerAndBrowser();
const PASSWORD = 'Disk-Audit-Pass-2026';
const PIN = '739154';
const profiles: string[] = [];
after(async () => {
  for (const dir of profiles) await rm(dir, { recursive: true, force: true });
});

/** Every file under the profile's IndexedDB folder that holds the text (Latin-1 or UTF-16LE, as V8 stores strings). */
async function filesHolding(profile: string, text: string): Promise<string[]> {
  const needles = [Buffer.from(text, 'latin1'), Buffer.from(text, 'utf16le')];
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const bytes = await readFile(path).catch(() => Buffer.alloc(0));
        if (needles.some((needle) => bytes.includes(needle))) found.push(path);
      }
    }
  };
  await walk(join(profile, 'Default', 'IndexedDB'));
  return found;
}

describe('the vault on disk', () => {
  // It failed 2 of 3 runs once (issue 30): the offer's PIN dialog closed as soon as the vault record was written,
  // before the database rewrite (decision 184) had finished, and the page load below cut the rewrite between its
  // delete and its write-back: the vault record was gone and the next sync filled the database in clear. Now the
  // dialog stays until switching on is done, and an interrupted rewrite is finished at the next open.
  it('leaves no clear copy in the profile’s IndexedDB files once on and locked; unlocking asks the server; unlocked, it reads offline', async () => {
    const orderId = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'disk@wise.test', wisePassword: PASSWORD });
    const profile = await mkdtemp(join(tmpdir(), 'vault-profile-'));
    profiles.push(profile);
    const context = await chromium.launchPersistentContext(profile, {
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
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const { panel } = await openOrderCardOnPhone(page, orderId);
      await panel.getByRole('button', { name: 'Show password' }).waitFor({ timeout: 30_000 });
      // The check finds the password when it is stored in clear.
      assert.ok((await filesHolding(profile, PASSWORD)).length > 0, 'the clear password is in the IndexedDB files before the vault');

      await page.getByTestId('vault-offer').getByRole('button', { name: 'Set a PIN' }).click();
      const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
      await enable.getByLabel(/New PIN/).fill(PIN);
      await enable.getByLabel('The same PIN again').fill(PIN);
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.waitFor({ state: 'detached', timeout: 60_000 });

      // Locked by a page load; the browser has had its moment to write and compact.
      await page.goto('/profile');
      await page
        .getByTestId('vault-card')
        .getByText(/Locked now/)
        .waitFor({ timeout: 30_000 });
      await page.waitForTimeout(3_000);
      const holding = await filesHolding(profile, PASSWORD);
      assert.deepEqual(holding, [], `no IndexedDB file holds the password once the vault is on and locked: ${holding.join(', ')}`);

      // Unlock (the server checks the PIN), then offline: the password still shows.
      await page.goto('/my-orders');
      await panel.getByRole('button', { name: 'Unlock to show the password' }).click();
      const unlock = page.getByRole('dialog', { name: 'Unlock passwords' });
      await unlock.getByLabel('PIN', { exact: true }).fill(PIN);
      for (const width of [412, 820]) {
        await page.setViewportSize({ width, height: width === 412 ? 915 : 1180 });
        await checkA11y(page);
      }
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      await goOffline(context);
      await panel.getByRole('button', { name: /Hide/ }).click();
      await panel.getByRole('button', { name: 'Show password' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });
});
