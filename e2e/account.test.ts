import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkA11y, linkIn, mailTo, newContext, setUpServerAndBrowser, signIn } from './harness.ts';

/**
 * Password recovery from the link in the local mailbox (embedded mode, no SMTP_URL), and the profile's
 * account changes: name and mobile, password, email (confirmed from the new address), other devices.
 */

const e2e = setUpServerAndBrowser();
const SIZES = [
  { width: 412, height: 915 },
  { width: 820, height: 1180 },
];

/** A customer made the way the app makes one: the auth account, then the user record. */
async function newCustomer(name: string) {
  const email = `${name}-${Date.now()}@example.com`;
  const password = 'first-password-1';
  const signup = await fetch(`${e2e.server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: 'sb_publishable_embedded', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, data: { displayName: 'Nadia Rahman', mobile: '01711111111' } }),
  });
  assert.equal(signup.status, 200);
  const session = (await signup.json()) as { access_token: string; user: { id: string } };
  const record = await fetch(`${e2e.server.url}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uid: session.user.id, email, displayName: 'Nadia Rahman', mobile: '01711111111' }),
  });
  assert.equal(record.status, 201);
  return { email, password };
}

async function a11yAtBothSizes(page: Page) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await checkA11y(page);
  }
}

async function signOut(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  // Home comes first and the sign-out after it (use-sign-out.ts): done once the header offers Login again.
  await nav.getByRole('link', { name: 'Login' }).waitFor();
}

async function signInFails(page: Page, login: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(login.email);
  await page.getByLabel('Password', { exact: true }).fill(login.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText("Oops! That email or password doesn't look right.").waitFor();
}

describe('account recovery and changes', () => {
  it('resets a forgotten password from the link in the mailbox; the link works once', async () => {
    const customer = await newCustomer('forgot');
    await e2e.withPage(async (page) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/forgot-password');
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      assert.equal(await page.locator('form [role=alert]').textContent(), 'Please enter your email address');
      await page.getByLabel('Email Address').fill(customer.email);
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await page.getByRole('heading', { level: 1, name: 'Check Your Email' }).waitFor();
      assert.match((await page.getByRole('status').textContent()) ?? '', new RegExp(`If an account uses ${customer.email}, we have sent it a link`));
      await a11yAtBothSizes(page);

      const mail = await mailTo(e2e.server, customer.email);
      assert.equal(mail.subject, 'Reset your password');
      const link = linkIn(mail);
      assert.ok(link.startsWith(`${e2e.server.url}/auth/v1/verify?`), link);

      await page.goto(link);
      await page.waitForURL((url) => url.pathname === '/reset-password');
      await page.getByRole('heading', { level: 1, name: 'Choose a New Password' }).waitFor();
      // The tokens left the address bar once supabase-js took them.
      await page.waitForFunction(() => !location.hash.includes('access_token'));
      await a11yAtBothSizes(page);

      await page.getByLabel('New Password', { exact: true }).fill('second-password-2');
      await page.getByLabel('Confirm New Password').fill('something else');
      await page.getByRole('button', { name: 'Save New Password' }).click();
      assert.equal(await page.locator('form [role=alert]').textContent(), 'The two passwords do not match.');
      await page.getByLabel('Confirm New Password').fill('second-password-2');
      await page.getByRole('button', { name: 'Save New Password' }).click();
      await page.getByRole('heading', { level: 1, name: 'Password Changed' }).waitFor();
      await a11yAtBothSizes(page);

      await signOut(page);
      await signInFails(page, customer);
      await signIn(page, { email: customer.email, password: 'second-password-2' });
      await signOut(page);

      // The same link again: a clear word, and a way to ask for a new one.
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: 'Link Expired' }).waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /invalid or has expired/);
      await a11yAtBothSizes(page);
      await page.getByRole('link', { name: 'Send a New Link' }).click();
      await page.waitForURL('**/forgot-password');
    });
  });

  it('edits the name and mobile, changes the password and the email, and signs out the other devices', async () => {
    const customer = await newCustomer('profile');
    let phone = await (await newContext(e2e.browser, e2e.server.url)).newPage();
    await signIn(phone, customer);
    await e2e.withPage(async (page) => {
      await signIn(page, customer);
      await page.goto('/profile');
      const editing = page.getByRole('region', { name: 'Edit Profile' });
      await editing.getByLabel('Full Name').fill('Nadia Karim');
      await editing.getByLabel('Mobile Number').fill('01899999999');
      await editing.getByRole('button', { name: 'Save Changes' }).click();
      await editing.getByRole('status').getByText('Your profile has been saved.').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Nadia Karim' }).waitFor();
      await page.reload();
      await page.getByRole('region', { name: 'Personal Information' }).getByText('01899999999').waitFor();

      // The password, only with the current one.
      const password = page.getByRole('region', { name: 'Change Password' });
      await password.getByLabel('Current Password').fill('not-my-password');
      await password.getByLabel('New Password', { exact: true }).fill('third-password-3');
      await password.getByLabel('Confirm New Password').fill('third-password-3');
      await password.getByRole('button', { name: 'Change Password' }).click();
      await password.getByRole('alert').getByText('Your current password is not right. Check it and try again.').waitFor();
      await password.getByLabel('Current Password').fill(customer.password);
      await password.getByRole('button', { name: 'Change Password' }).click();
      await password.getByRole('status').getByText('Your password has been changed. Your other devices were signed out.').waitFor();
      await a11yAtBothSizes(page);

      // The other device lost its session with the password change.
      const phoneRefused = await phone.evaluate(async () => {
        const stored = JSON.parse(localStorage.getItem('storefront:auth') ?? '{}') as { refresh_token?: string };
        const answer = await fetch('/auth/v1/token?grant_type=refresh_token', {
          method: 'POST',
          headers: { apikey: 'sb_publishable_embedded', 'content-type': 'application/json' },
          body: JSON.stringify({ refresh_token: stored.refresh_token }),
        });
        return answer.status;
      });
      assert.equal(phoneRefused, 400);

      // The email, once the link sent to the new address is opened.
      const newEmail = `moved-${Date.now()}@example.com`;
      const email = page.getByRole('region', { name: 'Change Email' });
      await email.getByLabel('New Email Address').fill(newEmail);
      await email.getByRole('button', { name: 'Send Confirmation Link' }).click();
      await email
        .getByRole('status')
        .getByText(`We sent a confirmation link to ${newEmail}. Your email changes when you open it; until then, sign in with ${customer.email}.`)
        .waitFor();
      const mail = await mailTo(e2e.server, newEmail);
      assert.equal(mail.subject, 'Confirm your new email address');
      await page.goto(linkIn(mail));
      await page.waitForURL((url) => url.pathname === '/profile');
      await page.getByText(`Your email address has been changed to ${newEmail}. Sign in with it from now on.`).waitFor();
      await page.getByRole('region', { name: 'Personal Information' }).getByText(newEmail).waitFor({ timeout: 30_000 });

      // Signed in on another device with the new address, then signed out of it from here.
      await phone.context().close();
      phone = await (await newContext(e2e.browser, e2e.server.url)).newPage();
      await signIn(phone, { email: newEmail, password: 'third-password-3' });
      await page.getByRole('region', { name: 'Other Devices' }).getByRole('button', { name: 'Sign Out Other Devices' }).click();
      await page.getByText('Every other device has been signed out. This one stays signed in.').waitFor();
      const phoneAfter = await phone.evaluate(async () => {
        const stored = JSON.parse(localStorage.getItem('storefront:auth') ?? '{}') as { refresh_token?: string };
        const answer = await fetch('/auth/v1/token?grant_type=refresh_token', {
          method: 'POST',
          headers: { apikey: 'sb_publishable_embedded', 'content-type': 'application/json' },
          body: JSON.stringify({ refresh_token: stored.refresh_token }),
        });
        return answer.status;
      });
      assert.equal(phoneAfter, 400);

      await signOut(page);
      await signInFails(page, { email: customer.email, password: 'third-password-3' });
      await signIn(page, { email: newEmail, password: 'third-password-3' });
    });
    await phone.context().close();
  });
});
