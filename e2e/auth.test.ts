import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { checkA11y, databaseNames, demoLogins, setUpServerAndBrowser, signIn, waitForAppTakeover } from './harness.ts';

/** Registration, sign-out and sign-in from a deep link, through the real forms, plus the shell's a11y. */

const e2e = setUpServerAndBrowser();
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const alertText = (page: Page) => page.locator('form [role=alert]');

describe('sign-in journeys', () => {
  it('registers a new customer, returns to the page they came from, signs out and back in from a deep link', async () => {
    await e2e.withPage(async (page) => {
      const email = `new-customer-${Date.now()}@example.com`;
      const password = 'tulip-river-42';

      // From the About page through Login to the sign-up form: the return address travels along.
      await page.goto('/about');
      await waitForAppTakeover(page);
      await mainNav(page).getByRole('link', { name: 'Login' }).click();
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.waitForURL((url) => url.pathname === '/register' && url.searchParams.get('next') === '/about');
      await checkA11y(page);

      await page.getByRole('button', { name: 'Create Account' }).click();
      assert.equal(await alertText(page).textContent(), 'Please fill in all fields');

      await page.getByLabel('Full Name').fill('Nadia Rahman');
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Mobile Number').fill('+880171234567890123');
      assert.equal(await page.getByLabel('Mobile Number').inputValue(), '+88017123456789', 'the mobile number stops at 15 characters');
      await page.getByLabel('Password', { exact: true }).fill('abc12');
      await page.getByRole('button', { name: 'Create Account' }).click();
      assert.equal(await alertText(page).textContent(), 'Password should be at least 6 characters');

      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Show password' }).click();
      assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('type'), 'text');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForURL((url) => url.pathname === '/about', { timeout: 30_000 });
      await mainNav(page).getByRole('button', { name: 'Logout' }).waitFor();

      // The profile reads the record registration saved.
      await mainNav(page).getByRole('button', { name: 'Dashboard' }).click();
      await mainNav(page).getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { level: 1, name: 'Nadia Rahman' }).waitFor();
      assert.match((await page.getByText(/^Good (Morning|Afternoon|Evening),$/).textContent()) ?? '', /^Good (Morning|Afternoon|Evening),$/);
      const personal = page.getByRole('region', { name: 'Personal Information' });
      await personal.getByText('+88017123456789').waitFor();
      await personal.getByText(email).waitFor();
      await page.getByRole('region', { name: 'Account Details' }).getByText('USER', { exact: true }).waitFor();
      await checkA11y(page);
      const userDbs = (await databaseNames(page)).filter((name) => name.startsWith('storefront-user-'));
      assert.equal(userDbs.length, 1, 'signed in, the user has a local database');

      // Logout: back home, signed out, the user's local data gone.
      await mainNav(page).getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await mainNav(page).getByRole('link', { name: 'Login' }).waitFor();
      await page.waitForFunction(async () => !(await indexedDB.databases()).some((db) => db.name?.startsWith('storefront-user-')), undefined, {
        timeout: 10_000,
      });

      // A deep link while signed out leads through the login form and back to where it pointed.
      await page.goto('/profile');
      await page.waitForURL('**/login');
      await checkA11y(page);
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText("Oops! That email or password doesn't look right.").waitFor();
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((url) => url.pathname === '/profile', { timeout: 30_000 });
      await page.getByRole('heading', { level: 1, name: 'Nadia Rahman' }).waitFor();
    });
  });

  it('returns to the page whose Login was tapped before the app took it over', async () => {
    await e2e.withPage(async (page) => {
      // The server's HTML of /services, with the app's code held back: its links are plain links then.
      let holding = true;
      const held: Route[] = [];
      await page.route(
        (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'),
        (route) => (holding ? void held.push(route) : route.continue()),
      );
      await page.goto('/services', { waitUntil: 'commit' });
      await page.getByRole('heading', { name: 'Explore Premium Services', level: 1 }).waitFor();
      const login = mainNav(page).getByRole('link', { name: 'Login' });
      await login.waitFor();
      const hydrated = await page.evaluate(() => Object.keys(document.querySelector('h1')!).some((key) => key.startsWith('__reactFiber')));
      assert.equal(hydrated, false, 'the app has not taken the page over');

      await login.click();
      await page.waitForURL((url) => url.pathname === '/login', { waitUntil: 'commit' });
      holding = false;
      // The sign-in screen's code may go now (the old page's requests went with it).
      for (const route of held) await route.continue().catch(() => undefined);

      await page.getByLabel('Email Address').fill(demoLogins.customer.email);
      await page.getByLabel('Password', { exact: true }).fill(demoLogins.customer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
      assert.equal(new URL(page.url()).pathname, '/services', 'back on the page the visitor came from');
      await page.getByRole('heading', { name: 'Explore Premium Services', level: 1 }).waitFor();
      await mainNav(page).getByRole('button', { name: 'Logout' }).waitFor();
    });
  });

  // Before the fix the router took `//evil.example/phish` for another site and refused it ("External
  // navigation is not allowed"): the visitor stayed signed in on the sign-in screen with an error.
  it('goes home after signing in from a link whose next resolves to another host (/.//host)', async () => {
    await e2e.withPage(async (page) => {
      const origin = new URL(e2e.server.url).origin;
      const offSite: string[] = [];
      // Any request to the other host is recorded and refused: the test needs no network.
      await page.route(
        (url) => url.hostname === 'evil.example',
        (route) => {
          offSite.push(route.request().url());
          return route.abort();
        },
      );
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto('/login?next=%2F.%2F%2Fevil.example%2Fphish');
      await page.getByLabel('Email Address').fill(demoLogins.customer.email);
      await page.getByLabel('Password', { exact: true }).fill(demoLogins.customer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await mainNav(page).getByRole('button', { name: 'Logout' }).waitFor({ timeout: 30_000 });
      await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 }).catch(() => undefined);
      assert.deepEqual(offSite, [], 'no request went to the other host');
      assert.deepEqual(errors, []);
      assert.equal(new URL(page.url()).origin, origin);
      assert.equal(new URL(page.url()).pathname, '/');
    });
  });

  it('refuses to register an email that already has an account, and stays signed out', async () => {
    await e2e.withPage(async (page) => {
      await page.goto('/register');
      await page.getByLabel('Full Name').fill('Somebody Else');
      await page.getByLabel('Email Address').fill(demoLogins.customer.email);
      await page.getByLabel('Mobile Number').fill('01700000000');
      await page.getByLabel('Password', { exact: true }).fill('another-secret-1');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForFunction(() => document.querySelector('form [role=alert]')?.textContent?.startsWith('Registration failed: '), undefined, {
        timeout: 30_000,
      });
      assert.equal(new URL(page.url()).pathname, '/register');
      await mainNav(page).getByRole('link', { name: 'Login' }).waitFor();
    });
  });

  it('shows Admin Dashboard to staff only', async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.customer);
      await mainNav(page).getByRole('button', { name: 'Dashboard' }).click();
      await mainNav(page).getByRole('link', { name: 'My Orders' }).waitFor();
      assert.equal(await mainNav(page).getByRole('link', { name: 'Admin Dashboard' }).count(), 0);
    });
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.moderator);
      await mainNav(page).getByRole('button', { name: 'Dashboard' }).click();
      const admin = mainNav(page).getByRole('link', { name: 'Admin Dashboard' });
      await admin.waitFor({ timeout: 30_000 });
      assert.equal(await admin.getAttribute('href'), '/dashboard');
    });
  });
});

describe('the shell', () => {
  it('passes axe on the home and Under Construction pages and keeps the mobile menu in hand', async () => {
    await e2e.withPage(async (page) => {
      await page.goto('/');
      await mainNav(page).getByRole('link', { name: 'Login' }).waitFor();
      await checkA11y(page);

      const contact = page.getByRole('link', { name: 'Contact Us (opens in a new tab)' });
      assert.equal(await contact.getAttribute('target'), '_blank');
      assert.match((await contact.getAttribute('rel')) ?? '', /noopener/);
      assert.match((await page.locator('footer').textContent()) ?? '', new RegExp(`© ${new Date().getFullYear()} .+\\. All rights reserved\\.`));

      // Services submenu by keyboard: Enter opens it, Escape closes it and returns focus.
      const services = mainNav(page).getByRole('button', { name: 'Services' });
      await services.focus();
      await page.keyboard.press('Enter');
      assert.equal(await services.getAttribute('aria-expanded'), 'true');
      await page.keyboard.press('Escape');
      assert.equal(await services.getAttribute('aria-expanded'), 'false');
      assert.equal(await services.evaluate((button) => button === document.activeElement), true);

      await page.goto('/under-construction');
      await page.getByRole('heading', { name: 'Under Construction' }).waitFor();
      const progress = page.getByRole('progressbar');
      assert.equal(await progress.getAttribute('value'), '75');
      assert.equal(await page.getByRole('link', { name: 'Return Home' }).getAttribute('href'), '/');
      await checkA11y(page);

      // Mobile: the menu collapses on Escape, on a click outside, and when the window grows to 1024px.
      await page.setViewportSize({ width: 390, height: 800 });
      const toggle = page.getByRole('button', { name: 'Menu' });
      await toggle.click();
      const panel = page.locator('#mobile-menu');
      await panel.getByRole('link', { name: 'About' }).waitFor();
      await checkA11y(page);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      await toggle.click();
      await page.getByRole('heading', { name: 'Under Construction' }).click();
      await panel.waitFor({ state: 'hidden' });
      await toggle.click();
      await panel.getByRole('link', { name: 'About' }).waitFor();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.waitForFunction(() => document.getElementById('mobile-menu')?.hidden === true);
      await page.setViewportSize({ width: 390, height: 800 });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    });
  });

  it('gives the dashboard a titled sidebar drawer whose Attendance and Fees links open the Under Construction page in the dashboard', async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.admin);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Notifications' }).waitFor({ timeout: 30_000 });
      const sidebar = page.getByRole('navigation', { name: 'Dashboard' });
      assert.equal(await sidebar.isVisible(), false, 'the drawer starts closed on a phone');
      await page.getByRole('button', { name: 'Menu' }).click();
      await sidebar.getByRole('link', { name: 'Student Attn Reports' }).waitFor();
      assert.match((await sidebar.getByRole('link', { name: 'Student Attn Reports' }).textContent()) ?? '', /5/);
      await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
      // The screens inside belong to other tests; this one checks the frame.
      await checkA11y(page, { exclude: ['main'] });
      await page.getByRole('button', { name: 'Close menu' }).click();
      await sidebar.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Menu' }).click();
      await sidebar.getByRole('link', { name: 'All Wise Stocks' }).waitFor();
      await page.keyboard.press('Escape');
      await sidebar.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Menu' }).click();
      await sidebar.getByRole('link', { name: 'Fees' }).click();
      await page.getByRole('heading', { name: 'Under Construction' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/fees');
      // Still in the dashboard's frame, with its way back to the shop.
      await page.getByRole('button', { name: 'Notifications' }).waitFor();
      await page.getByRole('banner').getByRole('link', { name: /Shop/ }).click();
      await page.waitForURL((url) => url.pathname === '/');
    });
  });
});
