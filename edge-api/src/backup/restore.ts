import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import { migrateTo } from '../db/migrate.ts';
import { migrationNames } from '../db/migration-names.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupFile, type BackupHeader } from './backup.ts';

export class RestoreError extends Error {
  override name = 'RestoreError';
}

const BATCH_ROWS = 500;
const BATCH_CHARS = 4 * 1024 * 1024;
/** A counter, not shop data: its one row is made by the first migration and replaced by the backup's. */
const COUNTER_TABLES = new Set(['sync_counter']);

/** The lines of a backup file, gzipped (as `npm run backup` writes them) or not. */
export async function* readBackupFile(path: string): AsyncGenerator<string> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0);
  await handle.close();
  let stream: Readable = createReadStream(path);
  if (magic[0] === 0x1f && magic[1] === 0x8b) stream = stream.pipe(createGunzip());
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) if (line) yield line;
}

export interface RestoreResult {
  header: BackupHeader;
  rows: Record<string, number>;
  files: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a restore brings any schema version back
type AnyDb = Kysely<any>;

async function appliedMigrations(db: AnyDb): Promise<string[]> {
  const found = await sql<{ found: boolean }>`select to_regclass(quote_ident(current_schema()) || '.kysely_migration') is not null as found`.execute(db);
  if (!found.rows[0]?.found) return [];
  return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);
}

function parseHeader(line: string | undefined): BackupHeader {
  let header: BackupHeader | undefined;
  try {
    header = line ? (JSON.parse(line) as BackupHeader) : undefined;
  } catch {
    header = undefined;
  }
  if (header?.format !== BACKUP_FORMAT) throw new RestoreError('This is not a storefront backup (made by `npm run backup`).');
  if (header.version !== BACKUP_VERSION) throw new RestoreError(`This backup has format version ${header.version}; this app reads version ${BACKUP_VERSION}.`);
  return header;
}

/**
 * Brings an empty database to the backup's migration. Refuses a backup of a newer app, a database at a newer
 * schema than the backup, and a database that holds rows already.
 */
async function prepareTarget(db: AnyDb, header: BackupHeader, schema: string | undefined): Promise<void> {
  const known = new Set(migrationNames());
  const unknown = header.migrations.find((name) => !known.has(name));
  if (unknown) throw new RestoreError(`This backup comes from a newer version of the storefront (migration ${unknown}): update the app, then restore.`);
  const applied = await appliedMigrations(db);
  if (!applied.every((name, i) => header.migrations[i] === name)) {
    throw new RestoreError('The database is at a newer schema than the backup. Restore into an empty DATA_DIR or database.');
  }
  const last = header.migrations.at(-1);
  if (last) await migrateTo(db, last, { schema });
  for (const table of header.tables) {
    if (COUNTER_TABLES.has(table.name)) continue;
    const taken = await sql<{ taken: boolean }>`select exists (select 1 from ${sql.table(table.name)}) as taken`.execute(db);
    if (taken.rows[0]?.taken) {
      throw new RestoreError(`The database is not empty (table ${table.name} has rows). Restore into an empty DATA_DIR or database.`);
    }
  }
}

/** Every table holds as many rows as the backup's end line says, or nothing is restored. */
function assertCounts(header: BackupHeader, rows: Record<string, number>, expected: Record<string, number>): void {
  for (const table of header.tables) {
    if ((rows[table.name] ?? 0) !== (expected[table.name] ?? 0)) {
      throw new RestoreError(
        `The backup's table ${table.name} should have ${expected[table.name]} rows and has ${rows[table.name] ?? 0}; nothing was restored.`,
      );
    }
  }
}

/**
 * Restores a backup into an empty database: brings its schema to the backup's migration, then inserts every
 * row in one transaction (all or nothing) and checks the counts against the backup's end line. The caller
 * migrates to the latest afterwards.
 */
export async function restoreLines(
  lines: AsyncIterable<string> | Iterable<string>,
  db: AnyDb,
  options: { schema?: string; onFile?: (file: BackupFile) => Promise<void> } = {},
): Promise<RestoreResult> {
  const iterator = (async function* () {
    yield* lines;
  })();
  const header = parseHeader((await iterator.next()).value as string | undefined);
  await prepareTarget(db, header, options.schema);

  const columns = new Map(header.tables.map((table) => [table.name, table.columns]));
  const rows: Record<string, number> = {};
  let files = 0;
  let ended: { rows: Record<string, number>; files: number } | undefined;
  await db.transaction().execute(async (trx) => {
    for (const table of header.tables) if (COUNTER_TABLES.has(table.name)) await sql`delete from ${sql.table(table.name)}`.execute(trx);
    let batch: string[] = [];
    let batchTable = '';
    let batchChars = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const list = sql.join(columns.get(batchTable)!.map((column) => sql.ref(column)));
      await sql`insert into ${sql.table(batchTable)} (${list})
                select ${list} from jsonb_populate_recordset(null::${sql.table(batchTable)}, ${`[${batch.join(',')}]`}::jsonb)`.execute(trx);
      rows[batchTable] = (rows[batchTable] ?? 0) + batch.length;
      batch = [];
      batchChars = 0;
    };
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const line = next.value as string;
      if (ended) throw new RestoreError('The backup has lines after its end line; it is damaged. Nothing was restored.');
      if (line.startsWith('["@')) {
        await flush();
        const [kind, body] = JSON.parse(line) as ['@file', { path: string; data: string }] | ['@end', { rows: Record<string, number>; files: number }];
        if (kind === '@file') {
          await options.onFile?.({ path: body.path, bytes: Buffer.from(body.data, 'base64') });
          files += 1;
        } else ended = body;
        continue;
      }
      // ["table",{…}]: the row stays Postgres's own JSON text.
      const nameEnd = line.indexOf('",');
      const table = line.startsWith('["') && nameEnd > 0 ? line.slice(2, nameEnd) : '';
      if (!columns.has(table) || !line.endsWith(']'))
        throw new RestoreError(`The backup has a line this app cannot read (table ${JSON.stringify(table)}); nothing was restored.`);
      if (table !== batchTable) await flush();
      batchTable = table;
      const row = line.slice(nameEnd + 2, -1);
      batch.push(row);
      batchChars += row.length;
      if (batch.length >= BATCH_ROWS || batchChars >= BATCH_CHARS) await flush();
    }
    await flush();
    if (!ended) throw new RestoreError('The backup ends early (it has no end line): it is incomplete. Nothing was restored.');
    assertCounts(header, rows, ended.rows);
    for (const [name, { value, called }] of Object.entries(header.sequences)) {
      await sql`select setval(${`"${name.replaceAll('"', '""')}"`}::regclass, ${value}, ${called})`.execute(trx);
    }
  });
  return { header, rows, files };
}
