// `npx node bench/offline-start-trace.ts [/my-orders|/dashboard] [runs]`: the resources of cold offline starts of one
// screen (as bench/offline-start.ts opens them), each with its start, the service worker's delay and its end, to
// see where a start spends its time (decision 255).
import type { Page } from 'playwright-core';
import { demoLogins, goOffline, launchBrowser, newContext, signIn, startServer, waitForServiceWorkerControl } from '../e2e/harness.ts';

const path = process.argv[2] ?? '/my-orders';
const runs = Number(process.argv[3] ?? 5);
const login = path.startsWith('/dashboard') ? demoLogins.admin : demoLogins.customer;
const ready = path.startsWith('/dashboard')
  ? () => document.querySelectorAll('main li article h3').length > 0
  : () => document.querySelectorAll('main article h2').length > 0;
const server = await startServer();
const browser = await launchBrowser();
try {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  await signIn(page, login);
  await page.goto(path);
  await page.waitForFunction(ready, undefined, { timeout: 60_000 });
  await page.waitForTimeout(2000);
  await goOffline(context);
  await page.close();
  for (let run = 0; run < runs; run++) {
    const tab: Page = await context.newPage();
    await tab.goto(path, { waitUntil: 'commit' });
    await tab.waitForFunction(ready, undefined, { polling: 'raf', timeout: 60_000 });
    const out = await tab.evaluate(() => {
      const now = performance.now();
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
        (r) =>
          `${r.startTime.toFixed(0).padStart(5)} ${r.workerStart ? 'w' + (r.workerStart - r.startTime).toFixed(0).padStart(3) : '    '} resp ${(r.responseStart - r.startTime).toFixed(0).padStart(4)} end ${r.responseEnd.toFixed(0).padStart(5)} ${r.name.replace(location.origin, '')}`,
      );
      const fp = performance.getEntriesByName('first-paint')[0]?.startTime ?? NaN;
      const marks = performance.getEntriesByType('mark').map((m) => `${m.startTime.toFixed(0)} mark ${m.name}`);
      return [
        `ready ${now.toFixed(0)} fp ${fp.toFixed(0)} nav worker ${nav.workerStart.toFixed(0)} resp ${nav.responseStart.toFixed(0)} end ${nav.responseEnd.toFixed(0)} dcl ${nav.domContentLoadedEventEnd.toFixed(0)}`,
        ...res,
        ...marks,
      ].join('\n');
    });
    console.log(`--- run ${run}\n${out}`);
    await tab.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
