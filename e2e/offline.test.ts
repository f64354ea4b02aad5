import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkA11y, databaseNames, demoLogins, goOffline, goOnline, setUpServerAndBrowser, signIn, waitForServiceWorkerControl } from './harness.ts';

const e2e = setUpServerAndBrowser();
/** A stuck step fails its test instead of holding the run. */
const slow = { timeout: 120_000 };

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(view.getUint32(0), 0x89504e47, 'not a PNG');
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

/** Rows of one object store of one database, read with the raw IndexedDB API (what the app synced). */
function readStore(page: Page, database: string, store: string): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    ([name, storeName]) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open(name!);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(storeName!)) {
            db.close();
            resolve([]);
            return;
          }
          const request = db.transaction(storeName!, 'readonly').objectStore(storeName!).getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as Record<string, unknown>[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    [database, store],
  );
}

/** Polls `probe` until it answers something truthy (at most 20 s). */
async function eventually<T>(probe: () => Promise<T | undefined | false>, what = 'the condition'): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const waitForRows = (page: Page, database: string, store: string) =>
  eventually(async () => {
    const rows = await readStore(page, database, store);
    return rows.length > 0 && rows;
  }, `rows in ${database}.${store}`);

describe('installability', () => {
  it('serves a manifest with the fields, icons, screenshots and shortcuts an install needs', slow, async () => {
    const response = await fetch(`${e2e.server.url}/manifest.webmanifest`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
      screenshots: { src: string; sizes: string; form_factor?: string }[];
      shortcuts: { name: string; url: string }[];
    };
    assert.ok(manifest.name);
    assert.ok(manifest.short_name);
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.display, 'standalone');
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/i);
    assert.ok(manifest.background_color);

    const anyPurpose = manifest.icons.filter((icon) => (icon.purpose ?? 'any').split(' ').includes('any'));
    assert.ok(
      anyPurpose.some((icon) => icon.sizes === '192x192'),
      'an icon of 192x192',
    );
    assert.ok(
      anyPurpose.some((icon) => icon.sizes === '512x512'),
      'an icon of 512x512',
    );
    assert.ok(
      manifest.icons.some((icon) => icon.purpose?.split(' ').includes('maskable')),
      'a maskable icon',
    );
    assert.deepEqual(manifest.screenshots.map((s) => s.form_factor).sort(), ['narrow', 'wide']);
    assert.deepEqual(manifest.shortcuts.map((s) => s.url).sort(), ['/my-orders', '/services']);

    // Every image the manifest names exists, is a PNG, and has the size it claims.
    for (const image of [...manifest.icons, ...manifest.screenshots]) {
      const file = await fetch(new URL(image.src, e2e.server.url));
      assert.equal(file.status, 200, image.src);
      assert.equal(pngSize(new Uint8Array(await file.arrayBuffer())), image.sizes, image.src);
    }

    const html = await (await fetch(e2e.server.url)).text();
    assert.match(html, /<link rel="manifest" href="\/manifest\.webmanifest"/);
    assert.match(html, /<link rel="apple-touch-icon" href="\/apple-touch-icon\.png"/);
    const touchIcon = await fetch(`${e2e.server.url}/apple-touch-icon.png`);
    assert.equal(pngSize(new Uint8Array(await touchIcon.arrayBuffer())), '180x180');
  });
});

describe('offline', () => {
  it('lets the service worker take control, then reloads the shell and the synced services with the network cut', slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.goto('/services');
      await waitForServiceWorkerControl(page);
      const services = await waitForRows(page, 'storefront-public', 'services');
      const title = String(services[0]!.title);
      await page.getByRole('heading', { name: 'Explore Premium Services' }).waitFor();
      await page.getByText(title, { exact: true }).first().waitFor();

      // The worker never keeps an API answer: the shell is precached, and no cache holds anything under /api.
      const cached = await page.evaluate(async () => {
        const names = await caches.keys();
        const urls = await Promise.all(names.map(async (name) => (await (await caches.open(name)).keys()).map((request) => request.url)));
        return { names, urls: urls.flat() };
      });
      assert.ok(
        cached.names.some((name) => name.startsWith('workbox-precache')),
        cached.names.join(', '),
      );
      assert.deepEqual(
        cached.urls.filter((url) => new URL(url).pathname.startsWith('/api')),
        [],
      );

      await goOffline(context);
      await page.reload();
      await page.getByRole('heading', { name: 'Explore Premium Services' }).waitFor();
      await page.getByText(title, { exact: true }).first().waitFor();
      await page.getByText('You are offline.').waitFor();
      await checkA11y(page);

      // Another route the page never loaded online still opens from the precached shell.
      await page.goto('/about');
      await page.getByText('Who We Are').first().waitFor();
      await goOnline(context);
    });
  });

  it('reloads each public page with the network cut, once the service worker has taken control, its pictures included', slow, async () => {
    const pages = [
      { path: '/', heading: 'Congratulations, Dear Buyer' },
      { path: '/about', heading: 'Your Global Service Partner' },
      { path: '/contact', heading: 'Contact Us' },
      { path: '/services', heading: 'Explore Premium Services' },
      { path: '/proxy', heading: 'Premium Proxy IP Access' },
    ];
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await waitForRows(page, 'storefront-public', 'services');
      await goOffline(context);
      try {
        for (const { path, heading } of pages) {
          await page.goto(path);
          await page.reload();
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          await page.getByText('You are offline.').waitFor();
          // The demo pictures are files of the site, precached with it: the service cards show them offline.
          if (path === '/services') {
            await page.waitForFunction(
              () => {
                const img = document.querySelector<HTMLImageElement>('img[src^="/demo/"]');
                return img !== null && img.complete && img.naturalWidth > 0;
              },
              undefined,
              { timeout: 20_000 },
            );
          }
        }
      } finally {
        await goOnline(context);
      }
    });
  });

  it("keeps a customer's synced orders readable offline, and logout removes the user's database", slow, async () => {
    await e2e.withPage(async (page, context) => {
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      const userDb = await eventually(async () => (await databaseNames(page)).find((name) => name.startsWith('storefront-user-')));
      const orders = await waitForRows(page, userDb, 'orders');
      const lastEight = String(orders[0]!.id).slice(-8);
      await page.getByText(lastEight).first().waitFor();

      await goOffline(context);
      await page.reload();
      await page.getByText(lastEight).first().waitFor();
      await page.getByText('You are offline.').waitFor();

      await goOnline(context);
      await page.getByRole('button', { name: 'Logout' }).first().click();
      await eventually(async () => !(await databaseNames(page)).some((name) => name.startsWith('storefront-user-')));
    });
  });
});
