import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { nextVersion } from '../edge-api/src/db/versions.ts';
import { createSecrets, decodeKey } from '../edge-api/src/lib/secrets.ts';
import { demoLoginsIn } from '../edge-api/src/testing/demo-logins.ts';
import {
  createDedicatedDatabase,
  freePort,
  newDataKeys,
  registerCustomer,
  startStandIn,
  type DedicatedDatabase,
  type StandIn,
} from '../edge-api/src/testing/workerd.ts';
import { load } from './load.ts';
import { workersPagesBench } from './workers-pages.ts';

import { cpuSeconds, median, type Report } from './process-cpu.ts';

export { cpuSeconds };
export type { Report };

/** Orders placed for `seconds` by `connections` callers at once, each waiting for its answer (POST /api/orders). */
async function placeOrders(url: string, token: string, productIds: string[], { connections = 16, seconds = 3 } = {}) {
  const deadline = performance.now() + seconds * 1000;
  let placed = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const response = await fetch(`${url}/api/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ id: crypto.randomUUID(), productId: productIds[(placed + errors) % productIds.length] }),
        });
        await response.arrayBuffer();
        if (response.status === 201) placed += 1;
        else errors += 1;
      }
    }),
  );
  return { requests: placed, seconds: (performance.now() - started) / 1000, errors };
}

/** What `wrangler deploy` would upload (a dry run, offline): the worker bundled into one module. */
function buildBundle(dir: string): { file: string; bytes: number; gzip: number } {
  execFileSync(process.execPath, ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', dir], {
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: dir },
    stdio: 'ignore',
  });
  const name = readdirSync(dir).find((entry) => entry.endsWith('.js'))!;
  const file = join(dir, name);
  return { file, bytes: statSync(file).size, gzip: gzipSync(readFileSync(file), { level: 9 }).length };
}

/**
 * PgBouncer in transaction mode in front of Postgres, when it is installed: it stands in for the pool
 * Hyperdrive keeps near the database, which local workerd has not got (there, every request's
 * connection is a new Postgres backend). Null without it.
 */
async function startPooler(scratch: string, serverUrl: string): Promise<{ port: number; stop(): void } | null> {
  const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path));
  if (!binary) return null;
  const server = new URL(serverUrl);
  const port = await freePort();
  const config = join(scratch, 'pgbouncer.ini');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${server.username || 'postgres'}${server.password ? ` password=${decodeURIComponent(server.password)}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 10',
      'ignore_startup_parameters = extra_float_digits,options',
    ].join('\n') + '\n',
  );
  chmodSync(scratch, 0o755);
  chmodSync(config, 0o644);
  // PgBouncer refuses to run as root; it then runs as the database's own user.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(binary, [...asRoot, config], { stdio: 'ignore' });
  for (let waited = 0; waited < 5000; waited += 100) {
    const up = await new Promise<boolean>((resolve) => {
      import('node:net').then(({ connect }) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    });
    if (up) return { port, stop: () => child.kill('SIGTERM') };
    if (child.exitCode !== null) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  return null;
}

interface BareWorker {
  url: string;
  pid?: number;
  startedMs: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The deploy bundle under workerd itself (the runtime wrangler runs, without wrangler dev's two-process
 * dev proxy, which alone held a static page to about 80 requests a second here): the Worker's bindings
 * as text, Hyperdrive pointed at `postgres` (host:port), and an assets stub.
 */
async function startBareWorker(
  scratch: string,
  bundle: string,
  database: DedicatedDatabase,
  postgres: string,
  vars: Record<string, string>,
): Promise<BareWorker> {
  // The platform's assets: the built app shell at / (the public pages render into it), 404 for the rest.
  const shell = join(scratch, 'index.html');
  if (!existsSync(shell)) copyFileSync(join('dist', 'index.html'), shell);
  const port = await freePort();
  const config = join(scratch, `worker-${port}.capnp`);
  const text = Object.entries(vars)
    .map(([name, value]) => `    (name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)}),`)
    .join('\n');
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .storefront),
    (name = "postgres", external = (address = ${JSON.stringify(postgres)}, tcp = ())),
    (name = "assets", worker = .assets),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const storefront :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(relative(scratch, bundle))}) ],
  compatibilityDate = "2026-11-01",
  bindings = [
${text}
    (name = "HYPERDRIVE", hyperdrive = (designator = "postgres", database = ${JSON.stringify(database.name)}, user = "postgres", password = "local", scheme = "postgresql")),
    (name = "ASSETS", service = "assets"),
  ],
  globalOutbound = "internet",
);
const assets :Workerd.Worker = (
  modules = [
    (name = "assets.js", esModule = "import shell from './index.html'; export default { fetch(request) { return new URL(request.url).pathname === '/' ? new Response(shell, { headers: { 'content-type': 'text/html; charset=utf-8' } }) : new Response('Not found', { status: 404 }); } }"),
    (name = "index.html", text = embed "index.html"),
  ],
  compatibilityDate = "2026-11-01",
);
`,
  );
  const started = performance.now();
  const child: ChildProcess = spawn(join('node_modules', 'workerd', 'bin', 'workerd'), ['serve', config, '--experimental'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited:\n${output}`);
    try {
      // /healthz answers without building the isolate, so the first request after it is cold.
      await fetch(`${url}/healthz`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (performance.now() - started > 30_000) throw new Error(`workerd did not listen within 30 s:\n${output}`);
  }
  const startedMs = performance.now() - started;
  return {
    url,
    pid: child.pid,
    startedMs,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The demo customer with 40 orders, 10 of them delivered (a sealed password, a private proof image). */
async function seedCustomer(database: DedicatedDatabase, standIn: StandIn, keys: { credentialsKey: string; blindIndexKey: string }) {
  const signIn = await fetch(`${standIn.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: standIn.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'customer@demo.test', password: (await demoLoginsIn(standIn.dataDir)).user.password }),
  });
  const session = (await signIn.json()) as { access_token: string; user: { id: string; email: string } };
  const db = openDatabase({ databaseUrl: database.url, maxConnections: 1 });
  const secrets = await createSecrets(decodeKey(keys.credentialsKey, 'CREDENTIALS_KEY'), decodeKey(keys.blindIndexKey, 'BLIND_INDEX_KEY'));
  await db.transaction().execute(async (trx) => {
    const version = await nextVersion(trx);
    for (let i = 0; i < 40; i += 1) {
      const delivered = i % 4 === 0;
      await trx
        .insertInto('orders')
        .values({
          id: crypto.randomUUID(),
          product_id: crypto.randomUUID(),
          title: `Bench order ${i}`,
          price: '25',
          user_id: session.user.id,
          user_email: session.user.email,
          payment_status: delivered ? 'paid' : 'pending',
          order_status: delivered ? 'delivered' : 'pending',
          wise_email: delivered ? `bench${i}@wise.test` : null,
          wise_password_enc: delivered ? await secrets.encrypt(`Bench#${i}`) : null,
          wise_image: delivered ? `order-proofs/bench-${i}.png` : null,
          version,
        })
        .execute();
    }
  });
  const { count } = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', session.user.id)
    .executeTakeFirstOrThrow();
  await db.destroy();
  return { token: session.access_token, userId: session.user.id, orders: Number(count) };
}

/**
 * The Workers deployment beside the Node entry, in the same run, on the same Postgres: throughput of
 * GET /api/services and of a signed-in customer's order list, the CPU each process spends per request,
 * the bundle's size and the worker's start. What the local figures mean for production: README
 * ("Benchmarks") and docs/scaling.md. BENCH_WORKER_BUNDLE runs another bundle (a before/after).
 */
export async function workersBench(serverUrl: string, report: Report, { seconds = 3, rounds = 3 } = {}) {
  const probe = openDatabase({ databaseUrl: serverUrl, maxConnections: 1 });
  const reachable = await sql`select 1`.execute(probe).then(
    () => true,
    () => false,
  );
  await probe.destroy();
  if (!reachable) {
    report('Workers', 'skipped', `no Postgres over TCP at ${new URL(serverUrl).host}: set BENCH_DATABASE_URL`);
    return;
  }
  // The bundle aliases the server render of dist-ssr/, and the public pages render into dist/index.html.
  execFileSync(process.execPath, ['scripts/ensure-build.ts'], { stdio: 'inherit' });
  const scratch = mkdtempSync(join(tmpdir(), 'bench-workers-'));
  const database = await createDedicatedDatabase(serverUrl, 'bench_workers');
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const keys = newDataKeys();
    const standIn = await startStandIn({ databaseUrl: database.url, ...keys });
    stops.push(() => standIn.stop());
    const customer = await seedCustomer(database, standIn, keys);

    const built = buildBundle(join(scratch, 'bundle'));
    // Embedded by workerd's config, which reads files beside it only.
    const bundle = process.env.BENCH_WORKER_BUNDLE ? join(scratch, 'other-worker.js') : built.file;
    if (process.env.BENCH_WORKER_BUNDLE) copyFileSync(process.env.BENCH_WORKER_BUNDLE, bundle);
    report(
      'Workers: bundle',
      `${(built.bytes / 1024).toFixed(0)} KB, ${(built.gzip / 1024).toFixed(0)} KB gzip`,
      'the limits: 3 MB on the Free plan, 10 MB on Paid, compressed',
    );

    const vars = {
      SUPABASE_URL: standIn.url,
      SUPABASE_ANON_KEY: standIn.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: standIn.serviceRoleKey,
      CREDENTIALS_KEY: keys.credentialsKey,
      BLIND_INDEX_KEY: keys.blindIndexKey,
      // The benchmark places thousands of orders from one customer.
      ORDERS_PER_10_MIN: '1000000000',
    };
    const server = new URL(serverUrl);
    const direct = await startBareWorker(scratch, bundle, database, `${server.hostname}:${server.port || 5432}`, vars);
    stops.push(() => direct.stop());
    const pooler = await startPooler(scratch, serverUrl);
    if (pooler) stops.push(() => pooler.stop());
    const pooled = pooler ? await startBareWorker(scratch, bundle, database, `127.0.0.1:${pooler.port}`, vars) : null;
    if (pooled) stops.push(() => pooled.stop());

    // A new isolate: its first request builds it (environment, app, data key check); later ones reuse it.
    const timed = async (url: string) => {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      return performance.now() - started;
    };
    const first = await timed(`${(pooled ?? direct).url}/api/services`);
    const warm: number[] = [];
    for (let i = 0; i < 30; i += 1) warm.push(await timed(`${(pooled ?? direct).url}/api/services`));
    report(
      'Workers: start',
      `workerd listening ${direct.startedMs.toFixed(0)} ms after launch (the bundle compiled), the first request ${first.toFixed(0)} ms, then a median ${median(warm).toFixed(1)} ms`,
      'GET /api/services, one at a time',
    );

    // Cold starts, the bundle's startup, and CPU per request for the public pages and staff's order list (issue 29 item 3).
    const postgres = `${server.hostname}:${server.port || 5432}`;
    const launch = (file: string) => startBareWorker(scratch, file, database, postgres, vars);
    await workersPagesBench({ scratch, bundle, database, postgres, vars, standIn, report, launch });

    const targets = [
      { name: 'Node entry', url: standIn.url, pid: standIn.pid },
      ...(pooled ? [{ name: 'workerd via PgBouncer', url: pooled.url, pid: pooled.pid }] : []),
      { name: 'workerd, no pooler', url: direct.url, pid: direct.pid },
    ];
    const routes = [
      { name: 'GET /api/services', path: '/api/services', headers: {} as Record<string, string> },
      {
        name: `GET /api/orders/user/:id, signed in, ${customer.orders} orders`,
        path: `/api/orders/user/${customer.userId}`,
        headers: { authorization: `Bearer ${customer.token}` },
      },
    ];
    const productIds = ((await (await fetch(`${standIn.url}/api/services`)).json()) as { id: string }[]).map((service) => service.id);
    // Another customer places the orders, so the list measured above keeps its 46.
    const placer = (await registerCustomer(standIn)).token;
    const placing = { name: 'POST /api/orders, 16 at once', path: '', headers: {} as Record<string, string> };
    const run = (target: (typeof targets)[number], route: (typeof routes)[number] | typeof placing, length: number) =>
      route === placing
        ? placeOrders(target.url, placer, productIds, { seconds: length })
        : load(`${target.url}${route.path}`, { seconds: length, headers: route.headers });
    for (const target of targets) for (const route of [...routes, placing]) await run(target, route, 1);
    const totals = new Map<string, { requests: number; seconds: number; cpu: number; errors: number }>();
    // Interleaved rounds, so drift in the machine's speed hits all alike.
    for (let round = 0; round < rounds; round += 1) {
      for (const route of [...routes, placing]) {
        for (const target of targets) {
          const cpuBefore = cpuSeconds(target.pid);
          const result = await run(target, route, seconds);
          const cpu = cpuSeconds(target.pid) - cpuBefore;
          const key = `${route.name}|${target.name}`;
          const sum = totals.get(key) ?? { requests: 0, seconds: 0, cpu: 0, errors: 0 };
          totals.set(key, {
            requests: sum.requests + result.requests,
            seconds: sum.seconds + result.seconds,
            cpu: sum.cpu + cpu,
            errors: sum.errors + result.errors,
          });
        }
      }
    }
    for (const route of [...routes, placing]) {
      const line = (target: (typeof targets)[number]) => {
        const total = totals.get(`${route.name}|${target.name}`)!;
        const errors = total.errors ? `, ${total.errors} errors` : '';
        return `${target.name} ${(total.requests / total.seconds).toFixed(0)} req/s, ${((total.cpu * 1000) / total.requests).toFixed(2)} ms CPU/request${errors}`;
      };
      report(
        `Workers: ${route.name}`,
        targets.slice(1).map(line).join('; '),
        line(targets[0]!) + (pooled ? '' : '; PgBouncer not installed, so no pooled figure'),
      );
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    await database.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
