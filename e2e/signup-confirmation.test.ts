import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { demoLogins, linkIn, mailTo, setUpServerAndBrowser, waitForAppTakeover } from './harness.ts';

/**
 * Registration with AUTH_CONFIRM_SIGNUPS=1 (decision 262): the form says to check the mail, sign-in waits
 * for the address to be confirmed, the mailed link confirms it and signs in (the user record made then),
 * and a taken address gets the same screen while its owner is only told.
 */

const e2e = setUpServerAndBrowser({ AUTH_CONFIRM_SIGNUPS: '1' });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const CHECK_MAIL = /^Check your email: we sent a message to .+\. Open the link in it to confirm your account and sign in\.$/;

async function register(page: Page, email: string, password: string): Promise<string> {
  await page.goto('/register');
  await waitForAppTakeover(page);
  await page.getByLabel('Full Name').fill('Nadia Rahman');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Mobile Number').fill('01711111111');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  const notice = page.locator('form [role=status]');
  await notice.waitFor({ timeout: 30_000 });
  return (await notice.textContent()) ?? '';
}

describe('registration confirmed by mail', () => {
  it('asks to check the mail; the link confirms the address, signs in and makes the user record', async () => {
    const email = `confirm-${Date.now()}@example.com`;
    const password = 'tulip-river-42';
    await e2e.withPage(async (page) => {
      assert.match(await register(page, email, password), CHECK_MAIL);
      assert.equal(new URL(page.url()).pathname, '/register');
      await mainNav(page).getByRole('link', { name: 'Login' }).waitFor();

      // Before the link: the right password is not enough, and the screen says what to do.
      await page.goto('/login');
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Please confirm your email address first: open the link we emailed you when you registered.').waitFor();

      const mail = await mailTo(e2e.server, email);
      assert.equal(mail.subject, 'Confirm your account');
      await page.goto(linkIn(mail));
      await mainNav(page).getByRole('button', { name: 'Logout' }).waitFor({ timeout: 30_000 });
      // The record the registration could not save yet was made from the account's metadata.
      await page.goto('/profile');
      await page.getByRole('heading', { level: 1, name: 'Nadia Rahman' }).waitFor({ timeout: 30_000 });
      await page.getByRole('region', { name: 'Personal Information' }).getByText('01711111111').waitFor();
    });
  });

  it('answers a taken address with the same screen, and only tells its owner', async () => {
    await e2e.withPage(async (page) => {
      assert.match(await register(page, demoLogins.customer.email, 'another-secret-1'), CHECK_MAIL);
      await mainNav(page).getByRole('link', { name: 'Login' }).waitFor();
    });
    const notice = await mailTo(e2e.server, demoLogins.customer.email);
    assert.equal(notice.subject, 'Someone tried to register with your email address');
    assert.doesNotMatch(notice.text, /https?:\/\//);
  });
});
