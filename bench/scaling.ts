import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { createPool, openDatabase } from '../edge-api/src/db/connect.ts';
import type { Database } from '../edge-api/src/db/schema.ts';
import { createDedicatedDatabase, newDataKeys, registerCustomer, startStandIn, type StandIn } from '../edge-api/src/testing/workerd.ts';
import { PULL_WAIT_MS } from '../edge-api/src/db/versions.ts';
import { percentile } from './load.ts';

// `npm run bench:scaling` (or `npm run bench -- --only=scaling`): the figures of docs/scaling.md, on the
// real Postgres of BENCH_DATABASE_URL (default the local test server), in a database of its own, dropped
// at the end.
// 1. Orders a second one Node process takes through POST /api/orders, many customers at once.
// 2. Writing transactions a second by concurrent writers, side by side in one run: the version from the
//    single counter row held to commit (the code before decision 189, reproduced in SQL) and from the
//    app's sync_next_version() (decision 189); and the time a pull takes under that load, each with its
//    own rule for the cursor. Every write is checked to reach the pulling device exactly once.
const defaultServerUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WRITER_COUNTS = [1, 2, 4, 8, 16, 32, 64];

const cpuSeconds = (pid: number | undefined) => {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

interface Customer {
  token: string;
}

/** Orders placed through the Node entry for SECONDS by `concurrency` customers, each waiting for its answer. */
async function placeOrders(standIn: StandIn, customers: Customer[], productIds: string[], concurrency: number) {
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = cpuSeconds(standIn.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      const customer = customers[worker % customers.length]!;
      while (performance.now() < deadline) {
        const sent = performance.now();
        const response = await fetch(`${standIn.url}/api/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ id: crypto.randomUUID(), productId: productIds[latencies.length % productIds.length] }),
        });
        await response.arrayBuffer();
        if (response.status === 201) latencies.push(performance.now() - sent);
        else errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    perSecond: latencies.length / seconds,
    placed: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    cpuMs: ((cpuSeconds(standIn.pid) - cpuBefore) * 1000) / latencies.length,
  };
}

type Versions = 'counter' | 'sequence';

/**
 * Writing transactions shaped like placing an order (a version, the order, its audit row) by `writers`
 * connections at once for SECONDS: the version from the counter row (as the app took it before decision
 * 189), or from sync_next_version() (as it takes it now).
 */
async function writeTransactions(databaseUrl: string, writers: number, versions: Versions) {
  const pool = createPool({ databaseUrl, maxConnections: writers });
  const userId = crypto.randomUUID();
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const written: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const begun = performance.now();
          await client.query('begin');
          const { rows } =
            versions === 'counter'
              ? await client.query<{ version: number }>('update bench_counter set version = version + 1 where id = 1 returning version')
              : await client.query<{ version: number }>('select sync_next_version() as version');
          const id = crypto.randomUUID();
          await client.query(
            `insert into orders (id, product_id, title, price, user_id, user_email, version) values ($1, $2, 'Scaling order', '25', $3, 'scaling@example.test', $4)`,
            [id, crypto.randomUUID(), userId, rows[0]!.version],
          );
          await client.query(
            `insert into audit_log (id, actor_id, actor_email, action, entity, entity_id, details) values ($1, $2, 'scaling@example.test', 'order.create', 'order', $3, '{}')`,
            [crypto.randomUUID(), userId, id],
          );
          await client.query('commit');
          latencies.push(performance.now() - begun);
          written.push(id);
        }
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  return { perSecond: latencies.length / seconds, p95: percentile(latencies, 95), written };
}

/**
 * A device pulling the orders in a loop while `writing` runs, with each scheme's rule for its cursor:
 * the counter read in the pull's snapshot, or the horizon asked before it (routes/sync.ts), waiting up to
 * `waitMs` for the writers open when it asked (the app's PULL_WAIT_MS), or not at all. The rows of a
 * window, as a staff pull reads orders. Answers the pull times and every order id it received.
 */
async function pullWhile(databaseUrl: string, versions: Versions, writing: Promise<unknown>, start: number, waitMs = PULL_WAIT_MS) {
  const pool = createPool({ databaseUrl, maxConnections: 1 });
  const client = await pool.connect();
  const seen = new Map<string, number>();
  const times: number[] = [];
  let done = false;
  void writing.finally(() => (done = true));
  let cursor = start;
  try {
    for (let last = false; !last;) {
      last = done;
      const begun = performance.now();
      let upTo: number;
      if (versions === 'sequence') upTo = Number((await client.query<{ horizon: string }>('select horizon from sync_horizon($1)', [waitMs])).rows[0]!.horizon);
      await client.query('begin isolation level repeatable read');
      if (versions === 'counter') upTo = Number((await client.query<{ version: string }>('select version from bench_counter')).rows[0]!.version);
      const { rows } = await client.query<{ id: string }>('select id from orders where version > $1 and version <= $2 order by version', [cursor, upTo!]);
      await client.query('commit');
      times.push(performance.now() - begun);
      for (const { id } of rows) seen.set(id, (seen.get(id) ?? 0) + 1);
      cursor = Math.max(cursor, upTo!);
      if (!last) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.release();
    await pool.end();
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), pulls: times.length, seen };
}

/** Writes a second and pull times for one scheme and writer count; checks the puller got each write once. */
async function writeAndPull(databaseUrl: string, db: Kysely<Database>, writers: number, versions: Versions) {
  // The devices' cursor before any write of this round: nothing is open, so it is the last version.
  const startQuery =
    versions === 'counter' ? sql<{ v: string }>`select version as v from bench_counter` : sql<{ v: string }>`select latest as v from sync_horizon(0)`;
  const start = Number((await startQuery.execute(db)).rows[0]!.v);
  const writing = writeTransactions(databaseUrl, writers, versions);
  // The app's pull, and for the sequence one that does not wait for the writers open when it asked.
  const [written, pull, unwaited] = await Promise.all([
    writing,
    pullWhile(databaseUrl, versions, writing, start),
    versions === 'sequence' ? pullWhile(databaseUrl, versions, writing, start, 0) : undefined,
  ]);
  const gotAll = (seen: Map<string, number>) => written.written.every((id) => seen.get(id) === 1) && seen.size === written.written.length;
  return { ...written, pull, unwaited, once: gotAll(pull.seen) && (!unwaited || gotAll(unwaited.seen)) };
}

export interface ScalingReport {
  note: (budget: string, measured: string, baseline: string, ok: boolean) => void;
  figure: (label: string, measured: string, baseline: string) => void;
}

async function ordersThroughNode(standIn: StandIn, db: Kysely<Database>, report: ScalingReport) {
  const customers: Customer[] = [];
  for (let i = 0; i < 64; i += 1) customers.push(await registerCustomer(standIn));
  const productIds = ((await (await fetch(`${standIn.url}/api/services`)).json()) as { id: string }[]).map((service) => service.id);
  const before = Number((await sql<{ n: number }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);
  let placed = 0;
  for (const concurrency of [1, 8, 32, 64]) {
    const result = await placeOrders(standIn, customers, productIds, concurrency);
    placed += result.placed;
    report.figure(
      `orders through one Node process, ${concurrency} at once`,
      `${result.perSecond.toFixed(0)} orders/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ${result.cpuMs.toFixed(2)} ms of Node CPU an order${result.errors ? `, ${result.errors} errors` : ''}`,
      'POST /api/orders, each customer waiting for its answer',
    );
  }
  const after = Number((await sql<{ n: number }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);
  report.note('every answered order is in the database', `${after - before} rows for ${placed} answers`, 'one row per 201', after - before === placed);
}

async function versionsSideBySide(databaseUrl: string, db: Kysely<Database>, report: ScalingReport) {
  // The counter as it was (migration 2026-11-21-2330), beside the app's own sequence.
  await sql`create table bench_counter (id int primary key check (id = 1), version bigint not null)`.execute(db);
  const start = Number((await sql<{ v: string }>`select last_value as v from sync_versions`.execute(db)).rows[0]!.v);
  await sql`insert into bench_counter values (1, ${start})`.execute(db);
  const rates: Record<Versions, number[]> = { counter: [], sequence: [] };
  let allOnce = true;
  for (const writers of WRITER_COUNTS) {
    // The counter's versions stay below the sequence's: each run starts the counter at the sequence.
    await sql`update bench_counter set version = (select last_value from sync_versions)`.execute(db);
    const counter = await writeAndPull(databaseUrl, db, writers, 'counter');
    await sql`select setval('sync_versions', greatest((select version from bench_counter), (select last_value from sync_versions)))`.execute(db);
    const sequence = await writeAndPull(databaseUrl, db, writers, 'sequence');
    rates.counter.push(counter.perSecond);
    rates.sequence.push(sequence.perSecond);
    allOnce &&= counter.once && sequence.once;
    report.figure(
      `${String(writers).padStart(2)} writers`,
      `sequence ${sequence.perSecond.toFixed(0)}/s (p95 ${sequence.p95.toFixed(1)} ms), pull p50 ${sequence.pull.p50.toFixed(1)} / p95 ${sequence.pull.p95.toFixed(1)} ms (not waiting: ${sequence.unwaited!.p50.toFixed(1)} / ${sequence.unwaited!.p95.toFixed(1)} ms); ${(sequence.perSecond / counter.perSecond).toFixed(1)}x`,
      `counter ${counter.perSecond.toFixed(0)}/s (p95 ${counter.p95.toFixed(1)} ms), pull p50 ${counter.pull.p50.toFixed(1)} / p95 ${counter.pull.p95.toFixed(1)} ms`,
    );
  }
  const at32 = WRITER_COUNTS.indexOf(32);
  report.note(
    'writes at 32 writers, at least 3x the counter',
    `${(rates.sequence[at32]! / rates.counter[at32]!).toFixed(1)}x`,
    `${rates.sequence[at32]!.toFixed(0)}/s against ${rates.counter[at32]!.toFixed(0)}/s`,
    rates.sequence[at32]! >= 3 * rates.counter[at32]!,
  );
  // No fall: from 8 writers on, each count keeps at least 90% of the best rate seen with fewer writers.
  const falls = WRITER_COUNTS.map((writers, i) => ({ writers, rate: rates.sequence[i]!, best: Math.max(...rates.sequence.slice(0, i + 1)) })).filter(
    (point) => point.writers >= 8 && point.rate < 0.9 * point.best,
  );
  report.note(
    'no fall as writers are added (>= 90% of the best with fewer, from 8 on)',
    falls.length ? falls.map((f) => `${f.writers}: ${f.rate.toFixed(0)}/s of ${f.best.toFixed(0)}`).join(', ') : 'none',
    `sequence ${rates.sequence.map((r) => r.toFixed(0)).join(' / ')}`,
    falls.length === 0,
  );
  report.note('every write reached the pulling device exactly once, both schemes', allOnce ? 'yes' : 'NO', 'each id counted', allOnce);
}

/** Both sections on a database of its own on `serverUrl`, dropped afterwards. */
export async function scalingBench(serverUrl: string, report: ScalingReport, { orders = true } = {}) {
  const database = await createDedicatedDatabase(serverUrl, 'bench_scaling');
  const keys = newDataKeys();
  let standIn: StandIn | undefined;
  try {
    standIn = await startStandIn({ databaseUrl: database.url, ...keys });
    const db: Kysely<Database> = openDatabase({ databaseUrl: database.url, maxConnections: 1 });
    try {
      const settings = await sql<{ name: string; setting: string }>`
        select name, setting from pg_settings where name in ('synchronous_commit', 'fsync', 'max_connections', 'shared_buffers')`.execute(db);
      const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v;
      report.figure('scaling: the database', `Postgres ${version}`, settings.rows.map((r) => `${r.name}=${r.setting}`).join(', '));
      if (orders) await ordersThroughNode(standIn, db, report);
      await versionsSideBySide(database.url, db, report);
    } finally {
      await db.destroy();
    }
  } finally {
    await standIn?.stop();
    await database.drop();
  }
}

if (process.argv[1]?.endsWith('bench/scaling.ts')) {
  await scalingBench(
    defaultServerUrl,
    {
      note: (budget, measured, baseline, ok) => console.log(`${ok ? 'ok  ' : 'OVER'} ${budget}: ${measured} (${baseline})`),
      figure: (label, measured, baseline) => console.log(`     ${label}: ${measured} (${baseline})`),
    },
    { orders: !process.argv.includes('--versions-only') },
  );
}
