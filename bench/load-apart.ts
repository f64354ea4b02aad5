import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { load, type LoadResult } from './load.ts';

/**
 * The load generator in a process of its own (issue 31 item 1): `node bench/load-apart.ts '<json>'` runs
 * load() and prints its result as JSON, so the requests' own work is not counted against the server
 * measured (which is another process again). autocannon is not among the project's packages; this is
 * bench/load.ts's fetch loop, moved out of the bench's process.
 */
export function loadApart(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['bench/load-apart.ts', JSON.stringify({ url, ...options })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? done(JSON.parse(out) as LoadResult) : fail(new Error(`the load generator exited with ${code}`))));
  });
}

/** The 1-minute load average, to print beside a figure: above the 2 cores it says the figure is the machine's as much as the app's. */
export const loadAverage = () => loadavg()[0]!.toFixed(1);

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2]) {
  const { url, ...options } = JSON.parse(process.argv[2]) as { url: string; connections: number; seconds: number; headers?: Record<string, string> };
  process.stdout.write(JSON.stringify(await load(url, options)));
}
