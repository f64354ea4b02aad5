import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { Env } from '../env.ts';
import { backupLines, BACKUP_FORMAT, BACKUP_VERSION, filesUnder, writeBackupFile, type BackupHeader, type BackupKeys } from './backup.ts';
import { readBackupFile } from './restore.ts';

/**
 * One backup file, as `npm run backup` and the schedule (schedule.ts) both make it: every table of one
 * snapshot, the uploaded images under `filesRoot` when given, the keys inside only when `includeKeys`.
 */
export interface MadeBackup {
  path: string;
  rows: Record<string, number>;
  files: number;
  bytes: number;
}

/** What a restore needs to read the passwords (decision 165): the environment's keys, else DATA_DIR/keys.json's. */
export async function backupKeysOf(dataDir: string, env: Pick<Env, 'CREDENTIALS_KEY' | 'BLIND_INDEX_KEY'>): Promise<BackupKeys | undefined> {
  const file = join(dataDir, 'keys.json');
  const local = existsSync(file)
    ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> & { credentialsKey?: string; blindIndexKey?: string })
    : undefined;
  const credentialsKey = env.CREDENTIALS_KEY ?? local?.credentialsKey;
  const blindIndexKey = env.BLIND_INDEX_KEY ?? local?.blindIndexKey;
  if (!credentialsKey || !blindIndexKey) return undefined;
  return { credentialsKey, blindIndexKey, ...(local?.vapid ? { vapid: local.vapid as Record<string, unknown> } : {}) };
}

/** Where a backup's keys go by default: DATA_DIR/backup-keys/<backup name>.keys.json (decision 165). */
export const keysFileFor = (dataDir: string, backupName: string) => join(dataDir, 'backup-keys', `${backupName}.keys.json`);

/** Writes a keys file readable by its owner only, in a folder only its owner opens; never over another. */
export async function writeKeysFile(keys: BackupKeys, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
}

/**
 * Writes one backup of the database at `databaseUrl` to `path` (which must not exist). `signal` cuts it
 * short (the app stopping): the half-written file is removed and the promise rejects.
 */
export async function makeBackup(options: {
  databaseUrl: string;
  path: string;
  keys?: BackupKeys;
  filesRoot?: string;
  signal?: AbortSignal;
}): Promise<MadeBackup> {
  await mkdir(dirname(options.path), { recursive: true, mode: 0o700 });
  const client = new pg.Client({ connectionString: options.databaseUrl });
  const abort = () => void client.end().catch(() => undefined);
  options.signal?.addEventListener('abort', abort, { once: true });
  let rows: Record<string, number> = {};
  let files = 0;
  try {
    options.signal?.throwIfAborted();
    await client.connect();
    async function* counted() {
      for await (const line of backupLines(client, { keys: options.keys, files: options.filesRoot ? filesUnder(options.filesRoot) : undefined })) {
        if (line.startsWith('["@end",')) ({ rows, files } = (JSON.parse(line) as [string, { rows: Record<string, number>; files: number }])[1]);
        yield line;
      }
    }
    await writeBackupFile(counted(), options.path);
  } finally {
    options.signal?.removeEventListener('abort', abort);
    await client.end().catch(() => undefined);
  }
  return { path: options.path, rows, files, bytes: (await stat(options.path)).size };
}

export class BackupCheckError extends Error {
  override name = 'BackupCheckError';
}

/**
 * Reads a backup file back to its end: the gzip stream whole, every line valid JSON, a header of this
 * format, one end line last, and as many rows of each table (and files) as the end line says. With
 * `expected` (what the writer counted), the counts must match those too. Throws BackupCheckError.
 */
export async function checkBackupFile(
  path: string,
  expected?: { rows: Record<string, number>; files: number },
): Promise<{ rows: Record<string, number>; files: number; lines: number }> {
  const rows: Record<string, number> = {};
  let files = 0;
  let lines = 0;
  let header: BackupHeader | undefined;
  let ended: { rows: Record<string, number>; files: number } | undefined;
  try {
    for await (const line of readBackupFile(path)) {
      lines += 1;
      if (ended) throw new BackupCheckError(`line ${lines} comes after the end line`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new BackupCheckError(`line ${lines} is not valid JSON`);
      }
      if (lines === 1) {
        header = parsed as BackupHeader;
        if (header?.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION)
          throw new BackupCheckError('its first line is not a storefront backup header');
        continue;
      }
      const [kind, body] = parsed as [string, unknown];
      if (kind === '@end') ended = body as typeof ended;
      else if (kind === '@file') files += 1;
      else if (header!.tables.some((table) => table.name === kind)) rows[kind] = (rows[kind] ?? 0) + 1;
      else throw new BackupCheckError(`line ${lines} names a table the header does not list (${JSON.stringify(kind)})`);
    }
  } catch (error) {
    if (error instanceof BackupCheckError) throw error;
    // A gzip stream cut short or damaged: zlib's own words.
    throw new BackupCheckError(`it cannot be read to its end (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (!header) throw new BackupCheckError('it is empty');
  if (!ended) throw new BackupCheckError(`it ends early, after ${lines} lines, without its end line`);
  const against = [ended, ...(expected ? [expected] : [])];
  for (const counts of against) {
    for (const table of header.tables) {
      if ((rows[table.name] ?? 0) !== (counts.rows[table.name] ?? 0)) {
        throw new BackupCheckError(`table ${table.name} has ${rows[table.name] ?? 0} rows in the file, and ${counts.rows[table.name] ?? 0} were written`);
      }
    }
    if (files !== counts.files) throw new BackupCheckError(`it holds ${files} files, and ${counts.files} were written`);
  }
  return { rows, files, lines };
}
