import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { list } from '../env.ts';
import { contentSecurityPolicy, workersHeadersFile } from '../lib/http-headers.ts';
import { generateKey } from '../lib/secrets.ts';
import { freePort } from './free-port.ts';
import { teeToTestLog } from './test-logs.ts';

export { freePort };

/**
 * The Workers deployment, run locally for its tests and benchmarks: a database of its own on a real
 * Postgres, the Node entry's embedded auth as its Supabase (SUPABASE_STAND_IN=1: Auth and Storage), and
 * the worker under workerd through `wrangler dev --local`, offline. Every process is started here and
 * stopped by its own id.
 */

const ROOT = new URL('../../../', import.meta.url).pathname;

/** The anon key of the embedded auth server (node-server.ts). */
export const STAND_IN_ANON_KEY = 'sb_publishable_embedded';

/** Every process group started here, stopped at exit even when the caller crashed before stopping it. */
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** Spawns `command` in a process group of its own and waits until its output matches `ready`. */
function startProcess(command: string, args: string[], env: Record<string, string>, ready: RegExp, what: string, timeoutMs = 90_000) {
  return new Promise<Started & { match: RegExpMatchArray }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid) running.add(child.pid);
    teeToTestLog(child, what.replace(/\W+/g, '-'));
    child.once('exit', () => running.delete(child.pid!));
    let output = '';
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      stopProcess(child);
      reject(new Error(`${what} did not start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match && !done) {
        done = true;
        clearTimeout(timer);
        resolve({ child, output: () => output, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** Stops a process started here and its children (wrangler runs workerd): its own process group, by id. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const forced = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }, 10_000);
  await exited;
  clearTimeout(forced);
}

/** `postgres://user[:password]@host:port/name` with another database name (and a password, which Hyperdrive requires). */
function withDatabase(url: string, name: string, password?: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  if (password && !parsed.password) parsed.password = password;
  return parsed.toString();
}

export interface DedicatedDatabase {
  name: string;
  /** For Node (pg). */
  url: string;
  /** For Hyperdrive's local connection string: the same, with a password (any, under trust auth). */
  hyperdriveUrl: string;
  drop(): Promise<void>;
}

/** A database of its own on the server of `serverUrl`, dropped by `drop()`. */
export async function createDedicatedDatabase(serverUrl: string, prefix = 'sf_workers'): Promise<DedicatedDatabase> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = openDatabase({ databaseUrl: serverUrl, maxConnections: 1 });
  await sql`create database ${sql.id(name)}`.execute(admin);
  await admin.destroy();
  return {
    name,
    url: withDatabase(serverUrl, name),
    hyperdriveUrl: withDatabase(serverUrl, name, 'local-dev'),
    drop: async () => {
      const again = openDatabase({ databaseUrl: serverUrl, maxConnections: 1 });
      try {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(again);
      } finally {
        await again.destroy();
      }
    },
  };
}

export interface StandIn {
  /** What the worker gets as SUPABASE_URL: the issuer of its tokens is this + /auth/v1. */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The Node process's id (for its CPU time). */
  pid?: number;
  /** Its DATA_DIR (keys.json, and files/ for images it keeps on disk). */
  dataDir: string;
  /** The legacy JWT secret it accepts HS256 tokens with, as a Supabase project on that secret would. */
  jwtSecret: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The Node entry as the stand-in for Supabase: embedded auth, a Storage-compatible API, the demo data,
 * on `databaseUrl`, with the given data keys (the worker must use the same ones).
 */
export async function startStandIn(options: { databaseUrl: string; credentialsKey: string; blindIndexKey: string; demoData?: boolean }): Promise<StandIn> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'storefront-stand-in-'));
  const jwtSecret = `stand-in-legacy-jwt-secret-${crypto.randomUUID()}`;
  const started = await startProcess(
    process.execPath,
    [join(ROOT, 'edge-api/src/node.ts')],
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      SUPABASE_STAND_IN: '1',
      DEMO_DATA: options.demoData === false ? '0' : '1',
      CREDENTIALS_KEY: options.credentialsKey,
      BLIND_INDEX_KEY: options.blindIndexKey,
      SUPABASE_URL: '',
      SUPABASE_ANON_KEY: '',
      SUPABASE_SERVICE_ROLE_KEY: '',
      SUPABASE_JWT_SECRET: jwtSecret,
    },
    /Storefront running at/,
    'the auth and storage stand-in (node edge-api/src/node.ts)',
  );
  const keys = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8')) as { serviceRoleKey: string };
  return {
    url: `http://localhost:${port}`,
    anonKey: STAND_IN_ANON_KEY,
    serviceRoleKey: keys.serviceRoleKey,
    pid: started.child.pid,
    dataDir,
    jwtSecret,
    output: started.output,
    stop: async () => {
      await stopProcess(started.child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A customer as the PWA registers one: signed up on the stand-in's auth, then its user record made
 * through `apiUrl`'s POST /api/users (the stand-in itself by default). Its id and access token.
 */
export async function registerCustomer(standIn: StandIn, apiUrl = standIn.url): Promise<{ id: string; token: string }> {
  const email = `customer-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const signUp = await fetch(`${standIn.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: standIn.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: `pw-${crypto.randomUUID()}` }),
  });
  if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const session = (await signUp.json()) as { access_token: string; user: { id: string } };
  const record = await fetch(`${apiUrl}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uid: session.user.id, email, displayName: 'Bench Customer', mobile: '01700000000' }),
  });
  if (record.status !== 201) throw new Error(`registration answered ${record.status}: ${await record.text()}`);
  return { id: session.user.id, token: session.access_token };
}

export interface RunningWorker {
  url: string;
  /** workerd's process id (for its CPU time), when it could be found. */
  workerdPid?: number;
  output(): string;
  stop(): Promise<void>;
}

/** The data keys of a new deployment. */
export const newDataKeys = () => ({ credentialsKey: generateKey(), blindIndexKey: generateKey() });

/** Children of `pid`, from /proc (Linux). */
async function childPids(pid: number): Promise<number[]> {
  try {
    const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return text.trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function findWorkerd(pid: number): Promise<number | undefined> {
  for (const child of await childPids(pid)) {
    try {
      if ((await readFile(`/proc/${child}/comm`, 'utf8')).trim() === 'workerd') return child;
    } catch {
      continue;
    }
    const deeper = await findWorkerd(child);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * `wrangler dev --local` with the shipped wrangler.toml, offline: Hyperdrive pointed at `hyperdriveUrl`,
 * and every variable and secret from an env file written here (nothing read from .dev.vars). `addToConfig`:
 * TOML appended to a copy of wrangler.toml for this worker only (a binding the shipped file leaves commented,
 * e.g. `[[send_email]]`); the copy sits beside it, since its paths are relative, and is removed at stop.
 */
export async function startWorker(options: { hyperdriveUrl: string; vars: Record<string, string>; addToConfig?: string }): Promise<RunningWorker> {
  const scratch = await mkdtemp(join(tmpdir(), 'storefront-workerd-'));
  let config: string | undefined;
  if (options.addToConfig) {
    config = join(ROOT, `.wrangler-test-${crypto.randomUUID().slice(0, 8)}.toml`);
    await writeFile(config, `${await readFile(join(ROOT, 'wrangler.toml'), 'utf8')}\n${options.addToConfig}\n`);
  }
  // An env file of its own: wrangler then reads neither .dev.vars nor .env of the checkout.
  const envFile = join(scratch, 'worker.env');
  await writeFile(
    envFile,
    Object.entries(options.vars)
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  // The static assets' headers name the Supabase project in their CSP, as `npm run build` writes them
  // with SUPABASE_URL set (decision 164): here the stand-in, whose port is known only now.
  const csp = contentSecurityPolicy({ supabaseUrl: options.vars.SUPABASE_URL, imageOrigins: list.parse(options.vars.IMAGE_ORIGINS) });
  await writeFile(join(ROOT, 'dist/_headers'), workersHeadersFile(csp));
  const started = await startProcess(
    process.execPath,
    [
      join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'dev',
      '--local',
      '--ip',
      '127.0.0.1',
      '--port',
      '0',
      '--inspector-port',
      '0',
      '--persist-to',
      join(scratch, 'state'),
      '--show-interactive-dev-session=false',
      '--env-file',
      envFile,
      ...(config ? ['--config', config] : []),
    ],
    {
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_LOG_PATH: join(scratch, 'logs'),
      CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: options.hyperdriveUrl,
    },
    /Ready on (http:\/\/127\.0\.0\.1:\d+)/,
    'wrangler dev',
  ).catch(async (error: unknown) => {
    if (config) await rm(config, { force: true });
    throw error;
  });
  return {
    url: started.match[1]!,
    workerdPid: started.child.pid ? await findWorkerd(started.child.pid) : undefined,
    output: started.output,
    stop: async () => {
      await stopProcess(started.child);
      await rm(scratch, { recursive: true, force: true });
      if (config) await rm(config, { force: true });
    },
  };
}
