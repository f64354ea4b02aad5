import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../edge-api/src/contract/settings.ts';
import { apiSession, checkA11y, demoLogins, newContext, setUpServerAndBrowser, signIn } from './harness.ts';

/**
 * Every screen at a phone's width (412 px) and a tablet's (820 px): nothing that can be tapped lies
 * beyond the screen's edge (the page never scrolls sideways, and no row's actions hide in a table that
 * does), every page has a window title of its own, axe-core finds nothing serious, and a screenshot of
 * each is kept in test-results/screens/ for a reviewer to look at.
 */

const e2e = setUpServerAndBrowser();
const SIZES = [
  { name: 'phone', width: 412, height: 915 },
  { name: 'tablet', width: 820, height: 1180 },
] as const;
const SHOTS = join(new URL('..', import.meta.url).pathname, 'test-results', 'screens');

type Who = 'visitor' | 'customer' | 'moderator' | 'admin';

interface Screen {
  who: Who;
  path: string;
  /** The screenshot's name, when the path has an id in it. */
  shot?: string;
  /** Which page this is, when several addresses show one (every unknown address shows the 404 page). */
  page?: string;
  /** Shown once the screen has its content. */
  ready: (page: Page) => Promise<unknown>;
  /** What the window title must say, besides being the page's own. */
  title?: RegExp;
}

const heading = (name: string | RegExp, level = 1) => (page: Page) => page.getByRole('heading', { level, name }).first().waitFor({ timeout: 30_000 });
const text = (value: string | RegExp) => (page: Page) => page.getByText(value).first().waitFor({ timeout: 30_000 });

let ready: Promise<{ pages: Map<Who, Page>; service: Service }> | undefined;

/**
 * One context per person, signed in once and reused for every screen and size (made on first use: the
 * harness's own before hook starts the server and the browser first). They close with the browser.
 */
function people() {
  ready ??= (async () => {
    await mkdir(SHOTS, { recursive: true });
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const pages = new Map<Who, Page>();
    for (const who of ['visitor', 'customer', 'moderator', 'admin'] as const) {
      const page = await (await newContext(e2e.browser, e2e.server.url)).newPage();
      if (who !== 'visitor') await signIn(page, demoLogins[who]);
      pages.set(who, page);
    }
    return { pages, service: services.find((candidate) => candidate.popular) ?? services[0]! };
  })();
  return ready;
}

/** Visible controls whose box runs past the left or right edge of the screen (sr-only ones are 1 px and skipped). */
function controlsOutOfView(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const selector = 'a[href], button, select, input:not([type="hidden"]), textarea, [role="button"], [tabindex]:not([tabindex="-1"])';
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 1 && box.height > 1 && (box.left < -1 || box.right > width + 1))
      .map(({ element, box }) => `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}" at ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
  });
}

async function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

const titles = new Map<string, string>();

/** Opens the screen at each size and checks it; resolves the title it had. */
async function checkScreen(screen: Screen): Promise<void> {
  const page = (await people()).pages.get(screen.who)!;
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(screen.path);
    await screen.ready(page);
    // Lazy images and the title's effect settle.
    await page.waitForLoadState('load');
    const where = `${screen.who} ${screen.path} at ${size.width}px`;

    assert.equal(await pageScrollsSideways(page), false, `${where}: the page scrolls sideways`);
    assert.deepEqual(await controlsOutOfView(page), [], `${where}: controls beyond the screen's edge`);

    const title = await page.title();
    const path = screen.page ?? new URL(page.url()).pathname;
    if (screen.title) assert.match(title, screen.title, `${where}: title`);
    const known = titles.get(path);
    if (known === undefined) {
      const taken = [...titles].find(([, other]) => other === title);
      assert.equal(taken, undefined, `${where}: the title "${title}" is also the title of ${taken?.[0]}`);
      titles.set(path, title);
    }

    await checkA11y(page);
    const name = `${screen.who}-${screen.shot ?? (screen.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home')}-${size.width}`;
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }
}

describe('every screen on a phone and a tablet', () => {
  it('storefront pages, signed out', async () => {
    await people();
    const screens: Screen[] = [
      { who: 'visitor', path: '/', ready: heading('Congratulations, Dear Buyer'), title: /Digital services, delivered fast/ },
      { who: 'visitor', path: '/about', ready: heading('Your Global Service Partner'), title: /^About Us · / },
      { who: 'visitor', path: '/contact', ready: heading('Contact Us'), title: /^Contact Us · / },
      { who: 'visitor', path: '/services', ready: (page) => page.getByRole('link', { name: /^View Details/ }).first().waitFor(), title: /^Services · / },
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
      { who: 'customer', path: `/service-details/${service.id}`, shot: 'service-details', ready: heading(service.title), title: new RegExp(`^${service.title} · `) },
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
      { who: 'admin', path: '/dashboard', ready: text(/^Showing 1–10 of \d+ orders$/), title: /^Admin Orders · / },
      { who: 'admin', path: '/dashboard/admin-users', ready: text(/^Showing \d+ of \d+ users$/), title: /^User Management · / },
      { who: 'admin', path: '/dashboard/admin-services', ready: (page) => page.getByRole('button', { name: /^Edit/ }).first().waitFor(), title: /^All Services · / },
      { who: 'admin', path: '/dashboard/add-services', ready: heading('Add New Service'), title: /^Add New Service · / },
      { who: 'admin', path: '/dashboard/all-wise-stocks', ready: text(/^Showing \d+ of \d+ Wise stocks/), title: /^Wise Stocks · / },
      { who: 'admin', path: stockPath, shot: 'stock-details', ready: (page) => page.getByRole('button', { name: 'Update Status' }).waitFor(), title: / · Wise Stock · / },
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
    const offered = await sidebar.getByRole('link').evaluateAll((links) => links.map((link) => ({ label: link.textContent ?? '', href: link.getAttribute('href') ?? '' })));
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
      { who: 'moderator', path: '/dashboard', ready: text(/^Showing 1–10 of \d+ orders$/) },
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

describe('the tablet and the phone in use', () => {
  it('an admin on an 820 px tablet finds, changes, delivers and deletes an order without a sideways scroll', async () => {
    const page = (await people()).pages.get('admin')!;
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto('/dashboard?paymentStatus=pending');
    await page.getByText(/^Showing 1–\d+ of \d+ orders$/).waitFor({ timeout: 30_000 });
    const first = page.getByRole('article').first();
    const orderLabel = (await first.getByLabel(/^Order status of order #/).getAttribute('aria-label'))?.replace('Order status of ', '') ?? '';
    const shortId = orderLabel.slice('order #'.length);

    // Find it among all orders.
    await page.goto('/dashboard');
    await page.getByLabel('Search', { exact: true }).fill(shortId);
    await page.getByText('Showing 1–1 of 1 orders').waitFor();
    const card = page.getByRole('article').first();
    const inView = async () => {
      assert.equal(await pageScrollsSideways(page), false, 'the page scrolls sideways');
      assert.deepEqual(await controlsOutOfView(page), []);
    };
    await inView();

    // Change it: a toast says so.
    await card.getByLabel(`Order status of ${orderLabel}`).selectOption('processing');
    await page.locator('.toast').getByText(`Order #${shortId} is now Processing.`).waitFor();

    // Deliver it.
    await card.getByRole('button', { name: `Add credentials to ${orderLabel}` }).click();
    const modal = page.getByRole('dialog', { name: 'Add WISE Credentials' });
    await modal.waitFor();
    await inView();
    await page.screenshot({ path: join(SHOTS, 'admin-deliver-modal-820.png') });
    await modal.getByLabel('WISE Email').fill(`tablet.${Date.now()}@wise.test`);
    await modal.getByLabel('WISE Password').fill('Tablet#Delivery-1');
    await modal.getByRole('button', { name: 'Approve & Deliver' }).click();
    await page.getByText('Order updated successfully with WISE credentials!').waitFor();
    await modal.waitFor({ state: 'detached' });

    // Delete it, after a question that names it.
    await card.getByRole('button', { name: `Delete ${orderLabel}` }).click();
    const question = page.getByRole('dialog', { name: 'Delete order?' });
    await question.getByText(new RegExp(`^Order #${shortId}: `)).waitFor();
    await inView();
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText(`Order #${shortId} deleted.`).waitFor();
  });

  it("on a phone the dashboard's bell panel, drawer and delete questions fit the screen and name what they are about", async () => {
    // An order whose payment proof waits for a check, for the bell to count.
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const services = await customer.get<Service[]>('/api/services');
    const service = services.find((candidate) => candidate.category !== 'wise' && !candidate.needsDetails) ?? services[0]!;
    const proofed = await customer.call<{ order: { id: string } }>('POST', '/api/orders', { productId: service.id }, 201);
    await customer.call('PUT', `/api/orders/${proofed.order.id}/payment-proof`, { transactionId: `E2E-BELL-${Date.now()}` });

    const page = (await people()).pages.get('admin')!;
    await page.setViewportSize({ width: 412, height: 915 });
    const fits = async (what: string) => {
      assert.equal(await pageScrollsSideways(page), false, `${what}: the page scrolls sideways`);
      assert.deepEqual(await controlsOutOfView(page), [], what);
    };

    await page.goto('/dashboard/admin-services');
    await page.getByRole('button', { name: /^Edit/ }).first().waitFor({ timeout: 30_000 });
    const bell = page.getByRole('button', { name: 'Notifications' });
    await bell.click();
    const panel = page.locator(`#${(await bell.getAttribute('aria-controls'))!.replace(/:/g, '\\:')}`);
    await panel.getByRole('link', { name: /Orders waiting for a payment check/ }).waitFor({ timeout: 30_000 });
    await fits('the bell panel');
    await page.screenshot({ path: join(SHOTS, 'admin-bell-panel-412.png') });
    await panel.getByRole('link', { name: /Orders waiting for a payment check/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.get('attention') === 'payment-check');

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    // Once it has slid in.
    await page.waitForFunction(() => document.getElementById('dashboard-sidebar')!.getBoundingClientRect().left >= 0);
    await fits('the drawer');
    await page.screenshot({ path: join(SHOTS, 'admin-drawer-412.png') });
    await page.getByRole('button', { name: 'Close menu' }).click();

    await page.goto('/dashboard/admin-services');
    const firstDelete = page.getByRole('button', { name: /^Delete/ }).first();
    await firstDelete.waitFor({ timeout: 30_000 });
    const title = (await firstDelete.getAttribute('aria-label'))?.replace(/^Delete /, '') ?? '';
    await firstDelete.click();
    const question = page.getByRole('dialog', { name: 'Are you sure?' });
    await question.getByText("You won't be able to revert this!").waitFor();
    await question.getByText(title, { exact: true }).waitFor();
    await fits('the delete question');
    await page.screenshot({ path: join(SHOTS, 'admin-delete-question-412.png') });
    await question.getByRole('button', { name: 'Cancel' }).click();
  });

  it('on a phone the order bar stays in reach on a service page, and toasts leave the header alone', async () => {
    const { pages, service } = await people();
    const page = pages.get('customer')!;
    await page.setViewportSize({ width: 412, height: 915 });
    await page.goto(`/service-details/${service.id}`);
    await page.getByRole('heading', { level: 1, name: service.title }).waitFor();
    const order = page.getByRole('button', { name: 'Place Order Now' });
    const box = async () => (await order.boundingBox())!;
    assert.ok((await box()).y + (await box()).height <= 915, 'Place Order Now is on the first screen');
    await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(200);
    assert.ok((await box()).y >= 0 && (await box()).y + (await box()).height <= 915, 'and stays there while scrolling');

    // A toast (here: copying delivered credentials on My Orders) never covers the header's Logout button.
    await page.goto('/my-orders');
    await page.getByRole('button', { name: 'Copy email' }).first().waitFor({ timeout: 30_000 });
    const logout = (await page.getByRole('button', { name: 'Logout' }).boundingBox())!;
    await page.getByRole('button', { name: 'Copy email' }).first().click();
    const toast = page.locator('.toast .alert').first();
    await toast.waitFor();
    const shown = (await toast.boundingBox())!;
    const apart = shown.x >= logout.x + logout.width || shown.x + shown.width <= logout.x || shown.y >= logout.y + logout.height || shown.y + shown.height <= logout.y;
    assert.ok(apart, `the toast (${JSON.stringify(shown)}) covers Logout (${JSON.stringify(logout)})`);
    assert.ok(shown.x >= 0 && shown.x + shown.width <= 412 && shown.y + shown.height <= 915, 'the toast is on the screen');
  });

  it('the order summary, the payment instructions and a needs-details service form fit and pass axe at both sizes (issue 17)', async () => {
    const { pages, service } = await people();
    const staff = await apiSession(e2e.server.url, demoLogins.admin);
    const settings = await staff.get<SiteSettings>('/api/settings');
    const method = service.paymentMethods[0] ?? 'binance';
    const instructions = [{ method, address: 'TXz9Demo1234567890', accountName: 'Demo Shop', qrImage: '', instructions: 'Send the exact amount, then send the transaction id.' }];
    await staff.call('PUT', '/api/settings', { ...settings, paymentInstructions: instructions });

    const customer = pages.get('customer')!;
    for (const size of SIZES) {
      await customer.setViewportSize({ width: size.width, height: size.height });
      await customer.goto(`/service-details/${service.id}`);
      await customer.getByRole('heading', { level: 1, name: service.title }).waitFor({ timeout: 30_000 });
      await customer.getByRole('button', { name: 'Place Order Now' }).click();
      const dialog = customer.getByRole('dialog', { name: 'Confirm your order' });
      await dialog.getByText('TXz9Demo1234567890').waitFor();
      assert.deepEqual(await controlsOutOfView(customer), [], `the order summary at ${size.width}px: controls beyond the screen's edge`);
      await checkA11y(customer);
      await customer.screenshot({ path: join(SHOTS, `customer-order-summary-${size.width}.png`) });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }

    await checkScreen({ who: 'admin', path: '/dashboard/settings', shot: 'settings-payment-instructions', ready: (page) => page.getByLabel('Number or address').first().waitFor({ timeout: 30_000 }) });

    const admin = pages.get('admin')!;
    for (const size of SIZES) {
      await admin.setViewportSize({ width: size.width, height: size.height });
      await admin.goto('/dashboard/add-services');
      await admin.getByRole('heading', { level: 1, name: 'Add New Service' }).waitFor({ timeout: 30_000 });
      await admin.getByLabel('Orders need details from the customer').check();
      await admin.getByLabel('What the customer should write').waitFor();
      assert.deepEqual(await controlsOutOfView(admin), [], `the service form with details at ${size.width}px`);
      await checkA11y(admin);
    }
  });
});
