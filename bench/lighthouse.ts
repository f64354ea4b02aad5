import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

/** One page's Lighthouse figures (the mobile preset: a mid-range phone on a slow 4G link, simulated). */
export interface PageFigures {
  path: string;
  performance: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  transferredBytes: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Lighthouse (the npm package, its default mobile preset) on each path of a fresh `npm start`-style app
 * (its own DATA_DIR, the demo data, the built dist/), `runs` times each in a new Chromium profile (as
 * a new visitor), and the median of each figure. The system Chromium (CHROME_PATH, else
 * /usr/bin/chromium).
 */
export async function lighthouseFigures(paths: string[], runs: number, port: number): Promise<PageFigures[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const app = spawn(process.execPath, ['edge-api/src/node.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SUPABASE_URL: '', PORT: String(port) },
    stdio: 'ignore',
  });
  const base = `http://localhost:${port}`;
  try {
    for (let ready = false; !ready;) {
      ready = await fetch(`${base}/api/services`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((done) => setTimeout(done, 100));
    }
    const figures: PageFigures[] = [];
    for (const path of paths) {
      const samples: Omit<PageFigures, 'path'>[] = [];
      for (let run = 0, failures = 0; run < runs; run += 1) {
        const chrome = await chromeLauncher.launch({
          chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
          chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
        });
        try {
          const result = await lighthouse(`${base}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
          if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
          const { categories, audits } = result.lhr;
          if (result.lhr.runtimeError) {
            // Lighthouse now and then fails to record a page load's trace (NO_NAVSTART) on a busy machine:
            // that run is taken again, up to twice per page.
            if (result.lhr.runtimeError.code === 'NO_NAVSTART' && failures < 2) {
              failures += 1;
              run -= 1;
              continue;
            }
            throw new Error(`Lighthouse on ${path}: ${result.lhr.runtimeError.message}`);
          }
          samples.push({
            performance: categories.performance?.score ?? 0,
            lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
            fcpMs: audits['first-contentful-paint']?.numericValue ?? NaN,
            tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
            cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
            transferredBytes: audits['total-byte-weight']?.numericValue ?? NaN,
          });
        } finally {
          chrome.kill();
        }
      }
      figures.push({
        path,
        performance: median(samples.map((s) => s.performance)),
        lcpMs: median(samples.map((s) => s.lcpMs)),
        fcpMs: median(samples.map((s) => s.fcpMs)),
        tbtMs: median(samples.map((s) => s.tbtMs)),
        cls: median(samples.map((s) => s.cls)),
        transferredBytes: median(samples.map((s) => s.transferredBytes)),
      });
    }
    return figures;
  } finally {
    const exited = new Promise((done) => app.once('exit', done));
    app.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
