import { spawnSync } from 'node:child_process';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../lib/logger.ts';

/**
 * The processes around the embedded Postgres (embedded-postgres.ts): one app per DATA_DIR, told by its
 * lock file, and a server a previous run left behind, stopped before a new one starts.
 */

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export const STOP_TIMEOUT_MS = 60_000;

/** A zombie (killed, not yet reaped) counts as gone. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
};

/** The command line of a live process (Node names its main thread, so not its `comm`), or undefined when it cannot be told. */
function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || undefined;
  } catch {
    const ps = spawnSync('ps', ['-p', String(pid), '-o', 'args='], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout.trim() : undefined;
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---- one app per DATA_DIR ----------------------------------------------------------------------

/** Whether a process is a Node process (the app), as far as can be told. */
function isApp(pid: number): boolean {
  const command = commandOf(pid);
  return command === undefined || /node|storefront/i.test(command);
}

/**
 * Creates `file` holding `text`, or fails with EEXIST: written under a name of its own first, then linked,
 * so nobody ever reads it empty (decision 111).
 */
async function createWith(file: string, text: string): Promise<void> {
  const draft = `${file}.${process.pid}.${Date.now()}`;
  await writeFile(draft, text, { mode: 0o600 });
  try {
    await link(draft, file);
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/** Removes a lock file left by a dead app, if it is still that one: one remover at a time. */
async function removeStale(file: string, holder: number): Promise<void> {
  const guard = `${file}.takeover`;
  // A guard older than 10 s was left by a start that died while removing: nobody holds it that long.
  const age = Date.now() - ((await stat(guard).catch(() => undefined))?.mtimeMs ?? Date.now());
  if (age > 10_000) await unlink(guard).catch(() => undefined);
  try {
    await createWith(guard, `${process.pid}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      await sleep(50);
      return;
    }
    throw error;
  }
  try {
    const now = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (now === holder) await unlink(file).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

function releaser(file: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', release);
  return release;
}

/**
 * Takes DATA_DIR/storefront.pid for this process. A live app holding it means another app runs on this
 * DATA_DIR; a dead one (or a pid now used by something else) left it behind and it is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const file = join(dataDir, 'storefront.pid');
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await createWith(file, `${process.pid}\n`);
      return releaser(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (holder && holder !== process.pid && alive(holder) && isApp(holder)) {
      throw new EmbeddedPostgresError(
        `Another storefront (process ${holder}) is already running on DATA_DIR ${dataDir}. ` +
          `Stop it first (Ctrl-C in its terminal, or kill ${holder}), or give this one another DATA_DIR.`,
      );
    }
    await removeStale(file, holder);
  }
  throw new EmbeddedPostgresError(`Could not take ${file}: another process keeps creating it.`);
}

/** The live app holding DATA_DIR, if any. */
export function runningApp(dataDir: string): number | undefined {
  try {
    const holder = Number(readFileSync(join(dataDir, 'storefront.pid'), 'utf8').trim());
    return holder && alive(holder) && isApp(holder) ? holder : undefined;
  } catch {
    return undefined;
  }
}

// ---- the server's own lock file ----------------------------------------------------------------

interface PostmasterFile {
  pid: number;
  port: number;
  socketDir: string;
  listenAddress: string;
  status: string;
}

/** DATA_DIR/postgres/postmaster.pid: pid, data dir, start time, port, socket dir, listen address, shm key, status. */
export function readPostmasterFile(cluster: string): PostmasterFile | undefined {
  let lines: string[];
  try {
    lines = readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  return {
    pid: Number(lines[0]),
    port: Number(lines[3]),
    socketDir: lines[4]?.trim() ?? '',
    listenAddress: lines[5]?.trim() ?? '',
    status: lines[7]?.trim() ?? '',
  };
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

/**
 * A server left running by an app that was killed together with its watcher (say `kill -9` of the whole
 * process group): it is stopped as Ctrl-C would have (a fast shutdown: every committed row stays), then
 * started again as this app's own. A pid file whose process is gone is left to Postgres, which checks
 * it itself; one whose pid now belongs to another program is removed, or Postgres would refuse to start.
 */
export async function stopLeftoverServer(cluster: string, logger: Logger): Promise<void> {
  const leftover = readPostmasterFile(cluster);
  if (!leftover || !leftover.pid || !alive(leftover.pid)) return;
  if (!(commandOf(leftover.pid) ?? 'postgres').includes('postgres')) {
    await unlink(join(cluster, 'postmaster.pid')).catch(() => undefined);
    return;
  }
  logger.warn('Stopping the Postgres server a previous run left behind', { pid: leftover.pid });
  process.kill(leftover.pid, 'SIGINT');
  if (await waitForExit(leftover.pid, STOP_TIMEOUT_MS)) return;
  // Immediate shutdown: the next start replays the WAL, so committed rows still survive.
  process.kill(leftover.pid, 'SIGQUIT');
  if (!(await waitForExit(leftover.pid, 10_000))) {
    throw new EmbeddedPostgresError(`The Postgres server (process ${leftover.pid}) of ${cluster} does not stop; stop it, then start again.`);
  }
}
