import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Env } from '../env.ts';
import type { Logger } from '../lib/logger.ts';
import { backupKeysOf, checkBackupFile, keysFileFor, makeBackup, writeKeysFile } from './make-backup.ts';

/**
 * Backups that happen on their own (decision 116): while the app runs with BACKUP_DIR set, a backup is
 * due when the newest scheduled one there is older than the interval (so a restart neither skips nor
 * repeats one). Each is written under a temporary name, read back to its end, then named; the newest
 * `keep` are kept and older ones go, with their keys files. A failed one logs one error line and is tried
 * again at the next check. Only this process's schedule writes here (the app holds the data-dir lock),
 * and one backup at a time.
 */
export interface BackupScheduleOptions {
  dir: string;
  dataDir: string;
  databaseUrl: string;
  everyMs: number;
  keep: number;
  /** The uploaded images go into each backup (embedded mode), from DATA_DIR/files. */
  withFiles: boolean;
  keys: Pick<Env, 'CREDENTIALS_KEY' | 'BLIND_INDEX_KEY'>;
  logger: Logger;
  now?: () => Date;
  /** How often to look whether a backup is due (default: every tenth of the interval, at most 10 min). */
  checkEveryMs?: number;
  /** The first look, after start (default 60 s, or the check interval when shorter: the start is not slowed). */
  firstCheckMs?: number;
}

export type BackupOutcome =
  | { kind: 'not-due'; dueAt: Date }
  | { kind: 'made'; file: string; rows: number; files: number; bytes: number; checkedLines: number; removed: string[] }
  | { kind: 'failed'; reason: string };

export interface BackupSchedule {
  /** Makes a backup if one is due (what every check does); resolves with what happened, never rejects. */
  check(): Promise<BackupOutcome>;
  stop(): Promise<void>;
}

const PREFIX = 'storefront-scheduled-';
const SUFFIX = '.backup.gz';
const OURS = /^storefront-scheduled-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.backup\.gz$/;

/** The schedule's own backups in `dir`, oldest first (their names sort by time). Others there are left alone. */
export async function scheduledBackups(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => OURS.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const timeOf = (name: string) => new Date(name.slice(PREFIX.length, -SUFFIX.length).replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, 'T$1:$2:$3.$4Z'));

/** The schedule of this env, or one that does nothing without BACKUP_DIR. */
export function scheduleBackups(env: Env, where: { dataDir: string; databaseUrl: string; logger: Logger }): BackupSchedule {
  if (!env.BACKUP_DIR) return { check: async () => ({ kind: 'failed', reason: 'BACKUP_DIR is not set' }), stop: async () => {} };
  return startBackupSchedule({
    ...where,
    dir: resolve(env.BACKUP_DIR),
    everyMs: env.BACKUP_INTERVAL_HOURS * 3_600_000,
    keep: env.BACKUP_KEEP,
    withFiles: !env.SUPABASE_URL,
    keys: env,
  });
}

export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const now = options.now ?? (() => new Date());
  const checkEveryMs = options.checkEveryMs ?? Math.min(options.everyMs / 10, 600_000);
  const aborter = new AbortController();
  let running: Promise<BackupOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const check = (): Promise<BackupOutcome> => {
    // One at a time: a check while a backup runs waits for it and reports it.
    running ??= runIfDue(options, now, aborter.signal, checkEveryMs).finally(() => (running = undefined));
    return running;
  };
  const loop = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => void check().finally(() => loop(checkEveryMs)), delay);
    timer.unref();
  };
  loop(options.firstCheckMs ?? Math.min(60_000, checkEveryMs));
  options.logger.info('Scheduled backups on', { dir: options.dir, everyHours: options.everyMs / 3_600_000, keep: options.keep });
  return {
    check,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      // A backup under way is cut short (its half file removed): stopping must not wait for it.
      aborter.abort();
      await running;
    },
  };
}

async function runIfDue(options: BackupScheduleOptions, now: () => Date, signal: AbortSignal, checkEveryMs: number): Promise<BackupOutcome> {
  const { dir, logger } = options;
  try {
    const newest = (await scheduledBackups(dir)).at(-1);
    const dueAt = new Date(newest ? timeOf(newest).getTime() + options.everyMs : 0);
    if (dueAt > now()) return { kind: 'not-due', dueAt };
    const outcome = await makeScheduledBackup(options, now(), signal);
    const total = Object.values(outcome.rows).reduce((sum, n) => sum + n, 0);
    const made = {
      kind: 'made',
      file: outcome.file,
      rows: total,
      files: outcome.files,
      bytes: outcome.bytes,
      checkedLines: outcome.checkedLines,
      removed: outcome.removed,
    } as const;
    logger.info('Scheduled backup written and checked', {
      file: made.file,
      rows: total,
      files: made.files,
      bytes: made.bytes,
      checkedLines: made.checkedLines,
      removed: made.removed,
    });
    return made;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!signal.aborted)
      logger.error('Scheduled backup failed; trying again at the next check', { dir, reason, nextCheckInSeconds: Math.round(checkEveryMs / 1000) });
    return { kind: 'failed', reason };
  }
}

async function makeScheduledBackup(options: BackupScheduleOptions, at: Date, signal: AbortSignal) {
  const name = `${PREFIX}${at.toISOString().replace(/[:.]/g, '-')}${SUFFIX}`;
  const file = join(options.dir, name);
  const partial = `${file}.partial`;
  await rm(partial, { force: true });
  const keys = await backupKeysOf(options.dataDir, options.keys);
  const keysFile = keysFileFor(options.dataDir, name);
  let named = false;
  try {
    const made = await makeBackup({
      databaseUrl: options.databaseUrl,
      path: partial,
      filesRoot: options.withFiles ? join(options.dataDir, 'files') : undefined,
      signal,
    });
    // Read back to the end, the counts against what was written: a file that fails this never counts as a backup.
    const checked = await checkBackupFile(partial, made);
    if (keys) await writeKeysFile(keys, keysFile).catch(ignoreExisting);
    await rename(partial, file);
    named = true;
    const removed = await prune(options);
    return { file, rows: made.rows, files: made.files, bytes: (await stat(file)).size, checkedLines: checked.lines, removed };
  } finally {
    await rm(partial, { force: true });
    // A keys file without its backup would never be pruned.
    if (!named) await rm(keysFile, { force: true });
  }
}

const ignoreExisting = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EEXIST') throw error;
};

/** Removes the schedule's backups past the newest `keep`, and their keys files; returns their names. */
async function prune(options: BackupScheduleOptions): Promise<string[]> {
  const all = await scheduledBackups(options.dir);
  const old = all.slice(0, Math.max(0, all.length - options.keep));
  for (const name of old) {
    await rm(keysFileFor(options.dataDir, name), { force: true });
    await rm(join(options.dir, name), { force: true });
  }
  return old;
}
