import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { createPool, openDatabase } from '../edge-api/src/db/connect.ts';
import type { Database } from '../edge-api/src/db/schema.ts';
import { createDedicatedDatabase, newDataKeys, registerCustomer, startStandIn, type StandIn } from '../edge-api/src/testing/workerd.ts';
import { percentile } from './load.ts';

// `npm run bench:scaling`: the figures of docs/scaling.md, on the real Postgres of BENCH_DATABASE_URL
// (default the local test server), in a database of its own, dropped at the end.
// 1. Orders a second one Node process takes through POST /api/orders, many customers at once.
// 2. Writing transactions a second through the single sync_counter row, by concurrent writers, beside
//    the same transactions taking their version from a sequence instead (no row lock held to commit).
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);

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
  return { perSecond: latencies.length / seconds, placed: latencies.length, errors, p50: percentile(latencies, 50), p95: percentile(latencies, 95), cpuMs: ((cpuSeconds(standIn.pid) - cpuBefore) * 1000) / latencies.length };
}

/**
 * Writing transactions shaped like placing an order (a version, the order, its audit row) by
 * `writers` connections at once for SECONDS: the version from the sync_counter row, as the app takes
 * it, or from a sequence.
 */
async function writeTransactions(databaseUrl: string, writers: number, version: 'counter' | 'sequence') {
  const pool = createPool({ databaseUrl, maxConnections: writers });
  const userId = crypto.randomUUID();
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const begun = performance.now();
          await client.query('begin');
          const { rows } =
            version === 'counter'
              ? await client.query<{ version: number }>('update sync_counter set version = version + 1 where id = 1 returning version')
              : await client.query<{ version: number }>("select nextval('bench_versions') as version");
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
        }
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  return { perSecond: latencies.length / seconds, p95: percentile(latencies, 95) };
}

const database = await createDedicatedDatabase(serverUrl, 'bench_scaling');
const keys = newDataKeys();
let standIn: StandIn | undefined;
try {
  standIn = await startStandIn({ databaseUrl: database.url, ...keys });
  const db: Kysely<Database> = openDatabase({ databaseUrl: database.url, maxConnections: 1 });
  const settings = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings where name in ('synchronous_commit', 'fsync', 'max_connections', 'shared_buffers')`.execute(db);
  console.log(`Postgres ${(await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v}: ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(', ')}`);

  console.log('\n1. Orders a second through one Node process (POST /api/orders, each customer waiting for its answer)');
  const customers: Customer[] = [];
  for (let i = 0; i < 64; i += 1) customers.push(await registerCustomer(standIn));
  const productIds = ((await (await fetch(`${standIn.url}/api/services`)).json()) as { id: string }[]).map((service) => service.id);
  const before = Number((await sql<{ n: number }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);
  let placed = 0;
  for (const concurrency of [1, 8, 32, 64]) {
    const result = await placeOrders(standIn, customers, productIds, concurrency);
    placed += result.placed;
    console.log(
      `   ${String(concurrency).padStart(2)} at once: ${result.perSecond.toFixed(0)} orders/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ${result.cpuMs.toFixed(2)} ms of Node CPU an order${result.errors ? `, ${result.errors} errors` : ''}`,
    );
  }
  const after = Number((await sql<{ n: number }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);
  console.log(`   every answered order is in the database: ${after - before === placed ? 'yes' : `NO (${after - before} rows for ${placed} answers)`}`);

  console.log('\n2. Writing transactions a second (a version, an order, an audit row), by concurrent writers');
  await sql`create sequence bench_versions`.execute(db);
  for (const writers of [1, 2, 4, 8, 16, 32, 64]) {
    const counter = await writeTransactions(database.url, writers, 'counter');
    const sequence = await writeTransactions(database.url, writers, 'sequence');
    console.log(
      `   ${String(writers).padStart(2)} writers: sync_counter ${counter.perSecond.toFixed(0)}/s (p95 ${counter.p95.toFixed(1)} ms); sequence ${sequence.perSecond.toFixed(0)}/s (p95 ${sequence.p95.toFixed(1)} ms); ratio ${(counter.perSecond / sequence.perSecond).toFixed(2)}`,
    );
  }
  await db.destroy();
} finally {
  await standIn?.stop();
  await database.drop();
}
