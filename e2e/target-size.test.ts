import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Service } from '../edge-api/src/contract/services.ts';
import { checkA11y, demoLogins, FIRST_ORDERS_PAGE, newContext, PHONE, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';
import { PRIMARY_ACTION, measureTargets } from './target-size-measure.ts';

/**
 * Targets a thumb can hit (issue 33, item 4; decision 199): on every screen, at a phone's width (412 px)
 * and a tablet's (820 px), every visible control is at least 24x24 px (WCAG 2.2 AA, 2.5.8; a link inside a
 * sentence is the rule's own exception) and no two overlap, and the primary actions (order, pay, send proof,
 * cancel, deliver, mark paid, show, copy, menu, bell...) are at least 44x44 px. A failure lists every
 * offender of the screen with its size.
 */

const e2e = setUpServerAndBrowser();

type Who = 'visitor' | 'customer' | 'moderator' | 'admin';

interface Screen {
  who: Who;
  path: string;
  /** Shown once the screen has its content. */
  ready: (page: Page) => Promise<unknown>;
  /** Opens what is measured on top of the screen (a dialog, the menu, the bell's panel). */
  open?: (page: Page) => Promise<unknown>;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name }).first().waitFor({ timeout: 30_000 });
const text = (value: string | RegExp) => (page: Page) => page.getByText(value).first().waitFor({ timeout: 30_000 });
const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name }).first().waitFor({ timeout: 30_000 });
const click = (name: string | RegExp, then: (page: Page) => Promise<unknown>) => async (page: Page) => {
  await page.getByRole('button', { name }).first().click();
  await then(page);
};
const dialog = (name: string | RegExp) => (page: Page) => page.getByRole('dialog', { name }).waitFor({ timeout: 30_000 });

let people: Promise<Map<Who, Page>> | undefined;

/** One signed-in page per person, made on first use and reused for every screen and size. */
function pages() {
  people ??= (async () => {
    const made = new Map<Who, Page>();
    for (const who of ['visitor', 'customer', 'moderator', 'admin'] as const) {
      const page = await (await newContext(e2e.browser, e2e.server.url)).newPage();
      if (who !== 'visitor') await signIn(page, demoLogins[who]);
      made.set(who, page);
    }
    return made;
  })();
  return people;
}

const problems: string[] = [];

/** Opens the screen at both sizes and records every control that is too small or overlaps another. */
async function measure(screen: Screen): Promise<void> {
  const page = (await pages()).get(screen.who)!;
  for (const size of [PHONE, TABLET]) {
    await page.setViewportSize(size);
    await page.goto(screen.path);
    await screen.ready(page);
    if (screen.open) await screen.open(page);
    await page.waitForLoadState('load');
    const where = `${screen.who} ${screen.path}${screen.open ? ' (opened)' : ''} at ${size.width}px`;
    const found = await measureTargets(page);
    assert.ok(found.measured > 0, `${where}: no control was measured`);
    for (const offender of found.offenders) problems.push(`${where}: ${offender}`);
  }
}

async function measureAll(screens: Screen[]): Promise<void> {
  problems.length = 0;
  for (const screen of screens) await measure(screen);
  assert.deepEqual(problems, [], `Controls a thumb cannot hit:\n${problems.join('\n')}`);
}

describe('targets a thumb can hit, on every screen at 412 and 820 px', () => {
  it('the primary actions are recognised by their names', () => {
    for (const name of [
      'Place Order Now',
      'Confirm Order',
      'Send Proof',
      'Cancel Order',
      'Approve & Deliver',
      'Mark Paid',
      'Show password',
      'Copy email',
      'Menu',
      'Notifications',
    ]) {
      assert.match(name, PRIMARY_ACTION, name);
    }
    assert.doesNotMatch('Edit Linux VPS', PRIMARY_ACTION);
  });

  it('storefront pages, signed out', async () => {
    await measureAll([
      { who: 'visitor', path: '/', ready: heading('Congratulations, Dear Buyer') },
      {
        who: 'visitor',
        path: '/',
        ready: heading('Congratulations, Dear Buyer'),
        open: click('Menu', (page) => page.getByRole('navigation').getByRole('link', { name: 'Services' }).first().waitFor()),
      },
      { who: 'visitor', path: '/about', ready: heading('Your Global Service Partner') },
      { who: 'visitor', path: '/contact', ready: heading('Contact Us') },
      {
        who: 'visitor',
        path: '/services',
        ready: (page) =>
          page
            .getByRole('link', { name: /^View Details/ })
            .first()
            .waitFor({ timeout: 30_000 }),
      },
      { who: 'visitor', path: '/Proxy', ready: heading('Premium Proxy IP Access') },
      { who: 'visitor', path: '/login', ready: heading('Welcome Back') },
      { who: 'visitor', path: '/register', ready: heading('Create Account') },
      { who: 'visitor', path: '/forgot-password', ready: heading('Forgot Password?') },
      { who: 'visitor', path: '/reset-password', ready: heading('Reset Password') },
      { who: 'visitor', path: '/under-construction', ready: heading('Under Construction') },
      { who: 'visitor', path: '/no-such-page', ready: heading('Page not found') },
    ]);
  });

  it("a customer's pages: a service, ordering, paying, My Orders and the profile", async () => {
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const service = services.find((candidate) => candidate.popular) ?? services[0]!;
    await measureAll([
      { who: 'customer', path: `/service-details/${service.id}`, ready: heading(service.title) },
      { who: 'customer', path: `/service-details/${service.id}`, ready: heading(service.title), open: click('Place Order Now', dialog('Confirm your order')) },
      { who: 'customer', path: '/my-orders', ready: (page) => page.getByRole('article').first().waitFor({ timeout: 30_000 }) },
      { who: 'customer', path: '/profile', ready: button('Sign Out Other Devices') },
      { who: 'customer', path: '/dashboard', ready: heading('No access to the dashboard') },
    ]);
  });

  it("an admin's dashboard screens, with their dialogs, menu and bell", async () => {
    const admin = (await pages()).get('admin')!;
    await admin.goto('/dashboard/all-wise-stocks');
    const details = admin.getByRole('link', { name: /^View Details of / }).first();
    await details.waitFor({ timeout: 30_000 });
    const stockPath = (await details.getAttribute('href'))!;
    const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
    const ownStock = services.find((candidate) => candidate.deliveryKind === 'server' || candidate.deliveryKind === 'lines')!;
    const orders = text(FIRST_ORDERS_PAGE);

    await measureAll([
      { who: 'admin', path: '/dashboard', ready: orders },
      {
        who: 'admin',
        path: '/dashboard',
        ready: orders,
        open: click('Notifications', (page) => page.getByRole('heading', { name: 'Needs your attention' }).waitFor()),
      },
      { who: 'admin', path: '/dashboard', ready: orders, open: click(/^Add credentials to order #/, (page) => page.getByRole('dialog').waitFor()) },
      { who: 'admin', path: '/dashboard/admin-users', ready: text(/^Showing \d+ of \d+ users$/) },
      { who: 'admin', path: '/dashboard/admin-services', ready: button(/^Edit/) },
      {
        who: 'admin',
        path: '/dashboard/admin-services',
        ready: button(/^Edit/),
        open: click(`Stock of ${ownStock.title}`, dialog(`Stock: ${ownStock.title}`)),
      },
      { who: 'admin', path: '/dashboard/add-services', ready: heading('Add New Service') },
      { who: 'admin', path: '/dashboard/all-wise-stocks', ready: text(/^Showing \d+ of \d+ Wise stocks/) },
      { who: 'admin', path: stockPath, ready: button('Update Status') },
      { who: 'admin', path: '/dashboard/add-wise-stocks', ready: heading('Add New Wise Stock') },
      { who: 'admin', path: '/dashboard/import-wise-stocks', ready: heading('Import Wise Stock') },
      { who: 'admin', path: '/dashboard/settings', ready: button(/^Save/) },
      { who: 'admin', path: '/dashboard/payments', ready: button('Save USDT (TRC20)') },
      { who: 'admin', path: '/dashboard/coupons', ready: heading(/Coupons/) },
      { who: 'admin', path: '/dashboard/notifications', ready: heading('Notifications') },
      { who: 'admin', path: '/dashboard/no-such-screen', ready: heading('Page not found') },
    ]);
  });

  it("a moderator's dashboard screens", async () => {
    const orders = text(FIRST_ORDERS_PAGE);
    await measureAll([
      { who: 'moderator', path: '/dashboard', ready: orders },
      {
        who: 'moderator',
        path: '/dashboard',
        ready: orders,
        open: click('Menu', (page) => page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor()),
      },
      { who: 'moderator', path: '/dashboard/all-wise-stocks', ready: text(/^Showing \d+ of \d+ Wise stocks/) },
      { who: 'moderator', path: '/dashboard/settings', ready: heading('Access Denied!') },
    ]);
  });
});

/** Filters of the order list whose chosen option or placeholder is wider than the room the field gives it. */
function clippedFilters(page: Page) {
  return page.getByRole('search', { name: 'Filter orders' }).evaluate((form) => {
    const context = document.createElement('canvas').getContext('2d')!;
    const clipped: string[] = [];
    for (const field of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) {
      const style = getComputedStyle(field);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const shown = field instanceof HTMLSelectElement ? (field.selectedOptions[0]?.text ?? '') : field.value || field.placeholder;
      // A select's right padding is the room of its arrow.
      const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const needed = context.measureText(shown).width;
      if (needed > room + 0.5) clipped.push(`${field.labels?.[0]?.textContent ?? field.id}: "${shown}" needs ${Math.ceil(needed)} px, has ${Math.floor(room)}`);
    }
    return clipped;
  });
}

describe('the tablet opens on work (issue 33, item 5)', () => {
  it('at 820 px the order list starts within the first screen, the figures fold away, and no filter clips its text', async () => {
    const page = (await pages()).get('admin')!;
    for (const size of [TABLET, PHONE]) {
      await page.setViewportSize(size);
      await page.goto('/dashboard');
      await page.getByText(FIRST_ORDERS_PAGE).waitFor({ timeout: 30_000 });
      const figures = page.locator('details').filter({ has: page.locator('summary', { hasText: 'Figures' }) });
      assert.equal(await figures.evaluate((details) => (details as HTMLDetailsElement).open), false, `${size.width}px: the figures start folded`);
      // The counts arrive with the figures, after the list.
      await figures
        .locator('summary')
        .getByText(/\d+ orders · \d+ pending payments/)
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(await clippedFilters(page), [], `${size.width}px: filters that clip their text`);
      const firstOrder = (await page.getByRole('article').first().boundingBox())!;
      if (size === TABLET) assert.ok(firstOrder.y < size.height - 100, `the first order starts ${Math.round(firstOrder.y)} px down, beyond the first screen`);
      await checkA11y(page);

      // Unfolded, the cards and chart are there.
      await figures.locator('summary').click();
      await page.getByText('Total Orders').waitFor();
      await page.locator('svg[role="img"]').first().waitFor();
      await checkA11y(page);
    }
    // A chosen payment filter still fits.
    await page.setViewportSize(TABLET);
    await page.goto('/dashboard?paymentStatus=pending&attention=payment-check');
    await page.getByText(FIRST_ORDERS_PAGE).waitFor({ timeout: 30_000 });
    assert.deepEqual(await clippedFilters(page), [], '820px with filters chosen: filters that clip their text');
  });

  it('at 1280 px (a desktop) the figures start open', async () => {
    const page = (await pages()).get('admin')!;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard');
    await page.getByText('Total Orders').waitFor({ timeout: 30_000 });
    assert.equal(
      await page
        .locator('details:has(summary)')
        .first()
        .evaluate((details) => (details as HTMLDetailsElement).open),
      true,
    );
  });
});
