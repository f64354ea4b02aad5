import { type ChildProcess } from 'node:child_process';
import { startServer } from '../e2e/harness.ts';
import { percentile, type LoadResult } from './load.ts';
import { loadApart, loadAverage } from './load-apart.ts';
import { databaseUrlOf, startBaseline } from './order-list.ts';

type Note = (budget: string, measured: string, baseline: string, ok: boolean) => void;

const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 32;
const range = (values: number[], digits = 2) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/**
 * Issue 31 items 1 and 2: the public reads through the process `npm start` runs (its middleware, the kept
 * compressed copies, the ETag), against the bare node:http + pg server answering GET /api/services on the
 * same database with the same presenter. Each round alternates the two, with `br, gzip` asked (what every
 * browser sends) and without; the load comes from a process of its own. The ratio of each round is the
 * app's req/s over the bare server's of that round.
 */
export async function publicReadsBench(note: Note): Promise<void> {
  const server = await startServer();
  let baseline: { child: ChildProcess; port: number } | undefined;
  try {
    baseline = await startBaseline({ BENCH_DATABASE_URL: databaseUrlOf(server), BENCH_SCHEMA: 'public' });
    const bare = `http://127.0.0.1:${baseline.port}/api/services`;
    const encodings = { 'with br': { 'accept-encoding': 'br, gzip' }, 'without compression': {} as Record<string, string> };
    const reads = ['/api/services', '/api/settings', '/api/config'];
    for (const path of reads) {
      for (const [label, headers] of Object.entries(encodings)) {
        await loadApart(`${server.url}${path}`, { connections: CONNECTIONS, seconds: 1, headers });
        const app: LoadResult[] = [];
        const base: LoadResult[] = [];
        const loads: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          loads.push(loadAverage());
          base.push(await loadApart(bare, { connections: CONNECTIONS, seconds: SECONDS, headers }));
          app.push(await loadApart(`${server.url}${path}`, { connections: CONNECTIONS, seconds: SECONDS, headers }));
        }
        const ratios = app.map((r, i) => r.rps / base[i]!.rps);
        const errors = app.reduce((n, r) => n + r.errors, 0);
        note(
          `GET ${path} through npm start's process, ${label}, ${CONNECTIONS} connections: >= 1.0x the bare server`,
          `${range(ratios)}x (app ${range(
            app.map((r) => r.rps),
            0,
          )} req/s, p99 ${range(
            app.map((r) => percentile(r.latencies, 99)),
            0,
          )} ms, ${errors} errors)`,
          `bare node:http + pg GET /api/services, same rounds: ${range(
            base.map((r) => r.rps),
            0,
          )} req/s, p99 ${range(
            base.map((r) => percentile(r.latencies, 99)),
            0,
          )} ms; ${ROUNDS} rounds of ${SECONDS} s; load average ${loads.join(', ')} (2 cores: figures under load are weak)`,
          Math.min(...ratios) >= 1 && errors === 0,
        );
      }
    }
  } finally {
    baseline?.child.kill('SIGTERM');
    await server.stop();
  }
}
