import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { createDedicatedDatabase, freePort, newDataKeys, STAND_IN_ANON_KEY } from '../edge-api/src/testing/workerd.ts';
import { percentile } from './load.ts';
import { deviceAddress, type SoakConfig, type SoakResult } from './soak-load.ts';
import { cpuSeconds } from './process-cpu.ts';

// `npm run bench -- --only=soak [--soak-minutes=10] [--soak-devices=1000]`, or `node bench/soak.ts --minutes=…`:
// one hour of a shop compressed into `minutes` (default 10, so 6x: each device pulls every 5 s instead of
// every 30 s) through the process `npm start` runs (scripts/start.ts: the build check, then the Node entry),
// on a database of its own on the real Postgres of BENCH_DATABASE_URL / TEST_DATABASE_URL (default the local
// server); the load generator is a process of its own (bench/soak-load.ts). A shorter run keeps the same
// rate (the compression stays 6x) and so covers less of the hour. Reports the p99 of a pull and the
// database connections the app held (pg_stat_activity, sampled every 2 s).

export interface SoakOptions {
  minutes?: number;
  devices?: number;
  /** Of the devices, how many are signed in (a private pull beside the public one). */
  signedIn?: number;
  /** The shop's orders in the simulated hour. */
  ordersPerHour?: number;
}

export interface SoakReport {
  note: (budget: string, measured: string, baseline: string, ok: boolean) => void;
  figure: (label: string, measured: string, baseline: string) => void;
}

const COMPRESSION = 6;
const PULL_EVERY_S = 30;

/** Spawns `node args` and waits for a line of its output matching `ready`. */
function startNode(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited (${code}):\n${output.slice(-2000)}`)));
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A customer signs up on the app's embedded auth and makes its user record, from an address of its own. */
async function registerFrom(url: string, index: number): Promise<string> {
  const email = `soak-${index}-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const from = { 'x-forwarded-for': deviceAddress(index), 'content-type': 'application/json' };
  const signUp = await fetch(`${url}/auth/v1/signup`, {
    method: 'POST',
    headers: { ...from, apikey: STAND_IN_ANON_KEY },
    body: JSON.stringify({ email, password: `pw-${crypto.randomUUID()}` }),
  });
  if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const session = (await signUp.json()) as { access_token: string; user: { id: string } };
  const record = await fetch(`${url}/api/users`, {
    method: 'POST',
    headers: { ...from, authorization: `Bearer ${session.access_token}` },
    body: JSON.stringify({ uid: session.user.id, email, displayName: 'Soak Customer', mobile: '01700000000' }),
  });
  if (record.status !== 201) throw new Error(`registration answered ${record.status}: ${await record.text()}`);
  return session.access_token;
}

/** Percentiles and the largest (by reduce: a 10-minute soak's 130,000 values overflow a spread's arguments). */
const stats = (values: number[]) =>
  values.length
    ? `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${values.reduce((most, value) => Math.max(most, value), 0).toFixed(0)} ms`
    : 'none';

export async function soakBench(serverUrl: string, report: SoakReport, options: SoakOptions = {}) {
  const { minutes = 10, devices = 1000, signedIn = 100, ordersPerHour = 3600 } = options;
  const database = await createDedicatedDatabase(serverUrl, 'bench_soak');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const port = await freePort();
  const keys = newDataKeys();
  const monitor = openDatabase({ databaseUrl: serverUrl, maxConnections: 1 });
  let server: { child: ChildProcess; output: () => string } | undefined;
  try {
    server = await startNode(
      ['scripts/start.ts'],
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        DEMO_DATA: '1',
        SUPABASE_URL: '',
        SUPABASE_ANON_KEY: '',
        SUPABASE_SERVICE_ROLE_KEY: '',
        CREDENTIALS_KEY: keys.credentialsKey,
        BLIND_INDEX_KEY: keys.blindIndexKey,
        // The simulated customers place far more than a person would.
        ORDERS_PER_10_MIN: '1000000000',
        // The devices' addresses come in X-Forwarded-For, as from a proxy in front of the app.
        TRUSTED_PROXIES: '127.0.0.1',
      },
      /Storefront running at/,
    );
    const url = `http://127.0.0.1:${port}`;
    const tokens: string[] = [];
    for (let i = 0; i < signedIn; i += 1) tokens.push(await registerFrom(url, i));
    const productIds = ((await (await fetch(`${url}/api/services`)).json()) as { id: string }[]).map((service) => service.id);
    const config: SoakConfig = {
      url,
      devices,
      seconds: minutes * 60,
      pullEveryMs: (PULL_EVERY_S * 1000) / COMPRESSION,
      ordersPerSecond: (ordersPerHour * COMPRESSION) / 3600,
      tokens,
      productIds,
    };

    // pg_stat_activity every 2 s: the app's connections to its database (this monitor's own is on another).
    const connections: number[] = [];
    const sample = async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = ${database.name}`.execute(monitor);
      connections.push(rows[0]!.n);
    };
    const sampler = setInterval(() => void sample().catch(() => {}), 2000);
    const loadBefore = os.loadavg();
    const cpuBefore = cpuSeconds(server.child.pid);
    let result: SoakResult;
    try {
      const generator = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['bench/soak-load.ts'], {
          env: { ...process.env, SOAK_CONFIG: JSON.stringify(config) },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`the load generator exited with ${code}`))));
      });
      result = JSON.parse(generator.trim().split('\n').pop()!) as SoakResult;
    } finally {
      clearInterval(sampler);
    }
    const cpu = cpuSeconds(server.child.pid) - cpuBefore;
    const loadAfter = os.loadavg();
    const pulls = [...result.pulls.public, ...result.pulls.private];
    const errors = (e: Record<string, number>) => (Object.keys(e).length ? JSON.stringify(e) : 'none');
    const p99 = percentile(pulls, 99);
    const simulated = (result.seconds * COMPRESSION) / 60;
    report.figure(
      `soak: ${devices} devices (${signedIn} signed in) pulling every ${PULL_EVERY_S} s, ${ordersPerHour} orders an hour, compressed ${COMPRESSION}x`,
      `${(result.seconds / 60).toFixed(1)} min run = ${simulated.toFixed(0)} simulated min; ${pulls.length} pulls (${(pulls.length / result.seconds).toFixed(0)}/s), ${result.orders.length} orders placed`,
      `through scripts/start.ts (what npm start runs) on a database of its own; load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after, on ${os.cpus().length} cores`,
    );
    report.note(
      'soak: p99 of a pull < 250 ms, no errors',
      `all pulls ${stats(pulls)}; pull errors ${errors(result.pullErrors)}`,
      `public ${stats(result.pulls.public)}; private ${stats(result.pulls.private)}; the generator's own lag p99 ${result.lateP99.toFixed(0)} ms`,
      p99 < 250 && !Object.keys(result.pullErrors).length,
    );
    report.figure('soak: orders placed meanwhile', stats(result.orders), `order errors ${errors(result.orderErrors)}`);
    const sorted = [...connections].sort((a, b) => a - b);
    report.note(
      'soak: database connections of the app (pg_stat_activity) stay within its pool of 10 and its stall probe',
      `max ${sorted.at(-1) ?? 0}, median ${percentile(sorted, 50)} over ${connections.length} samples`,
      `Node process ${((cpu / result.seconds) * 100).toFixed(0)}% of one core (${((cpu * 1000) / Math.max(1, pulls.length + result.orders.length)).toFixed(2)} ms CPU a request)`,
      (sorted.at(-1) ?? 0) <= 11,
    );
  } finally {
    // The app's own lines (its 503s name their cause), for reading after the run.
    if (server && process.env.SOAK_SERVER_LOG) writeFileSync(process.env.SOAK_SERVER_LOG, server.output());
    if (server) await stop(server.child);
    await monitor.destroy();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const flag = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

if (process.argv[1]?.endsWith('bench/soak.ts')) {
  await soakBench(
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    {
      note: (budget, measured, baseline, ok) => console.log(`${ok ? 'ok  ' : 'OVER'} ${budget}: ${measured} (${baseline})`),
      figure: (label, measured, baseline) => console.log(`     ${label}: ${measured} (${baseline})`),
    },
    {
      minutes: Number(flag('minutes') ?? 10),
      devices: Number(flag('devices') ?? 1000),
      signedIn: Number(flag('signed-in') ?? 100),
      ordersPerHour: Number(flag('orders-per-hour') ?? 3600),
    },
  );
}
