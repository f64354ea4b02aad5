import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { apiSession, demoLogins, useDemoLoginsOf } from '../e2e/harness.ts';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { loadApart, loadAverage } from './load-apart.ts';
import { growShop } from './grow-shop.ts';
import { databaseUrlOf } from './order-list.ts';

type Note = (budget: string, measured: string, baseline: string, ok: boolean) => void;

const LOAD_SECONDS = Number(process.env.BENCH_MEMORY_LOAD_SECONDS ?? 150);
const WATCH_SECONDS = 30;
const BUDGET_MB = 250;

/** The process and every process below it (the app, its embedded Postgres and that server's backends). */
function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []));
  return all;
}

/** kB of a field of /proc/PID/status or smaps_rollup, 0 for a process gone meanwhile. */
function kb(file: string, field: string): number {
  try {
    return Number(readFileSync(file, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * RSS summed over the app and its Postgres processes (what issue 31 item 5 asks), and PSS beside it: RSS
 * counts Postgres' shared buffers once per backend that touched them, PSS shares them out.
 */
export function memoryOf(appPid: number): { rssMb: number; pssMb: number; processes: number } {
  const pids = tree(appPid);
  const rss = pids.reduce((sum, pid) => sum + kb(`/proc/${pid}/status`, 'VmRSS'), 0);
  const pss = pids.reduce((sum, pid) => sum + kb(`/proc/${pid}/smaps_rollup`, 'Pss'), 0);
  return { rssMb: rss / 1024, pssMb: pss / 1024, processes: pids.length };
}

const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

/**
 * The app's process: the nearest ancestor of its embedded Postgres (whose pid heads postmaster.pid) that
 * runs edge-api/src/node.ts; Postgres runs under a watcher shell between them.
 */
const appPidOf = (dataDir: string) => {
  for (let pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]); pid > 1; pid = parentOf(pid)) {
    if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('edge-api/src/node.ts')) return pid;
  }
  throw new Error('the app process above the embedded Postgres was not found');
};

/**
 * The app as `npm start` runs it after its build check, in a fresh DATA_DIR, waited for as long as it takes
 * (the e2e harness gives up after 60 s, which a machine at load average 30 exceeds).
 */
async function startApp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['edge-api/src/node.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://localhost:${port}`;
  for (let ready = false; !ready;) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    ready = await fetch(`${url}/api/services`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((done) => setTimeout(done, 500));
  }
  await useDemoLoginsOf(dataDir);
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Issue 31 item 5: the app (node edge-api/src/node.ts, what `npm start` runs after its build check) and its
 * embedded Postgres at 10,000 orders under 150 s of mixed load (public list, admin list, My Orders, a staff
 * sync; four load processes of 8 connections), then RSS every 5 s for 30 s.
 */
export async function memoryBench(note: Note): Promise<void> {
  const server = await startApp();
  const db = openDatabase({ databaseUrl: databaseUrlOf(server), maxConnections: 2 });
  try {
    const admin = await apiSession(server.url, demoLogins.admin);
    const customer = await apiSession(server.url, demoLogins.customer);
    await growShop(db, server.dataDir, { id: customer.userId, email: demoLogins.customer.email }, 10_000);
    await db.destroy();
    const pid = appPidOf(server.dataDir);
    const before = memoryOf(pid);
    const browser = { 'accept-encoding': 'br, gzip' };
    const staff = { ...browser, authorization: `Bearer ${admin.token}` };
    const mixed = [
      loadApart(`${server.url}/api/services`, { connections: 8, seconds: LOAD_SECONDS, headers: browser }),
      loadApart(`${server.url}/api/admin/orders?limit=10`, { connections: 8, seconds: LOAD_SECONDS, headers: staff }),
      loadApart(`${server.url}/api/orders/user/${customer.userId}?limit=50`, {
        connections: 8,
        seconds: LOAD_SECONDS,
        headers: { ...browser, authorization: `Bearer ${customer.token}` },
      }),
      loadApart(`${server.url}/api/sync?scope=private&cursor=0`, { connections: 8, seconds: LOAD_SECONDS, headers: staff }),
    ];
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rssMb)), 5000);
    const loads = await Promise.all(mixed);
    clearInterval(sampler);
    const samples: { at: number; rssMb: number; pssMb: number }[] = [];
    for (let at = 0; at <= WATCH_SECONDS; at += 5) {
      if (at > 0) await new Promise((done) => setTimeout(done, 5000));
      samples.push({ at, ...memoryOf(pid) });
    }
    const lowest = Math.min(...samples.map((s) => s.rssMb));
    const requests = loads.reduce((n, r) => n + r.requests, 0);
    const errors = loads.reduce((n, r) => n + r.errors, 0);
    const failures = loads.map((r) => JSON.stringify(r.failures ?? {})).join(' ');
    note(
      `memory of the app and its embedded Postgres within ${WATCH_SECONDS} s after ${LOAD_SECONDS} s of mixed load: RSS < ${BUDGET_MB} MB`,
      `RSS ${samples.map((s) => `${s.at} s ${s.rssMb.toFixed(0)} MB`).join(', ')} (PSS ${samples.map((s) => s.pssMb.toFixed(0)).join(', ')} MB)`,
      `before the load RSS ${before.rssMb.toFixed(0)} MB (PSS ${before.pssMb.toFixed(0)} MB) in ${before.processes} processes; peak under load ${peak.toFixed(0)} MB; ${requests.toLocaleString('en-US')} requests, ${errors} errors (${failures}); load average ${loadAverage()}`,
      // A process gone (RSS 0) or a load mostly refused is no figure: over, whatever the number.
      lowest > 0 && lowest < BUDGET_MB && errors < requests / 100,
    );
  } finally {
    await db.destroy().catch(() => {});
    await server.stop();
  }
}
