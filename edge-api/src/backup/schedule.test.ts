import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../lib/logger.ts';
import { seedDemoData } from '../seed/demo-data.ts';
import { demoPassword } from '../seed/demo-passwords.ts';
import { inProcessHarness } from '../testing/api-harness.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { BackupCheckError, checkBackupFile, keysFileFor } from './make-backup.ts';
import { readBackupFile, restoreLines } from './restore.ts';
import { scheduledBackups, startBackupSchedule, type BackupScheduleOptions } from './schedule.ts';

let api: Awaited<ReturnType<typeof inProcessHarness>>;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
const targets: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
let work: string;
/** The test database's schema, as a connection string the schedule's own pg client uses. */
let databaseUrl: string;

beforeAll(async () => {
  database = await openTestDatabase();
  api = await inProcessHarness({}, database);
  await seedDemoData(api.deps, (email) => demoPassword('schedule-test', email));
  const url = new URL(database.databaseUrl);
  url.searchParams.set('options', `-c search_path=${database.schema},public`);
  databaseUrl = url.toString();
  work = await mkdtemp(join(tmpdir(), 'backup-schedule-'));
});
afterAll(async () => {
  for (const target of targets) await target.close();
  await api?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  return { logger, lines };
}

async function setup(name: string, overrides: Partial<BackupScheduleOptions> = {}) {
  const dataDir = join(work, name, 'data');
  const dir = join(work, name, 'backups');
  await mkdir(dataDir, { recursive: true });
  const keys = { credentialsKey: 'c'.repeat(43) + '=', blindIndexKey: 'b'.repeat(43) + '=', vapid: { publicKey: 'p' }, signingKey: 'never copied' };
  await writeFile(join(dataDir, 'keys.json'), JSON.stringify(keys));
  const { logger, lines } = recordingLogger();
  let clock = new Date('2026-11-29T03:00:00.000Z');
  const schedule = startBackupSchedule({
    dir,
    dataDir,
    databaseUrl,
    everyMs: 3_600_000,
    keep: 2,
    withFiles: false,
    keys: {},
    logger,
    now: () => clock,
    firstCheckMs: 3_600_000,
    ...overrides,
  });
  return { dataDir, dir, lines, schedule, advance: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
}

const rowsOf = async (table: string) => Number((await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)}`.execute(api.db)).rows[0]!.n);

describe('scheduled backups', () => {
  it('makes a backup when one is due, checks it, and keeps the newest ones with their keys files', async () => {
    const { dataDir, dir, lines, schedule, advance } = await setup('due');
    // Someone's own backup in the same folder is never pruned.
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'storefront-2020-01-01T00-00-00-000Z.backup.gz'), 'mine');

    const first = await schedule.check();
    expect(first.kind).toBe('made');
    if (first.kind !== 'made') return;
    expect(first.rows).toBeGreaterThan(10);
    const checked = await checkBackupFile(first.file);
    // The schedule read it back itself: every line, to the end line.
    expect(first.checkedLines).toBe(
      gunzipSync(await readFile(first.file))
        .toString('utf8')
        .trimEnd()
        .split('\n').length,
    );
    expect(first.checkedLines).toBe(checked.lines);
    expect(checked.rows.orders).toBe(await rowsOf('orders'));
    expect(checked.rows.services).toBe(await rowsOf('services'));
    // The keys a restore needs, apart from the backup, and only those (decision 165).
    const keys = JSON.parse(await readFile(keysFileFor(dataDir, first.file.split('/').at(-1)!), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(keys).sort()).toEqual(['blindIndexKey', 'credentialsKey', 'vapid']);
    expect((await stat(first.file)).mode & 0o777).toBe(0o600);

    // Not due again within the interval, even across checks.
    advance(59 * 60_000);
    expect((await schedule.check()).kind).toBe('not-due');

    const made: string[] = [first.file];
    for (let i = 0; i < 3; i++) {
      advance(60 * 60_000);
      const next = await schedule.check();
      expect(next.kind).toBe('made');
      if (next.kind === 'made') made.push(next.file);
    }
    const kept = await scheduledBackups(dir);
    expect(kept).toEqual(made.slice(-2).map((file) => file.split('/').at(-1)));
    for (const file of made.slice(0, 2)) {
      expect(existsSync(file)).toBe(false);
      expect(existsSync(keysFileFor(dataDir, file.split('/').at(-1)!))).toBe(false);
    }
    for (const file of made.slice(-2)) expect(existsSync(keysFileFor(dataDir, file.split('/').at(-1)!))).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['storefront-2020-01-01T00-00-00-000Z.backup.gz', ...kept]);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(lines.filter((line) => line.message === 'Scheduled backup written and checked')).toHaveLength(4);
    await schedule.stop();

    // The restore drill: the newest scheduled backup restores into an empty database, every row back.
    const target = await openTestDatabase({ migrate: false });
    targets.push(target);
    await target.underLock(async () => {
      const result = await restoreLines(readBackupFile(join(dir, kept.at(-1)!)), target.db, { schema: target.schema });
      expect(result.rows.orders).toBe(await rowsOf('orders'));
    });
  });

  it('runs on its own timer, and stops', async () => {
    const { dir, schedule } = await setup('timer', { now: undefined, everyMs: 400, checkEveryMs: 100, firstCheckMs: 0, keep: 1 });
    const deadline = Date.now() + 20_000;
    while ((await scheduledBackups(dir)).length === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    await schedule.stop();
    const kept = await scheduledBackups(dir);
    expect(kept).toHaveLength(1);
    expect((await checkBackupFile(join(dir, kept[0]!))).rows.orders).toBe(await rowsOf('orders'));
  });

  it('logs one error line when a backup fails, leaves no file, and tries again at the next check', async () => {
    const { dir, lines, schedule } = await setup('failing', { databaseUrl: 'postgres://nobody:wrong@127.0.0.1:1/none' });
    expect((await schedule.check()).kind).toBe('failed');
    expect((await schedule.check()).kind).toBe('failed');
    await schedule.stop();
    const errors = lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(2);
    expect(errors[0]!.message).toMatch(/Scheduled backup failed; trying again/);
    expect(JSON.stringify(errors)).not.toMatch(/wrong/);
    expect(existsSync(dir) ? await readdir(dir) : []).toEqual([]);
  });
});

describe('the check of a backup file', () => {
  async function goodBackup(): Promise<string> {
    const { schedule } = await setup(`check-${crypto.randomUUID()}`);
    const made = await schedule.check();
    await schedule.stop();
    if (made.kind !== 'made') throw new Error(`no backup: ${JSON.stringify(made)}`);
    return made.file;
  }

  it('reports a file cut short as failed', async () => {
    const file = await goodBackup();
    const { size } = await stat(file);
    await truncate(file, Math.floor(size / 2));
    await expect(checkBackupFile(file)).rejects.toThrow(BackupCheckError);
    // Cut just before the gzip trailer: every line may be there, but the stream is not whole.
    const other = await goodBackup();
    await truncate(other, (await stat(other)).size - 4);
    await expect(checkBackupFile(other)).rejects.toThrow(/cannot be read to its end|ends early/);
  });

  it('reports a damaged line, a missing row and counts other than written as failed', async () => {
    const file = await goodBackup();
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    const rewrite = async (changed: string[]) => {
      await writeFile(file, gzipSync(`${changed.join('\n')}\n`));
    };
    const orderLine = lines.findIndex((line) => line.startsWith('["orders",'));
    await rewrite(lines.map((line, i) => (i === orderLine ? line.slice(0, -5) : line)));
    await expect(checkBackupFile(file)).rejects.toThrow(/line \d+ is not valid JSON/);
    await rewrite(lines.filter((_, i) => i !== orderLine));
    await expect(checkBackupFile(file)).rejects.toThrow(/table orders has \d+ rows in the file/);
    await rewrite(lines.slice(0, -1));
    await expect(checkBackupFile(file)).rejects.toThrow(/ends early/);
    await rewrite(lines);
    const counted = await checkBackupFile(file);
    await expect(checkBackupFile(file, { rows: { ...counted.rows, orders: counted.rows.orders! + 1 }, files: 0 })).rejects.toThrow(/were written/);
  });
});
