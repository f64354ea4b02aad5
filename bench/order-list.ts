import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { apiSession, demoLogins, startServer, type AppServer } from '../e2e/harness.ts';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { writeOrderCursor } from '../edge-api/src/db/order-cursor.ts';
import type { Database } from '../edge-api/src/db/schema.ts';
import { load, percentile, type LoadResult } from './load.ts';
import { loadApart, loadAverage } from './load-apart.ts';
import { growShop } from './grow-shop.ts';

type Note = (budget: string, measured: string, baseline: string, ok: boolean) => void;

const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 32;
/** Rows before the deep page: page 2,001 of 10 a page. */
const DEEP_ROWS = 20_000;
/** What a browser asks for. */
const BROWSER = { 'accept-encoding': 'br, gzip, deflate' };

/** The shop database of a running Node entry: its embedded Postgres, found through DATA_DIR as the app finds it. */
export function databaseUrlOf(server: AppServer): string {
  const password = readFileSync(join(server.dataDir, 'postgres-password'), 'utf8').trim();
  const lines = readFileSync(join(server.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const [port, socketDir, address] = [lines[3]!.trim(), lines[4]!.trim(), lines[5]!.trim()];
  const host = socketDir && !address ? socketDir : address || '127.0.0.1';
  return `postgres://storefront:${encodeURIComponent(password)}@localhost:${port}/postgres?host=${encodeURIComponent(host)}`;
}

/** The cursor that opens the page `depth` rows down the list of `where` (a deep page as a walk reaches it). */
async function cursorAt(db: Kysely<Database>, where: RawBuilder<unknown>, depth: number): Promise<{ cursor: string; depth: number }> {
  const matching = Number((await sql<{ n: string }>`select count(*) as n from orders where deleted_at is null and ${where}`.execute(db)).rows[0]!.n);
  const reached = Math.max(0, Math.min(depth, matching - 20));
  const { rows } = await sql<{ at: string; id: string }>`
    select created_at::text as at, id from orders where deleted_at is null and ${where}
    order by created_at desc, id asc offset ${reached - 1} limit 1`.execute(db);
  return { cursor: writeOrderCursor({ direction: 'after', createdAt: rows[0]!.at, id: rows[0]!.id }), depth: reached };
}

export function startBaseline(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['bench/serve-services.ts', 'baseline'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.once('data', (chunk: Buffer) => done({ child, port: Number(String(chunk).trim()) }));
    child.once('exit', (code) => fail(new Error(`the baseline exited with ${code}`)));
  });
}

/** A staff device's first sync through the server, every page as a browser gets it (brotli asked): bytes on the wire and decoded. */
async function staffFirstSync(base: string, token: string): Promise<{ wire: number; decoded: number; pages: number; orders: number; ms: number }> {
  const total = { wire: 0, decoded: 0, pages: 0, orders: 0, ms: 0 };
  const started = performance.now();
  for (let cursor = 0, more = true; more;) {
    const url = `${base}/api/sync?scope=private&cursor=${cursor}`;
    const headers = { ...BROWSER, authorization: `Bearer ${token}` };
    // A busy machine may answer 503 (a statement or the pool's wait ran out): asked again, as the device's sync does.
    const { wire, body } = await rawGet(url, headers).catch(async () => {
      await new Promise((done) => setTimeout(done, 2000));
      return rawGet(url, headers);
    });
    const page = JSON.parse(body) as { cursor: number; hasMore: boolean; changes: { orders?: unknown[] } };
    total.wire += wire;
    total.decoded += Buffer.byteLength(body);
    total.pages += 1;
    total.orders += page.changes.orders?.length ?? 0;
    cursor = page.cursor;
    more = page.hasMore;
  }
  return { ...total, ms: performance.now() - started };
}

/** One GET, the body's bytes as sent (before decoding) and the decoded text. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ wire: number; body: string }> {
  return new Promise((done, fail) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
        if (response.statusCode !== 200) fail(new Error(`${url} answered ${response.statusCode}`));
        else done({ wire: raw.length, body: body.toString('utf8') });
      });
    }).on('error', fail);
  });
}

/** Postgres' own execution time of the page query, page 1 and by cursor deep down, beside the offset it replaced: steady on a busy machine. */
async function queryPlans(db: Kysely<Database>, size: number, deep: string, deepFiltered: string, filter: RawBuilder<unknown>) {
  const { readOrderCursor } = await import('../edge-api/src/db/order-cursor.ts');
  const ms = async (query: RawBuilder<unknown>) => {
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const { rows } = await sql<{ 'QUERY PLAN': { 'Execution Time': number }[] }>`explain (analyze, format json) ${query}`.execute(db);
      best = Math.min(best, rows[0]!['QUERY PLAN'][0]!['Execution Time']);
    }
    return best;
  };
  const page = (where: RawBuilder<unknown>, cursor?: string, offset = 0) => {
    const at = cursor ? readOrderCursor(cursor)! : undefined;
    const past = at ? sql`and created_at <= ${at.createdAt}::timestamptz and (created_at < ${at.createdAt}::timestamptz or id > ${at.id})` : sql``;
    return sql`select * from orders where deleted_at is null and ${where} ${past} order by created_at desc, id asc limit 11 offset ${offset}`;
  };
  const line = [
    `page 1 ${(await ms(page(sql`true`))).toFixed(2)} ms`,
    `deep by cursor ${(await ms(page(sql`true`, deep))).toFixed(2)} ms`,
    `the same depth by offset ${(await ms(page(sql`true`, undefined, DEEP_ROWS))).toFixed(2)} ms`,
    `filtered page 1 ${(await ms(page(filter))).toFixed(2)} ms`,
    `filtered deep by cursor ${(await ms(page(filter, deepFiltered))).toFixed(2)} ms`,
  ];
  console.log(`     Postgres execution time of the page query at ${size.toLocaleString('en-US')} orders (best of 5): ${line.join(', ')}`);
}

const range = (values: number[], digits = 1) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/**
 * Issue 31 items 1 and 3: the admin order list through the process `npm start` runs (the built app under
 * edge-api/src/node.ts with its middleware and its own embedded Postgres), loaded from a load process of its own (bench/load-apart.ts) with 32
 * connections asking for brotli as browsers do: page 1 and a page 20,000 rows down by cursor, without and
 * with the status + payment filter, at each size. Alternated in every round with the bare node:http + pg
 * server answering GET /api/services on the same database (the baseline the bench already uses).
 */
export async function orderListBench(sizes: number[], note: Note): Promise<void> {
  const server = await startServer();
  const db = openDatabase({ databaseUrl: databaseUrlOf(server), maxConnections: 2 });
  let baseline: { child: ChildProcess; port: number } | undefined;
  try {
    const admin = await apiSession(server.url, demoLogins.admin);
    const customer = await apiSession(server.url, demoLogins.customer);
    baseline = await startBaseline({ BENCH_DATABASE_URL: databaseUrlOf(server), BENCH_SCHEMA: 'public' });
    const baseUrl = `http://127.0.0.1:${baseline.port}/api/services`;
    const headers = { ...BROWSER, authorization: `Bearer ${admin.token}` };
    const filter = sql`order_status = 'processing' and payment_status = 'paid'`;
    const list = `${server.url}/api/admin/orders`;
    for (const size of sizes) {
      console.log(`… ${size.toLocaleString('en-US')} orders`);
      const grown = performance.now();
      await growShop(db, server.dataDir, { id: customer.userId, email: demoLogins.customer.email }, size);
      console.log(
        `     the shop grown to ${size.toLocaleString('en-US')} orders in ${((performance.now() - grown) / 1000).toFixed(0)} s (load average ${loadAverage()})`,
      );
      const deep = await cursorAt(db, sql`true`, DEEP_ROWS);
      const deepFiltered = await cursorAt(db, filter, DEEP_ROWS);
      const scenarios = [
        { name: 'first page', url: `${list}?limit=10` },
        {
          name: `deep page (${deep.depth.toLocaleString('en-US')} rows down, by cursor)`,
          url: `${list}?limit=10&page=${Math.floor(deep.depth / 10) + 1}&cursor=${deep.cursor}`,
        },
        { name: 'first page, status + payment filter', url: `${list}?status=processing&paymentStatus=paid&limit=10` },
        {
          name: `deep page, status + payment filter (${deepFiltered.depth.toLocaleString('en-US')} rows down, by cursor)`,
          url: `${list}?status=processing&paymentStatus=paid&limit=10&page=${Math.floor(deepFiltered.depth / 10) + 1}&cursor=${deepFiltered.cursor}`,
        },
      ];
      for (const { url } of scenarios) {
        // A busy machine may answer 503 (the database wait ran out) once: asked again before giving up.
        for (let attempt = 1; ; attempt++) {
          const check = await fetch(url, { headers });
          if (check.status === 200) break;
          if (attempt === 3) throw new Error(`${url} answered ${check.status}: ${await check.text()}`);
          await new Promise((done) => setTimeout(done, 1000));
        }
        await load(url, { connections: CONNECTIONS, seconds: 1, headers });
      }
      await queryPlans(db, size, deep.cursor, deepFiltered.cursor, filter);
      const runsOf = new Map<string, LoadResult[]>(scenarios.map((s) => [s.name, []]));
      const bases: LoadResult[] = [];
      const loads: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        loads.push(loadAverage());
        bases.push(await loadApart(baseUrl, { connections: CONNECTIONS, seconds: SECONDS, headers: BROWSER }));
        for (const { name, url } of scenarios) runsOf.get(name)!.push(await loadApart(url, { connections: CONNECTIONS, seconds: SECONDS, headers }));
      }
      const baseText = `bare node:http + pg GET /api/services in the same rounds: p50 ${range(bases.map((r) => percentile(r.latencies, 50)))} ms, p99 ${range(bases.map((r) => percentile(r.latencies, 99)))} ms, ${range(
        bases.map((r) => r.rps),
        0,
      )} req/s; load average ${loads.join(', ')} at the rounds' starts (2 cores: figures under load are weak)`;
      for (const { name } of scenarios) {
        const results = runsOf.get(name)!;
        const p99s = results.map((r) => percentile(r.latencies, 99));
        const errors = results.reduce((n, r) => n + r.errors, 0);
        const byStatus = new Map<string, number>();
        for (const [status, n] of results.flatMap((r) => Object.entries(r.failures ?? {}))) byStatus.set(status, (byStatus.get(status) ?? 0) + n);
        const failures = [...byStatus].map(([status, n]) => `${n} × ${status}`);
        note(
          `admin order list, ${name}, ${size.toLocaleString('en-US')} orders, ${CONNECTIONS} connections: p99 < 50 ms`,
          `p50 ${range(results.map((r) => percentile(r.latencies, 50)))} ms, p99 ${range(p99s)} ms, ${range(
            results.map((r) => r.rps),
            0,
          )} req/s over ${ROUNDS} rounds, ${errors} errors${failures.length ? ` (${failures.join(', ')})` : ''}`,
          baseText,
          Math.max(...p99s) < 50 && errors === 0,
        );
      }
      const sync = await staffFirstSync(server.url, admin.token);
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
      note(
        `first sync of a staff device, ${size.toLocaleString('en-US')} orders, < 2 MB on the wire (brotli)`,
        `${mb(sync.wire)} in ${sync.pages} pages, ${sync.orders.toLocaleString('en-US')} orders (${mb(sync.decoded)} decoded), ${(sync.ms / 1000).toFixed(1)} s`,
        'the working set of decision 187 (issue 31 measured 2.91 MB at 100,000 orders before it)',
        sync.wire < 2 * 1024 * 1024,
      );
    }
  } finally {
    baseline?.child.kill('SIGTERM');
    await db.destroy();
    await server.stop();
  }
}
