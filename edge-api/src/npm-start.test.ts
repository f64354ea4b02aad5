import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { teeToTestLog } from './testing/test-logs.ts';

// `npm start` as a container runtime or a process manager runs it: the signal goes to the npm process
// (or to its whole group, as Ctrl-C does) and the app, its shell and its embedded Postgres are all gone
// within 10 s, stopped once.

const ROOT = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
const started: ChildProcess[] = [];

afterAll(async () => {
  for (const npm of started) if (npm.pid && npm.exitCode === null) killGroup(npm.pid);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function processTable(): { pid: number; ppid: number; args: string }[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [pid, ppid, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), args: args.join(' ') };
    });
}

/** npm's descendants (its shell, the app) and every process serving the data directory's database. */
function processesOf(npmPid: number, dataDir: string): number[] {
  const table = processTable();
  const found = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of table) {
      if ((row.ppid === npmPid || found.has(row.ppid) || row.args.includes(join(dataDir, 'postgres'))) && !found.has(row.pid)) {
        found.add(row.pid);
        grew = true;
      }
    }
  }
  return [...found];
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface NpmStart {
  npm: ChildProcess;
  dataDir: string;
  output: () => string;
}

async function npmStart(): Promise<NpmStart> {
  const dataDir = await mkdtemp(join(tmpdir(), 'storefront-npm-start-'));
  dirs.push(dataDir);
  // Its own process group, so a signal to npm alone reaches npm alone, as a supervisor's kill does.
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', SUPABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(npm);
  teeToTestLog(npm, 'npm-start');
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    // A first start may build the PWA.
    const timer = setTimeout(() => reject(new Error(`no start within 170 s:\n${output}`)), 170_000);
    npm.stdout!.on('data', () => {
      if (/running at http:\/\/localhost:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    npm.once('exit', () => reject(new Error(`npm start ended:\n${output}`)));
  });
  return { npm, dataDir, output: () => output };
}

async function goneWithin(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  while (Date.now() < until && pids.some(isAlive)) await new Promise((done) => setTimeout(done, 100));
  return pids.filter(isAlive);
}

describe('npm start', () => {
  it('stops the app and its database within 10 s when SIGTERM goes to the npm process only', async () => {
    const { npm, dataDir, output } = await npmStart();
    const pids = processesOf(npm.pid!, dataDir);
    // npm's shell, the app and the postmaster with its workers.
    expect(pids.length).toBeGreaterThan(3);
    process.kill(npm.pid!, 'SIGTERM');
    expect(await goneWithin([npm.pid!, ...pids], 10_000)).toEqual([]);
    expect(output()).toContain('SIGTERM: stopping…');
    expect(output()).toContain('Stopped.');
  }, 200_000);

  it('stops once when Ctrl-C reaches the whole group and npm forwards it to the app too', async () => {
    const { npm, dataDir, output } = await npmStart();
    const pids = processesOf(npm.pid!, dataDir);
    const app = processTable().find((row) => pids.includes(row.pid) && /^\S*node .*scripts\/start\.ts/.test(row.args));
    process.kill(-npm.pid!, 'SIGINT');
    // What npm adds when its shell execs the app (bash, or dash built to): the same signal once more.
    process.kill(app!.pid, 'SIGINT');
    expect(await goneWithin([npm.pid!, ...pids], 10_000)).toEqual([]);
    expect(output()).toContain('Stopped.');
    expect(output()).not.toContain('again: exiting now');
    expect(output().match(/SIGINT: stopping…/g)).toHaveLength(1);
  }, 200_000);
});
