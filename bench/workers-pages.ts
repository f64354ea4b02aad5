import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { demoLoginsIn } from '../edge-api/src/testing/demo-logins.ts';
import { startWorker, type DedicatedDatabase, type StandIn } from '../edge-api/src/testing/workerd.ts';
import { percentile } from './load.ts';
import { cpuSeconds, median, type Report } from './process-cpu.ts';

/**
 * Issue 29 item 3: the worker's cold start and its CPU per request for the public pages and staff's order
 * list, beside the Node entry on the same database. workerd counts no CPU time per request that can be
 * read locally (the Tail/trace `cpuTime` of production is not reported by local workerd, and
 * `performance.now()` is frozen inside a Worker), so the figure is the CPU of workerd's whole process
 * from /proc over sequential requests on a warm isolate: its sockets, the Postgres protocol and a new
 * database connection per request (local Hyperdrive does not pool) included, an upper bound of what
 * production bills. The wall time per request at concurrency 1 is printed beside it.
 */
export interface PagesContext {
  scratch: string;
  bundle: string;
  database: DedicatedDatabase;
  /** host:port of the Postgres the worker reaches (Hyperdrive's origin). */
  postgres: string;
  vars: Record<string, string>;
  standIn: StandIn;
  report: Report;
  /** A new workerd on `bundle` (bench/workers.ts), listening, its isolate not yet built. */
  launch(bundle: string): Promise<{ url: string; pid?: number; startedMs: number; stop(): Promise<void> }>;
}

const ORDERS = 10_000;

/** Staff's token (the demo admin) and 10,000 orders of a demo customer (not the one bench/workers.ts lists) for the list. */
async function seedOrderList(database: DedicatedDatabase, standIn: StandIn): Promise<string> {
  const db = openDatabase({ databaseUrl: database.url, maxConnections: 1 });
  try {
    await sql`
      insert into orders (id, product_id, title, price, user_id, user_email, user_name, payment_status, order_status, created_at, version)
      select gen_random_uuid(), gen_random_uuid(), 'Cloud VPS 2 vCPU', '25', u.id, 'buyer' || n || '@example.test', 'Buyer ' || n,
             (array['pending', 'paid', 'failed', 'refunded'])[1 + n % 4], (array['pending', 'processing', 'completed', 'delivered', 'cancelled'])[1 + n % 5],
             now() - (n || ' minutes')::interval, (select sync_next_version())
      from generate_series(1, ${ORDERS}) as n, (select id from users where email = 'rahim@demo.test') as u`.execute(db);
    await sql`vacuum analyze orders`.execute(db);
  } finally {
    await db.destroy();
  }
  const admin = (await demoLoginsIn(standIn.dataDir)).admin;
  const signIn = await fetch(`${standIn.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: standIn.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (!signIn.ok) throw new Error(`the demo admin's sign-in answered ${signIn.status}`);
  return ((await signIn.json()) as { access_token: string }).access_token;
}

async function timed(url: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

/** Sequential requests on a warm process: CPU of the process per request, and wall time p50 / p99. */
async function oneAtATime(url: string, pid: number | undefined, headers: Record<string, string>, count = 150) {
  for (let i = 0; i < 20; i += 1) await timed(url, headers);
  const before = cpuSeconds(pid);
  const walls: number[] = [];
  for (let i = 0; i < count; i += 1) walls.push(await timed(url, headers));
  const cpuMs = ((cpuSeconds(pid) - before) * 1000) / count;
  return { cpuMs, p50: percentile(walls, 50), p99: percentile(walls, 99) };
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

/** How long workerd takes to listen with the app's bundle against a bundle of one line: the bundle's parse and top-level run. */
async function bundleStartup(ctx: PagesContext) {
  const hello = join(ctx.scratch, 'hello-worker.js');
  writeFileSync(hello, "export default { fetch() { return new Response('ok'); } };\n");
  const launches = { app: [] as number[], hello: [] as number[] };
  for (let i = 0; i < 3; i += 1) {
    for (const [name, file] of [
      ['hello', hello],
      ['app', ctx.bundle],
    ] as const) {
      const worker = await ctx.launch(file);
      launches[name].push(worker.startedMs);
      await worker.stop();
    }
  }
  ctx.report(
    'Workers: bundle startup under workerd (launch to listening, median of 3)',
    `${ms(median(launches.app))} with the app's bundle (${launches.app.map(ms).join(', ')}): ${ms(median(launches.app) - median(launches.hello))} more for parsing and running its top level`,
    `a one-line worker ${ms(median(launches.hello))} (${launches.hello.map(ms).join(', ')})`,
  );
}

/** `wrangler dev --local` (offline, the shipped wrangler.toml): launch to Ready, then its first requests. */
async function wranglerDevStart(ctx: PagesContext) {
  const started = performance.now();
  const worker = await startWorker({ hyperdriveUrl: ctx.database.hyperdriveUrl, vars: ctx.vars });
  const ready = performance.now() - started;
  try {
    const first = await timed(`${worker.url}/`);
    const api = await timed(`${worker.url}/api/services`);
    const warm: number[] = [];
    for (let i = 0; i < 20; i += 1) warm.push(await timed(`${worker.url}/`));
    ctx.report(
      'Workers: wrangler dev --local start',
      `Ready ${ms(ready)} after launch (bundling included); first GET / ${ms(first)}, then GET /api/services ${ms(api)}; warm GET / median ${ms(median(warm))}`,
      "wrangler's dev proxy in front of workerd: the bare workerd figures below are the runtime's own",
    );
  } finally {
    await worker.stop();
  }
}

export async function workersPagesBench(ctx: PagesContext) {
  const staffToken = await seedOrderList(ctx.database, ctx.standIn);
  const staff = { authorization: `Bearer ${staffToken}` };
  const routes = [
    { name: 'GET /', path: '/', headers: {} },
    { name: 'GET /services', path: '/services', headers: {} },
    { name: `GET /api/admin/orders?limit=25, staff, ${ORDERS.toLocaleString('en')} orders`, path: '/api/admin/orders?page=1&limit=25', headers: staff },
  ];
  await bundleStartup(ctx);
  // Cold: a new workerd per launch, whose first request builds the isolate (environment, app, data key check).
  for (const route of routes) {
    const firsts: number[] = [];
    const seconds: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const worker = await ctx.launch(ctx.bundle);
      try {
        firsts.push(await timed(`${worker.url}${route.path}`, route.headers));
        seconds.push(await timed(`${worker.url}${route.path}`, route.headers));
      } finally {
        await worker.stop();
      }
    }
    const nodeFirst = await timed(`${ctx.standIn.url}${route.path}`, route.headers);
    ctx.report(
      `Workers: cold start, ${route.name}`,
      `first request after start ${firsts.map(ms).join(', ')} (2 launches), the second ${seconds.map(ms).join(', ')}`,
      `the Node entry, already running: ${ms(nodeFirst)}`,
    );
  }
  // Warm, one request at a time.
  const worker = await ctx.launch(ctx.bundle);
  try {
    // The floor: /healthz answers before the app is reached, so its CPU is workerd's own per request (HTTP, the event loop).
    const floor = await oneAtATime(`${worker.url}/healthz`, worker.pid, {});
    ctx.report(
      'Workers: CPU per request, GET /healthz (no app code, no database), one at a time, warm',
      `workerd ${floor.cpuMs.toFixed(2)} ms CPU/request, wall p50 ${ms(floor.p50)}`,
      "the process's own cost of a request, included in each figure below",
    );
    for (const route of routes) {
      const own = await oneAtATime(`${worker.url}${route.path}`, worker.pid, route.headers);
      const node = await oneAtATime(`${ctx.standIn.url}${route.path}`, ctx.standIn.pid, route.headers);
      ctx.report(
        `Workers: CPU per request, ${route.name}, one at a time, warm`,
        `workerd ${own.cpuMs.toFixed(2)} ms CPU/request (whole process, an upper bound; Free plan: 10 ms), wall p50 ${ms(own.p50)}, p99 ${ms(own.p99)}`,
        `Node entry ${node.cpuMs.toFixed(2)} ms CPU/request, wall p50 ${ms(node.p50)}, p99 ${ms(node.p99)}; 150 requests each`,
      );
    }
  } finally {
    await worker.stop();
  }
  await wranglerDevStart(ctx);
}
