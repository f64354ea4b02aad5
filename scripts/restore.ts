import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { filesUnder, type BackupFile, type BackupHeader, type BackupKeys } from '../edge-api/src/backup/backup.ts';
import { importPglite, isPgliteDir } from '../edge-api/src/backup/pglite-import.ts';
import { readBackupFile, restoreLines, RestoreError } from '../edge-api/src/backup/restore.ts';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { useEmbeddedPostgres } from '../edge-api/src/db/embedded-postgres.ts';
import { migrateToLatest } from '../edge-api/src/db/migrate.ts';
import { parseEnv } from '../edge-api/src/env.ts';
import { loadOrCreateLocalKeys } from '../edge-api/src/local-keys.ts';

// `npm run restore -- FILE [--keys KEYS_FILE] [--without-keys]`: a backup of `npm run backup` into an empty
// DATA_DIR (or the empty database of DATABASE_URL). FILE may also be the DATA_DIR/pglite directory of a
// shop from before the embedded Postgres server: its rows, keys and images move into the new DATA_DIR.
const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { keys: { type: 'string' }, 'without-keys': { type: 'boolean', default: false } },
});
const [source] = positionals;
if (!source) {
  console.error('Usage: npm run restore -- FILE [--keys KEYS_FILE] [--without-keys]');
  process.exit(2);
}

const env = parseEnv(process.env);
const dataDir = resolve(env.DATA_DIR);
const sourcePath = resolve(source);
const fromPglite = isPgliteDir(sourcePath);
const envKeys = env.CREDENTIALS_KEY && env.BLIND_INDEX_KEY ? { credentialsKey: env.CREDENTIALS_KEY, blindIndexKey: env.BLIND_INDEX_KEY } : undefined;

/** The keys that read this backup's encrypted passwords: with it, beside it, given, or the environment's. */
async function keysFor(header: BackupHeader | undefined): Promise<BackupKeys | undefined> {
  if (header?.keys) return header.keys;
  // Given, beside the backup, or where `npm run backup` puts it on this machine (decision 165).
  const file = args.keys ?? [`${sourcePath}.keys.json`, join(dataDir, 'backup-keys', `${basename(sourcePath)}.keys.json`)].find((path) => existsSync(path));
  if (file) {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as BackupKeys;
    } catch (error) {
      throw new RestoreError(`Cannot read the keys file ${file}: ${(error as Error).message}`);
    }
  }
  if (envKeys || args['without-keys']) return undefined;
  throw new RestoreError(
    'This backup has no keys with it, and without them its delivered passwords cannot be read. Give the keys file ' +
      '(--keys FILE; `npm run backup` writes it as DATA_DIR/backup-keys/<backup>.keys.json), or set CREDENTIALS_KEY and ' +
      'BLIND_INDEX_KEY, or pass --without-keys to restore without them (new keys are made; delivered passwords are lost).',
  );
}

const filesRoot = join(dataDir, 'files');
async function writeImage(file: BackupFile): Promise<void> {
  const target = normalize(join(filesRoot, file.path));
  if (isAbsolute(file.path) || !target.startsWith(filesRoot + sep))
    throw new RestoreError(`The backup names a file outside the images directory: ${file.path}`);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await writeFile(target, file.bytes, { mode: 0o600 });
  await chmod(target, 0o600);
}
const onFile = env.SUPABASE_URL ? undefined : writeImage;

/** A PGlite DATA_DIR keeps its keys in keys.json beside the pglite directory. */
async function pgliteKeys(): Promise<BackupKeys | undefined> {
  const file = join(dirname(sourcePath), 'keys.json');
  if (!existsSync(file)) return keysFor(undefined);
  const local = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> & { credentialsKey: string; blindIndexKey: string };
  return { credentialsKey: local.credentialsKey, blindIndexKey: local.blindIndexKey, local };
}

// The keys are settled from the backup's first line before anything is started or written.
let keys: BackupKeys | undefined;
const lines = fromPglite ? undefined : readBackupFile(sourcePath)[Symbol.asyncIterator]();
const firstLine = (await lines?.next())?.value as string | undefined;
try {
  if (fromPglite) keys = await pgliteKeys();
  else {
    const header = (() => {
      try {
        return JSON.parse(firstLine ?? '') as BackupHeader;
      } catch {
        return undefined;
      }
    })();
    if (header?.format === 'storefront-backup') keys = await keysFor(header);
  }
} catch (error) {
  if (!(error instanceof RestoreError)) throw error;
  console.error(error.message);
  process.exit(1);
}
async function* backupFileLines() {
  if (firstLine !== undefined) yield firstLine;
  for (let next = await lines!.next(); !next.done; next = await lines!.next()) yield next.value as string;
}

const server = env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, release: async () => {} } : await useEmbeddedPostgres(dataDir);
const db = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 2 });
try {
  const result = fromPglite
    ? await importPglite(sourcePath, db, {
        files: filesUnder(join(dirname(sourcePath), 'files')),
        onFile: dirname(sourcePath) === dataDir ? undefined : onFile,
      })
    : await restoreLines(backupFileLines(), db, { onFile });
  // Moved in place: the next start must not try to move it again.
  if (fromPglite && dirname(sourcePath) === dataDir) await rename(sourcePath, join(dataDir, `pglite-moved-${new Date().toISOString().replace(/[:.]/g, '-')}`));
  await migrateToLatest(db);
  if (keys && !env.DATABASE_URL) {
    // The restored shop reads its passwords with the backup's keys and keeps its push key pair; the other
    // keys are new (a keys file of an earlier version, holding all of keys.json, still brings them).
    const current = await loadOrCreateLocalKeys(dataDir);
    const file = join(dataDir, 'keys.json');
    const restored = {
      ...current,
      ...keys.local,
      ...(keys.vapid && { vapid: keys.vapid }),
      credentialsKey: keys.credentialsKey,
      blindIndexKey: keys.blindIndexKey,
    };
    await writeFile(file, JSON.stringify(restored, null, 2), { mode: 0o600 });
    await chmod(file, 0o600);
  }
  const total = Object.values(result.rows).reduce((sum, n) => sum + n, 0);
  console.log(
    `Restored ${total} rows (${Object.entries(result.rows)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ')}) and ${result.files} files.`,
  );
  if (keys && env.DATABASE_URL && (keys.credentialsKey !== envKeys?.credentialsKey || keys.blindIndexKey !== envKeys?.blindIndexKey)) {
    console.log(
      'Set CREDENTIALS_KEY and BLIND_INDEX_KEY to the values in the keys file before you start the shop, or delivered passwords will not be readable.',
    );
  }
  console.log(env.DATABASE_URL ? 'Start the shop with this DATABASE_URL.' : `Start the shop with DATA_DIR=${dataDir} npm start.`);
} catch (error) {
  if (!(error instanceof RestoreError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await db.destroy();
  await server.release();
}
