import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { platform } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { silentLogger, type Logger } from '../lib/logger.ts';
import { NOT_OUR_SERVER } from './faults.ts';
import { ServerSupervisor } from './embedded-postgres-supervisor.ts';
import {
  loadBinaries,
  logPath,
  logTail,
  openLog,
  passwordOf,
  preparePrivateDir,
  runInitdb,
  serverUser,
  type Binaries,
  type RunAs,
} from './embedded-postgres-cluster.ts';
import {
  alive,
  EmbeddedPostgresError,
  lockDataDir,
  readPostmasterFile,
  runningApp,
  sleep,
  stopLeftoverServer,
  STOP_TIMEOUT_MS,
} from './embedded-postgres-process.ts';

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
  // After a crash, Postgres syncs the whole cluster before it replays the WAL: one syncfs instead of an
  // fsync per file (seconds on a loaded machine), so a restarted server serves within 5 s (decision 193).
  ...(platform() === 'linux' && { recovery_init_sync_method: 'syncfs' }),
};

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

/** The setting that names the server this app started (a custom one, given on its command line). */
export const INSTANCE_SETTING = 'storefront.instance';

/**
 * Whether the server answering at `url` is the one this app started: another server may answer on the same
 * socket (one started by hand on the cluster, or by another app). Connection errors are thrown.
 */
export async function isOwnServer(client: pg.ClientBase, instance: string): Promise<boolean> {
  const { rows } = await client.query<{ instance: string | null }>(`select current_setting('${INSTANCE_SETTING}', true) as instance`);
  return rows[0]?.instance === instance;
}

/** A pool's `verify`: a new connection that reaches another server than this app's fails, and is not used. */
export function ownServerCheck(instance: string): (client: pg.ClientBase) => Promise<void> {
  return async (client) => {
    if (!(await isOwnServer(client, instance))) throw new Error(NOT_OUR_SERVER);
  };
}

async function waitUntilReady(url: string, instance: string, child: ChildProcess, cluster: string, logFrom: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = child.exitCode !== null;
  let foreign = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const own = await isOwnServer(client, instance);
      await client.end();
      if (own) return;
      // Not ours: keep waiting for our own, which fails to start while the other holds the cluster.
      foreign = true;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (exited) {
      const other = foreign ? `Another Postgres server (not started by this app) serves ${cluster}; stop it first.\n` : '';
      throw new EmbeddedPostgresError(`${other}The embedded Postgres did not start:\n${logTail(cluster, logFrom)}`);
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
  /** The value of `storefront.instance` on this server: a pool checks each new connection against it (isOwnServer). */
  instance: string;
  /** How many times the server was started again after it died (decision 193). */
  restarts(): number;
}

/**
 * Starts the embedded server of DATA_DIR as this process's own, creating the cluster on the first start,
 * and starts it again whenever it dies (embedded-postgres-supervisor.ts). Throws EmbeddedPostgresError
 * when another app runs on DATA_DIR, or another server answers on its cluster.
 */
export async function startEmbeddedPostgres(
  dataDirectory: string,
  { logger = silentLogger, onRestart }: { logger?: Logger; onRestart?: () => void } = {},
): Promise<EmbeddedPostgres> {
  const dataDir = resolve(dataDirectory);
  const binaries = await loadBinaries();
  const runAs = serverUser();
  await preparePrivateDir(dataDir, runAs);
  // Held while the app lives, through restarts of its server: no other app starts on DATA_DIR meanwhile.
  const unlock = await lockDataDir(dataDir);
  try {
    const cluster = join(dataDir, 'postgres');
    const initialised = Boolean(await stat(join(cluster, 'PG_VERSION')).catch(() => undefined));
    const password = await passwordOf(dataDir, !initialised);
    // Names this run's server: a server answering on the cluster without it is not this app's.
    const instance = randomBytes(16).toString('hex');
    const start = async (port?: number) => {
      const log = await openLog(cluster);
      try {
        if (initialised || port !== undefined) await stopLeftoverServer(cluster, logger);
        else await runInitdb(binaries, cluster, password, runAs, log.fd);
        return await launch({ binaries, cluster, password, runAs, log, instance, port });
      } finally {
        closeSync(log.fd);
      }
    };
    const first = await start();
    // Again on the same address: the app's pools keep their connection string.
    const supervisor = new ServerSupervisor(first.child, {
      relaunch: async () => (await start(first.at.port)).child,
      logger,
      logFile: logPath(cluster),
      onRestart,
    });
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= supervisor.stop((child) => stopServer(binaries, cluster, child)).finally(unlock));
    return { databaseUrl: connectionUrl(password, first.at), stop, instance, restarts: () => supervisor.restarts };
  } catch (error) {
    unlock();
    throw error;
  }
}

interface LaunchOptions {
  binaries: Binaries;
  cluster: string;
  password: string;
  runAs: RunAs | undefined;
  log: { fd: number; from: number };
  instance: string;
  /** The TCP port of an earlier start of this run (ignored on a socket). */
  port?: number;
}

async function launch({ binaries, cluster, password, runAs, log, instance, port }: LaunchOptions) {
  const socket = platform() !== 'win32' && join(cluster, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH;
  for (let attempt = 1; ; attempt += 1) {
    const at: Listening = socket ? { host: cluster, port: SOCKET_PORT } : { host: '127.0.0.1', port: port ?? (await freePort()) };
    const settings = {
      ...SERVER_SETTINGS,
      port: String(at.port),
      listen_addresses: socket ? '' : '127.0.0.1',
      unix_socket_directories: socket ? cluster : '',
      unix_socket_permissions: '0700',
      [INSTANCE_SETTING]: instance,
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
      await waitUntilReady(connectionUrl(password, at), instance, child, cluster, log.from);
      return { child, at };
    } catch (error) {
      // Another program took the port between the probe and the start: try another one (a restart keeps its port).
      if (!socket && port === undefined && attempt < 3 && /could not bind|address already in use/i.test(String(error))) continue;
      // The processes of a server killed a moment ago are still on their way out.
      if (attempt < 20 && /lock file .* already exists|shared memory block is still in use/i.test(String(error))) {
        await sleep(250);
        continue;
      }
      throw error;
    }
  }
}

async function stopServer(binaries: Binaries, cluster: string, child: ChildProcess): Promise<void> {
  // Referenced again, so this process waits for the server to be down before it may exit.
  child.ref();
  const exited = new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done(null) : child.once('exit', done)));
  const postmaster = readPostmasterFile(cluster)?.pid;
  if (platform() === 'win32') spawnSync(binaries.pg_ctl, ['stop', '-D', cluster, '-m', 'fast', '-w'], { stdio: 'ignore', windowsHide: true });
  else child.stdin!.end();
  const timer = setTimeout(() => postmaster && alive(postmaster) && process.kill(postmaster, 'SIGQUIT'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * For tools (backup, restore, migrate) while the shop may be open: the running app's server when there is
 * one, or the server started for the tool alone (and stopped by `release`).
 */
export async function useEmbeddedPostgres(
  dataDirectory: string,
  options: { logger?: Logger } = {},
): Promise<{ databaseUrl: string; release(): Promise<void> }> {
  const dataDir = resolve(dataDirectory);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const app = runningApp(dataDir);
    const cluster = join(dataDir, 'postgres');
    const server = app ? readPostmasterFile(cluster) : undefined;
    if (app && server?.status === 'ready' && alive(server.pid)) {
      const password = await passwordOf(dataDir, false);
      const at =
        server.listenAddress && server.listenAddress !== '*'
          ? { host: server.listenAddress, port: server.port }
          : { host: server.socketDir, port: server.port };
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
