import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { demoLoginsIn, type DemoRole } from './demo-logins.ts';
import { teeToTestLog } from './test-logs.ts';

/**
 * The real entry (edge-api/src/node.ts, what `npm start` runs after its build check) in a process of its
 * own on the embedded Postgres of a data directory, for the tests of how the running shop behaves: its
 * database killed, two starts at once, a full disk, its logs.
 */

const ROOT = new URL('../../..', import.meta.url).pathname;

export interface AppProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the app; resolves once it prints its ready line, rejects if it exits first. */
export function startApp(dataDir: string, env: Record<string, string> = {}, timeoutMs = 90_000): Promise<AppProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'edge-api/src/node.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', SUPABASE_URL: '', SMTP_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  teeToTestLog(child, 'app-process');
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const ready = () => {
      const found = output.match(/running at (http:\/\/localhost:\d+)/);
      if (!found) return;
      child.stdout!.off('data', ready);
      clearTimeout(timer);
      resolve({ child, url: found[1]!, dataDir, output: () => output, exited });
    };
    child.stdout!.on('data', ready);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited (${code}) before it was ready:\n${output}`), { output }));
    });
  });
}

/** The postmaster's pid, from the cluster's own lock file. */
export const postmasterPid = (dataDir: string) => Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

/** Every process whose command line names this data directory's cluster (the postmaster and its children). */
export function serverProcesses(dataDir: string): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(join(dataDir, 'postgres')))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

export async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000, every = 50): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, every));
  }
}

/** Signs a demo login in through the app's auth server (supabase-js, as the PWA does). */
export async function signIn(app: AppProcess, role: DemoRole): Promise<{ token: string; id: string }> {
  const login = (await demoLoginsIn(app.dataDir))[role];
  const config = (await (await fetch(`${app.url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
  const supabase = createClient(new URL(config.supabaseUrl, app.url).toString(), config.supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await supabase.auth.signInWithPassword({ email: login.email, password: login.password });
  if (error) throw error;
  return { token: data.session.access_token, id: data.user.id };
}

export const authed = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** Stops the app with SIGTERM (SIGKILL after 15 s) and waits for its exit code. */
export async function stopApp(app: AppProcess): Promise<number | null> {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return app.child.exitCode;
  app.child.kill('SIGTERM');
  const timer = setTimeout(() => app.child.kill('SIGKILL'), 15_000);
  const code = await app.exited;
  clearTimeout(timer);
  return code;
}
