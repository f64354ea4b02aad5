import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FIRST_ORDERS_PAGE, setUpServerAndBrowser } from './harness.ts';
import { heading, peopleOf, screenChecker, text, type Screen } from './screen-checks.ts';

/** Every screen, for every kind of person, at a phone's and a tablet's width (what is checked: screen-checks.ts). */

const e2e = setUpServerAndBrowser();
const people = peopleOf(e2e);
const checkScreen = screenChecker(people);

describe('every screen on a phone and a tablet', () => {
  it('storefront pages, signed out', async () => {
    await people();
    const screens: Screen[] = [
      { who: 'visitor', path: '/', ready: heading('Congratulations, Dear Buyer'), title: /Digital services, delivered fast/ },
      { who: 'visitor', path: '/about', ready: heading('Your Global Service Partner'), title: /^About Us · / },
      { who: 'visitor', path: '/contact', ready: heading('Contact Us'), title: /^Contact Us · / },
      {
        who: 'visitor',
        path: '/services',
        ready: (page) =>
          page
            .getByRole('link', { name: /^View Details/ })
            .first()
            .waitFor(),
        title: /^Services · /,
      },
      { who: 'visitor', path: '/Proxy', ready: heading('Premium Proxy IP Access'), title: /^Proxy IP Access · / },
      { who: 'visitor', path: '/login', ready: heading('Welcome Back'), title: /^Sign In · / },
      { who: 'visitor', path: '/register', ready: heading('Create Account'), title: /^Create Account · / },
      { who: 'visitor', path: '/forgot-password', ready: heading('Forgot Password?'), title: /^Forgot Password · / },
      { who: 'visitor', path: '/reset-password', ready: heading('Reset Password'), title: /^Reset Password · / },
      { who: 'visitor', path: '/under-construction', ready: heading('Under Construction'), title: /^Under Construction · / },
      { who: 'visitor', path: '/no-such-page', page: '404', ready: heading('Page not found'), title: /^Page not found · / },
    ];
    for (const screen of screens) await checkScreen(screen);
  });

  it("a customer's pages, and the dashboard's answer to them", async () => {
    const { service } = await people();
    const screens: Screen[] = [
      {
        who: 'customer',
        path: `/service-details/${service.id}`,
        shot: 'service-details',
        ready: heading(service.title),
        title: new RegExp(`^${service.title} · `),
      },
      { who: 'customer', path: '/my-orders', ready: (page) => page.getByRole('article').first().waitFor(), title: /^My Orders · / },
      { who: 'customer', path: '/profile', ready: (page) => page.getByRole('button', { name: 'Sign Out Other Devices' }).waitFor(), title: /^Profile · / },
      { who: 'customer', path: '/dashboard', ready: heading('No access to the dashboard'), title: /^Dashboard: no access · / },
    ];
    for (const screen of screens) await checkScreen(screen);
  });

  it("an admin's dashboard screens", async () => {
    const admin = (await people()).pages.get('admin')!;
    await admin.goto('/dashboard/all-wise-stocks');
    const details = admin.getByRole('link', { name: /^View Details of / }).first();
    await details.waitFor({ timeout: 30_000 });
    const stockPath = (await details.getAttribute('href'))!;

    const screens: Screen[] = [
      { who: 'admin', path: '/dashboard', ready: text(FIRST_ORDERS_PAGE), title: /^Admin Orders · / },
      { who: 'admin', path: '/dashboard/admin-users', ready: text(/^Showing \d+ of \d+ users$/), title: /^User Management · / },
      {
        who: 'admin',
        path: '/dashboard/admin-services',
        ready: (page) => page.getByRole('button', { name: /^Edit/ }).first().waitFor(),
        title: /^All Services · /,
      },
      { who: 'admin', path: '/dashboard/add-services', ready: heading('Add New Service'), title: /^Add New Service · / },
      { who: 'admin', path: '/dashboard/all-wise-stocks', ready: text(/^Showing \d+ of \d+ Wise stocks/), title: /^Wise Stocks · / },
      {
        who: 'admin',
        path: stockPath,
        shot: 'stock-details',
        ready: (page) => page.getByRole('button', { name: 'Update Status' }).waitFor(),
        title: / · Wise Stock · /,
      },
      { who: 'admin', path: '/dashboard/add-wise-stocks', ready: heading('Add New Wise Stock'), title: /^Add New Wise Stock · / },
      { who: 'admin', path: '/dashboard/import-wise-stocks', ready: heading('Import Wise Stock'), title: /^Import Wise Stock · / },
      { who: 'admin', path: '/dashboard/settings', ready: (page) => page.getByRole('button', { name: /^Save/ }).waitFor(), title: /^Settings · / },
      { who: 'admin', path: '/dashboard/payments', ready: (page) => page.getByRole('button', { name: 'Save USDT (TRC20)' }).waitFor(), title: /^Payments · / },
      { who: 'admin', path: '/dashboard/notifications', ready: heading('Notifications'), title: /^Notifications · / },
      { who: 'admin', path: '/fees', ready: heading('Under Construction'), title: /^Fees: Under Construction · / },
      { who: 'admin', path: '/dashboard/no-such-screen', page: '404', ready: heading('Page not found') },
    ];
    for (const screen of screens) await checkScreen(screen);
  });

  it("a moderator's dashboard: only screens they can use are offered, and the others say so with a way back", async () => {
    const page = (await people()).pages.get('moderator')!;
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Menu' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Dashboard' });
    await sidebar.getByRole('link', { name: 'Admin Orders' }).waitFor();
    const offered = await sidebar
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => ({ label: link.textContent ?? '', href: link.getAttribute('href') ?? '' })));
    for (const adminOnly of ['Services', 'Add Service', 'Settings', 'User Management', 'Add Wise Stock', 'Import Wise Stock']) {
      assert.ok(!offered.some(({ label }) => label === adminOnly), `a moderator is offered ${adminOnly}`);
    }
    await page.keyboard.press('Escape');
    // Every screen offered is one the moderator can use.
    for (const { label, href } of offered) {
      await page.goto(href);
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
      assert.equal(await page.getByRole('heading', { name: /Access Denied|No access/ }).count(), 0, `${label} (${href}) refuses a moderator`);
    }

    const screens: Screen[] = [
      { who: 'moderator', path: '/dashboard', ready: text(FIRST_ORDERS_PAGE) },
      { who: 'moderator', path: '/dashboard/all-wise-stocks', ready: text(/^Showing \d+ of \d+ Wise stocks/) },
      { who: 'moderator', path: '/dashboard/admin-users', ready: heading('Access Denied!') },
      { who: 'moderator', path: '/dashboard/settings', ready: heading('Access Denied!') },
      { who: 'moderator', path: '/dashboard/payments', ready: heading('Access Denied!') },
      { who: 'moderator', path: '/dashboard/add-services', ready: heading('Access Denied!') },
    ];
    for (const screen of screens) {
      await checkScreen(screen);
      if (screen.path === '/dashboard' || screen.path === '/dashboard/all-wise-stocks') continue;
      await page.getByRole('link', { name: 'Back to Orders' }).click();
      await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
    }
  });
});
