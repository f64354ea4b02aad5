import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Service } from '../edge-api/src/contract/services.ts';
import { checkA11y, demoLogins, newContext, signIn, type E2eSetup } from './harness.ts';

/**
 * What the screen files (screens.test.ts, screens-in-use.test.ts) check on every screen at a phone's width
 * (412 px) and a tablet's (820 px): nothing that can be tapped lies beyond the screen's edge (the page
 * never scrolls sideways, and no row's actions hide in a table that does), every page has a window title
 * of its own, and axe-core finds nothing serious. With E2E_SCREENSHOTS=1 a screenshot of each is kept in
 * test-results/screens/ for a reviewer to look at (off by default: they cost CI minutes nobody reads).
 */

export const SIZES = [
  { name: 'phone', width: 412, height: 915 },
  { name: 'tablet', width: 820, height: 1180 },
] as const;
const SHOTS = join(new URL('..', import.meta.url).pathname, 'test-results', 'screens');

export type Who = 'visitor' | 'customer' | 'moderator' | 'admin';

export interface Screen {
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

export const heading =
  (name: string | RegExp, level = 1) =>
  (page: Page) =>
    page.getByRole('heading', { level, name }).first().waitFor({ timeout: 30_000 });
export const text = (value: string | RegExp) => (page: Page) => page.getByText(value).first().waitFor({ timeout: 30_000 });

/** Keeps a screenshot for a reviewer when E2E_SCREENSHOTS=1. */
export async function keepScreenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

export interface People {
  pages: Map<Who, Page>;
  service: Service;
}

/**
 * One context per person, signed in once and reused for every screen and size (made on first use: the
 * harness's own before hook starts the server and the browser first). They close with the browser.
 */
export function peopleOf(e2e: E2eSetup): () => Promise<People> {
  let ready: Promise<People> | undefined;
  return () =>
    (ready ??= (async () => {
      const services = (await (await fetch(`${e2e.server.url}/api/services`)).json()) as Service[];
      const pages = new Map<Who, Page>();
      for (const who of ['visitor', 'customer', 'moderator', 'admin'] as const) {
        const page = await (await newContext(e2e.browser, e2e.server.url)).newPage();
        if (who !== 'visitor') await signIn(page, demoLogins[who]);
        pages.set(who, page);
      }
      return { pages, service: services.find((candidate) => candidate.popular) ?? services[0]! };
    })());
}

/** Visible controls whose box runs past the left or right edge of the screen (sr-only ones are 1 px and skipped). */
export function controlsOutOfView(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const selector = 'a[href], button, select, input:not([type="hidden"]), textarea, [role="button"], [tabindex]:not([tabindex="-1"])';
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 1 && box.height > 1 && (box.left < -1 || box.right > width + 1))
      .map(
        ({ element, box }) =>
          `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}" at ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`,
      );
  });
}

export async function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** A checker that opens a screen at each size and checks it; every page it meets must have a title of its own. */
export function screenChecker(people: () => Promise<People>): (screen: Screen) => Promise<void> {
  const titles = new Map<string, string>();
  return async (screen) => {
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
      if (!titles.has(path)) {
        const taken = [...titles].find(([, other]) => other === title);
        assert.equal(taken, undefined, `${where}: the title "${title}" is also the title of ${taken?.[0]}`);
        titles.set(path, title);
      }

      await checkA11y(page);
      const name = `${screen.who}-${screen.shot ?? (screen.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home')}-${size.width}`;
      await keepScreenshot(page, name, true);
    }
  };
}
