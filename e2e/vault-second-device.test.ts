import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { openOrderCardOnPhone, orderDeliveredToCustomer, setUpServerAndBrowser } from './harness.ts';

/**
 * A second device of the same account (issue 30 item 4, decisions 181, 254): a second browser profile signed
 * in as the same customer turns on a vault of its own; each vault's PIN tries are counted on the server
 * apart (a wrong PIN on one device does not use up the other's), and each device unlocks with its own PIN.
 */
const e2e = setUpServerAndBrowser();
const PASSWORD = 'Second-Device-Pass-2026';
const PIN_A = '615243';
const PIN_B = '908172';

async function turnOn(page: Page, panel: Locator, pin: string) {
  await panel.getByRole('button', { name: 'Show password' }).click({ timeout: 30_000 });
  await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
  await page.getByTestId('vault-offer').getByRole('button', { name: 'Set a PIN' }).click();
  const enable = page.getByRole('dialog', { name: 'Lock passwords with a PIN' });
  await enable.getByLabel(/New PIN/).fill(pin);
  await enable.getByLabel('The same PIN again').fill(pin);
  await enable.getByRole('button', { name: 'Turn On' }).click();
  await enable.waitFor({ state: 'detached', timeout: 60_000 });
}

/** Reloads (locked), tries a wrong PIN (the server's count of tries left is shown), then the right one. */
async function unlockAfterWrong(page: Page, panel: Locator, wrong: string, right: string) {
  await page.reload();
  await panel.getByRole('button', { name: 'Unlock to show the password' }).click({ timeout: 30_000 });
  const unlock = page.getByRole('dialog', { name: 'Unlock passwords' });
  await unlock.getByLabel('PIN', { exact: true }).fill(wrong);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await unlock
    .getByRole('alert')
    .getByText(/4 more wrong PINs/)
    .waitFor({ timeout: 30_000 });
  await unlock.getByLabel('PIN', { exact: true }).fill(right);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await panel.getByText(PASSWORD, { exact: true }).waitFor({ timeout: 30_000 });
}

describe('a second device’s vault', () => {
  it('turns on beside the first device’s; each unlocks with its own PIN, its wrong tries counted by the server apart', async () => {
    const orderId = await orderDeliveredToCustomer(e2e.server.url, { wiseEmail: 'second@wise.test', wisePassword: PASSWORD });
    await e2e.withPage(async (pageA) => {
      const a = await openOrderCardOnPhone(pageA, orderId);
      await turnOn(pageA, a.panel, PIN_A);
      await e2e.withPage(async (pageB) => {
        // The second profile signs in fresh: the password comes in clear to it (a sign-in is a proof), kept sealed.
        const b = await openOrderCardOnPhone(pageB, orderId);
        await turnOn(pageB, b.panel, PIN_B);
        // The first device's PIN is a wrong one here; counted against this vault only.
        await unlockAfterWrong(pageB, b.panel, PIN_A, PIN_B);
      });
      // The first device's vault still stands, with its own count: one wrong try leaves 4.
      await unlockAfterWrong(pageA, a.panel, PIN_B, PIN_A);
    });
  });
});
