import { AxeBuilder } from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { readMailbox, type StoredMail } from '../edge-api/src/auth/embedded/mailer.ts';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { demoLoginsIn } from '../edge-api/src/testing/demo-logins.ts';
import { freePort } from '../edge-api/src/testing/free-port.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import { appendTestLog, teeToTestLog } from '../edge-api/src/testing/test-logs.ts';

/**
 * Browser tests against the built app as `npm start` runs it: one Node process on a free port with a fresh
 * data directory (demo data seeded), driven by the system Chromium through playwright-core.
 */

/** The demo logins of the server under test; their passwords are its data directory's own, set by useDemoLoginsOf(). */
export const demoLogins = {
  admin: { email: 'admin@demo.test', password: '' },
  moderator: { email: 'moderator@demo.test', password: '' },
  customer: { email: 'customer@demo.test', password: '' },
};

/** Reads the demo passwords of a data directory the Node entry seeded (startServer does it for its own). */
export async function useDemoLoginsOf(dataDir: string): Promise<void> {
  const logins = await demoLoginsIn(dataDir);
  demoLogins.admin.password = logins.admin.password;
  demoLogins.moderator.password = logins.moderator.password;
  demoLogins.customer.password = logins.user.password;
}

const ROOT = new URL('..', import.meta.url).pathname;

/** Builds the PWA and its server render once when missing (`npm run test:e2e` builds them fresh beforehand). */
export function ensureBuilt(): void {
  if (existsSync(join(ROOT, 'dist', 'index.html')) && existsSync(join(ROOT, 'dist-ssr', 'server-render.js'))) return;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-build.ts'), '--force'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

export interface AppServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts `node edge-api/src/node.ts` on a free port with a fresh DATA_DIR; resolves once it prints its URL. */
export async function startServer(env: Record<string, string> = {}): Promise<AppServer> {
  ensureBuilt();
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'storefront-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'edge-api/src/node.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // With TEST_LOG_DIR set (CI), its log lines are kept there and checked for secrets (decision 238).
  teeToTestLog(child, 'e2e-server');
  let output = '';
  // E2E_SERVER_LOG=1 shows the server's log lines as they come, to see what a failing test's server did.
  if (process.env.E2E_SERVER_LOG === '1') {
    child.stdout!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  }
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(/https?:\/\/[^\s)]+/);
      if (found) {
        clearTimeout(timer);
        resolve(`http://localhost:${port}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (${code}) before it was ready:\n${output}`));
    });
  });
  await useDemoLoginsOf(dataDir);
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(forced);
      }
      if (process.env.TEST_LOG_DIR) appendTestLog('e2e-postgres', await readFile(join(dataDir, 'postgres.log')).catch(() => ''));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The system Chromium (or CHROMIUM_PATH), headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A fresh profile (no storage, no service worker) pointed at the app; `options` a viewport, downloads... */
export function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL, serviceWorkers: 'allow', ...options });
}

export interface E2eSetup {
  /** Both set once the file's `before` hook has run. */
  readonly server: AppServer;
  readonly browser: Browser;
  /** Runs `run` in a fresh context (no storage, no service worker) and closes the context afterwards. */
  withPage<T>(run: (page: Page, context: BrowserContext) => Promise<T>): Promise<T>;
  /** A fresh context for a test that keeps several devices open (a tablet and a phone); the test closes it. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * The server and browser of one test file: registers the `before` hook that starts them and the `after`
 * hook that stops them. Call it at the top level of the file.
 */
export function setUpServerAndBrowser(env: Record<string, string> = {}): E2eSetup {
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startServer(env);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = () => {
    if (!server || !browser) throw new Error('setUpServerAndBrowser(): the before hook has not run');
    return { server, browser };
  };
  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    context(options) {
      const { server, browser } = started();
      return newContext(browser, server.url, options);
    },
    async withPage(run) {
      const { server, browser } = started();
      const context = await newContext(browser, server.url);
      const page = await context.newPage();
      try {
        return await run(page, context);
      } catch (error) {
        // What the page showed when the test failed: a failure on a loaded CI machine is then readable.
        const shown = await page
          .locator('body')
          .innerText({ timeout: 2_000 })
          .catch(() => '(the page could not be read)');
        console.error(`The page at ${page.url()} when the test failed:\n${shown.slice(0, 1_500)}`);
        throw error;
      } finally {
        await context.close();
      }
    },
  };
}

/** Waits until the service worker is active and controls this page (reloading once if it took over late). */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  const active = await page.evaluate(() =>
    Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000))]),
  );
  if (!active) throw new Error('No service worker became active within 30 s');
  const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
  if (!controlled) await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}

/** Cuts the network for the whole context, the service worker's own requests included (Chromium). */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
}

export async function goOnline(context: BrowserContext): Promise<void> {
  await context.setOffline(false);
}

/** Signs in through the login form and waits to leave /login. */
export async function signIn(page: Page, login: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(login.email);
  await page.getByLabel('Password', { exact: true }).fill(login.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
}

/** Fails on any accessibility violation axe-core finds (of any impact), naming each with its elements. */
export async function checkA11y(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  await settleTransitions(page);
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  // A control that changes state while axe reads it (a button enabled as its list arrives) would be measured
  // halfway through its colour transition: with transitions off, every colour axe reads is a final one.
  const still = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const { violations } = await builder.analyze().finally(() => still.evaluate((node) => (node as Element).remove()).catch(() => undefined));
  // Issue 33's Done-when: no violation of any impact (minor and moderate too), not only serious and critical.
  if (violations.length > 0) {
    const report = violations
      .map((v) => `- [${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`)
      .join('\n');
    throw new Error(`Accessibility violations on ${page.url()}:\n${report}`);
  }
}

/**
 * Until the app has taken over a server-rendered page (decision 070), its links are plain links: a click
 * loads the next page afresh and carries no router state (Login carries where to return in its `?next=`).
 * This waits until React has hydrated the page's heading, as it does the whole page in one pass.
 */
export async function waitForAppTakeover(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector('h1');
    return !!heading && Object.keys(heading).some((key) => key.startsWith('__reactFiber'));
  });
}

/**
 * Waits until `locator` matches exactly `count` elements (a list re-rendered by a filter or the app's
 * takeover of a server-rendered page settles a moment after the URL or the first element), then fails
 * with both numbers if it never does.
 */
export async function expectCount(locator: Locator, count: number, message = 'elements'): Promise<void> {
  const deadline = Date.now() + 15_000;
  let seen = await locator.count();
  while (seen !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await locator.count();
  }
  assert.equal(seen, count, `${message}: ${seen}, expected ${count}`);
}

/** Staff mark an order paid on the dashboard's order list, and are told the server delivered it from stock. */
export async function markPaidForAutoDelivery(page: Page, orderId: string): Promise<void> {
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Admin Order Management' }).waitFor();
  await page.getByLabel('Search', { exact: true }).fill(orderId);
  await page.getByText('Showing 1–1 of 1 orders').waitFor();
  await page.getByLabel(`Payment status of order #${shortOrderId(orderId)}`).selectOption('paid');
  await page.getByText(`Order #${shortOrderId(orderId)} is paid and was delivered automatically from stock.`).waitFor();
}

/** The two widths every screen is checked at: a phone and a tablet. */
export const PHONE = { width: 412, height: 915 };
export const TABLET = { width: 820, height: 1180 };

/**
 * The admin order list's first page has loaded. Its total is exact, or, when counting took longer than the
 * server allows (a loaded machine), "10,000+" or "many": each is a loaded page.
 */
export const FIRST_ORDERS_PAGE = /^Showing 1–\d+ of ([\d,]+\+?|many) orders$/;

/** axe at the phone's and the tablet's widths, then back at `restore`. */
export async function checkA11yAtBoth(page: Page, restore: { width: number; height: number }): Promise<void> {
  for (const size of [PHONE, TABLET]) {
    await page.setViewportSize(size);
    await checkA11y(page);
  }
  await page.setViewportSize(restore);
}

/**
 * Waits for the page's finite CSS transitions and animations to end, so axe measures the colours a person
 * sees once the page is still, not a button caught halfway between its hover and resting colours.
 * Endless animations (spinners) are left running, and the wait ends after 2 s whatever happens.
 */
async function settleTransitions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const running = document
      .getAnimations()
      .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined));
    // A page's transitions last a fraction of a second; never wait on one that does not end (a hidden page's).
    return Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 2_000))]);
  });
}

/** Names of the IndexedDB databases this page's origin holds. */
export function databaseNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ''));
}

/** Sends one call to the server under test as a client would, and fails unless it answers `expected`. */
export async function apiCall<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; expected?: number } = {},
): Promise<T> {
  const { token, json, expected = 200 } = options;
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  assert.equal(response.status, expected, `${method} ${path}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A signed-in caller of the API beside the browser, to arrange a test's state and check what reached the server. */
export interface ApiSession {
  token: string;
  userId: string;
  get<T = unknown>(path: string): Promise<T>;
  call<T = unknown>(method: string, path: string, json?: unknown, expected?: number): Promise<T>;
}

/** Signs in through the auth server the app is configured with (the password grant supabase-js uses). */
export async function apiSession(baseUrl: string, login: { email: string; password: string }): Promise<ApiSession> {
  const config = await apiCall<{ supabaseUrl: string; supabaseAnonKey: string }>(baseUrl, 'GET', '/api/config');
  const signIn = () =>
    fetch(new URL('/auth/v1/token?grant_type=password', config.supabaseUrl || baseUrl), {
      method: 'POST',
      headers: { apikey: config.supabaseAnonKey, 'content-type': 'application/json' },
      body: JSON.stringify(login),
    });
  let response = await signIn();
  // A loaded machine can make the database stall past its limit: the server then answers 503 with
  // Retry-After (decision 114), and a caller that arranges a test's state waits and asks again, twice at most.
  for (let retry = 0; response.status === 503 && retry < 2; retry++) {
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? '2') * 1000));
    response = await signIn();
  }
  assert.equal(response.status, 200, `sign-in of ${login.email}`);
  const { access_token: token, user } = (await response.json()) as { access_token: string; user: { id: string } };
  return {
    token,
    userId: user.id,
    get: (path) => apiCall(baseUrl, 'GET', path, { token }),
    call: (method, path, json, expected) => apiCall(baseUrl, method, path, { token, json, expected }),
  };
}

/** An order of the demo customer (for a service that asks no details), paid and delivered with typed credentials through the API: its id. */
export async function orderDeliveredToCustomer(baseUrl: string, credentials: { wiseEmail: string; wisePassword: string }): Promise<string> {
  const admin = await apiSession(baseUrl, demoLogins.admin);
  const customer = await apiSession(baseUrl, demoLogins.customer);
  const services = await customer.get<Service[]>('/api/services');
  const service = services.find((candidate) => candidate.category !== 'wise' && !candidate.needsDetails) ?? services[0]!;
  const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
  await admin.call('PUT', `/api/admin/orders/${placed.order.id}`, { paymentStatus: 'paid', orderStatus: 'delivered', ...credentials });
  return placed.order.id;
}

/**
 * The demo customer's phone: a phone-wide page under the service worker, signed in, on My Orders; the card
 * of `orderId` there and its credentials panel.
 */
export async function openOrderCardOnPhone(page: Page, orderId: string): Promise<{ card: Locator; panel: Locator }> {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  await signIn(page, demoLogins.customer);
  await page.goto('/my-orders');
  const card = page.locator('article').filter({ has: page.getByText(`#${shortOrderId(orderId)}`, { exact: true }) });
  return { card, panel: card.getByRole('region', { name: /Credentials for/ }) };
}

/** The `count`th mail to `address` in a server's mailbox (mail leaves after the answer: waited for). */
export async function mailTo(server: AppServer, address: string, count = 1): Promise<StoredMail> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const mails = (await readMailbox(join(server.dataDir, 'mailbox'))).filter((mail) => mail.to === address);
    if (mails.length >= count) return mails[count - 1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No mail to ${address} in the mailbox`);
}

/** The auth server's link in a mail (recovery, email change, sign-up confirmation). */
export const linkIn = (mail: StoredMail) => /(http\S+\/auth\/v1\/verify\S+)/.exec(mail.text)![1]!;
