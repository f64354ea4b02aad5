import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
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
  waitForServiceWorkerControl,
} from './harness.ts';

/**
 * Issue 17 item 5 in the browser (decisions 068, 181): the PIN lock on delivered passwords. While locked, no
 * IndexedDB store and no Cache Storage entry holds the password; the PIN (checked by the server) unlocks
 * it, and it then reads offline; five wrong
 * PINs wipe the device's copy, and it syncs again after the next sign-in.
 */
const e2e = setUpServerAndBrowser();

/** Every record of every object store of every IndexedDB database of the origin, and every Cache Storage answer, as text. */
function storedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const texts: string[] = [];
    const asText = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (item instanceof ArrayBuffer ? new TextDecoder().decode(item) : item));
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        for (const row of rows) {
          texts.push(asText(row));
          // A Blob (a queued screenshot) is read too.
          for (const value of Object.values((row ?? {}) as Record<string, unknown>)) if (value instanceof Blob) texts.push(await value.text());
        }
      }
      db.close();
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) texts.push(request.url, (await (await cache.match(request))?.text()) ?? '');
    }
    return texts.join('\n');
  });
}

const PASSWORD = 'Vault-Kept-2026!';
const PIN = '482916';
/** A sealed password as a stored row holds it (the bundle in Cache Storage holds the bare prefix). */
const SEALED = '"wisePassword":"vault1.';
/** The same, sealed with the device key while the vault is off (decision 254). */
const DEVICE_SEALED = '"wisePassword":"dev1.';

async function setViewport(page: Page, width: number) {
  await page.setViewportSize({ width, height: width === 412 ? 915 : 1180 });
}

/** The dialog's axe check at both widths. */
async function checkDialogA11y(page: Page) {
  for (const width of [412, 820]) {
    await setViewport(page, width);
    await checkA11y(page);
  }
  await setViewport(page, 412);
}

describe('the vault', () => {
  it('keeps the delivered password unreadable while locked, opens it with the PIN (checked by the server) and reads it offline after, and wipes at the fifth wrong PIN', async () => {
    const orderId = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'vault@wise.test', wisePassword: PASSWORD });

    await e2e.withPage(async (page, context) => {
      const { panel } = await openOrderCardOnPhone(page, orderId);
      await panel.getByRole('button', { name: 'Show password' }).waitFor({ timeout: 30_000 });
      // Before the vault: the password is on the device, sealed with the device key from its first write (decision 254).
      const before = await storedText(page);
      assert.ok(before.includes(DEVICE_SEALED), 'the device copy holds the password, sealed with the device key, before the vault is on');
      assert.ok(!before.includes(PASSWORD), 'the device copy never holds the password in clear, vault off included');

      // Offered after the delivery; turned on with a PIN.
      const offer = page.getByTestId('vault-offer');
      await offer.getByRole('button', { name: 'Set a PIN' }).click();
      const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
      await enable.getByLabel(/New PIN/).waitFor();
      await checkDialogA11y(page);
      await enable.getByLabel(/New PIN/).fill(PIN);
      await enable.getByLabel('The same PIN again').fill('482917');
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.getByRole('alert').getByText('The two PINs differ.').waitFor();
      await enable.getByLabel('The same PIN again').fill(PIN);
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.waitFor({ state: 'detached', timeout: 30_000 });
      await offer.waitFor({ state: 'detached' });

      // Unlocked right after: Show opens it.
      await panel.getByRole('button', { name: 'Show password' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor();

      // A page load starts locked (the key lives in memory only): nothing readable is left on the device.
      await page.goto('/profile');
      const vaultCard = page.getByTestId('vault-card');
      await vaultCard.getByText(/Locked now/).waitFor({ timeout: 30_000 });
      await checkA11y(page);
      const locked = await storedText(page);
      assert.ok(!locked.includes(PASSWORD), 'no IndexedDB store and no cached answer holds the password while locked');
      assert.ok(locked.includes(SEALED), 'the sealed password is on the device');

      // The PIN is checked by the server (decision 181); once unlocked, the password reads offline.
      await page.goto('/my-orders');
      await panel.getByRole('button', { name: 'Unlock to show the password' }).click();
      const unlock = page.getByRole('dialog', { name: 'Unlock passwords' });
      await unlock.getByLabel('PIN', { exact: true }).waitFor();
      await checkDialogA11y(page);
      await unlock.getByLabel('PIN', { exact: true }).fill(PIN);
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      assert.ok(!(await storedText(page)).includes(PASSWORD), 'unlocking writes nothing readable either');
      await goOffline(context);
      await panel.getByRole('button', { name: 'Hide password' }).click();
      await panel.getByRole('button', { name: 'Show password' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      await goOnline(context);

      // A reload forgets the key; five wrong PINs in a row (counted by the server) wipe the device's copy and sign out.
      await page.reload();
      await panel.getByRole('button', { name: 'Unlock to show the password' }).click();
      for (let attempt = 1; attempt <= 4; attempt++) {
        await unlock.getByLabel('PIN', { exact: true }).fill('000000');
        await unlock.getByRole('button', { name: 'Unlock' }).click();
        await unlock
          .getByRole('alert')
          .getByText(attempt === 4 ? /One more wrong PIN/ : new RegExp(`${5 - attempt} more wrong PINs`))
          .waitFor({ timeout: 30_000 });
      }
      await checkA11y(page);
      await unlock.getByLabel('PIN', { exact: true }).fill('000000');
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await page.getByText(/Too many wrong PINs/).waitFor({ timeout: 30_000 });
      await page.waitForURL(/\/login$/);
      const wiped = await storedText(page);
      const left = wiped.split('\n').filter((text) => text.includes(SEALED) || text.includes(PASSWORD));
      assert.deepEqual(left, [], 'the device copy is gone');

      // Signed in again (online): the password syncs back, without the vault.
      await goOnline(context);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      await panel.getByRole('button', { name: 'Show password' }).click({ timeout: 30_000 });
      await panel.getByText(PASSWORD, { exact: true }).waitFor();
    });
  });

  it("locks a staff device's stock passwords too", async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const stockPassword = 'Stock-Vault-77!';
    await admin.call(
      'POST',
      '/api/wise-stocks',
      { wiseName: 'Vault stock', wiseEmail: 'vault-stock@wise.test', wisePassword: stockPassword, authImage: 'https://img.test/vault.png', userName: 'Admin' },
      201,
    );
    await e2e.withPage(async (page) => {
      await setViewport(page, 820);
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.admin);
      await page.goto('/profile');
      const vaultCard = page.getByTestId('vault-card');
      await vaultCard.getByRole('button', { name: 'Turn On PIN Lock' }).click({ timeout: 30_000 });
      // The first sync brings the stock (and its password) to the device.
      for (let tries = 0; !(await storedText(page)).includes(stockPassword); tries++) {
        assert.ok(tries < 60, 'the stock reached the device');
        await page.waitForTimeout(500);
      }
      const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
      await enable.getByLabel(/New PIN/).fill(PIN);
      await enable.getByLabel('The same PIN again').fill(PIN);
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.waitFor({ state: 'detached', timeout: 30_000 });
      await vaultCard.getByRole('button', { name: 'Lock Now' }).click();
      assert.ok(!(await storedText(page)).includes(stockPassword), 'no stock password is readable on the staff device while locked');

      // The stock list asks for the unlock, then shows it.
      await page.goto('/dashboard/all-wise-stocks?q=vault-stock');
      await page.getByRole('button', { name: 'Unlock to show the password of Vault stock' }).click({ timeout: 30_000 });
      const unlock = page.getByRole('dialog', { name: 'Unlock passwords' });
      await unlock.getByLabel('PIN', { exact: true }).fill(PIN);
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await page.getByText(stockPassword, { exact: true }).waitFor({ timeout: 30_000 });
      assert.ok(!(await storedText(page)).includes(stockPassword), 'still nothing readable stored');

      // Turned off with the PIN: back in clear.
      await page.goto('/profile');
      await vaultCard.getByRole('button', { name: 'Turn Off PIN Lock' }).click();
      const disable = page.getByRole('dialog', { name: 'Turn off the PIN lock' });
      await disable.getByLabel('PIN', { exact: true }).fill(PIN);
      await disable.getByRole('button', { name: 'Turn Off' }).click();
      await disable.waitFor({ state: 'detached', timeout: 30_000 });
      await vaultCard.getByRole('button', { name: 'Turn On PIN Lock' }).waitFor();
      assert.ok((await storedText(page)).includes(stockPassword), 'turning the vault off opens the passwords back');
    });
  });
  it('unlocks with a passkey through WebAuthn PRF (Chromium virtual authenticator), offline', async () => {
    await e2e.withPage(async (page, context) => {
      await setViewport(page, 412);
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          ctap2Version: 'ctap2_1',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          hasPrf: true,
        },
      });
      await signIn(page, demoLogins.customer);
      await page.goto('/profile');
      const vaultCard = page.getByTestId('vault-card');
      await vaultCard.getByRole('button', { name: 'Turn On PIN Lock' }).click({ timeout: 30_000 });
      const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
      await enable.getByLabel(/New PIN/).fill(PIN);
      await enable.getByLabel('The same PIN again').fill(PIN);
      await enable.getByRole('button', { name: 'Turn On' }).click();
      await enable.waitFor({ state: 'detached', timeout: 30_000 });

      await vaultCard.getByRole('button', { name: 'Add Passkey Unlock' }).click();
      const add = page.getByRole('dialog', { name: 'Unlock with a passkey too' });
      await add.getByLabel('PIN', { exact: true }).waitFor();
      await checkDialogA11y(page);
      await add.getByLabel('PIN', { exact: true }).fill(PIN);
      await add.getByRole('button', { name: 'Add Passkey' }).click();
      await add.waitFor({ state: 'detached', timeout: 30_000 });
      await vaultCard.getByText(/asks for your PIN or passkey/).waitFor();

      // Offline, after a reload (locked): the passkey opens the password without the PIN.
      await goOffline(context);
      await page.goto('/my-orders');
      const panel = page.getByRole('region', { name: /Credentials for/ }).filter({ has: page.getByText('vault@wise.test') });
      await panel.getByRole('button', { name: 'Unlock to show the password' }).click({ timeout: 30_000 });
      const unlock = page.getByRole('dialog', { name: 'Unlock passwords' });
      await unlock.getByRole('button', { name: 'Unlock with Passkey' }).click();
      await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
      assert.ok(!(await storedText(page)).includes(PASSWORD), 'the passkey unlock writes nothing readable');
    });
  });
});
