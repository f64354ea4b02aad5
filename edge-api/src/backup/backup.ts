import { createWriteStream } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/**
 * A backup is one gzipped text file of lines, written from one snapshot of the database:
 *
 *   {"format":"storefront-backup","version":1,"migrations":[…],"tables":[{"name","columns"}…],"sequences":{…},"keys"?:{…}}
 *   ["orders",{…one row, as Postgres's to_jsonb wrote it…}]          (every row of every table, parents first)
 *   ["@file",{"path":"service-images/…","data":"<base64>"}]          (uploaded images, embedded mode)
 *   ["@end",{"rows":{"orders":123,…},"files":4}]
 *
 * Rows are Postgres's own JSON text, never parsed here, so every value comes back exactly as it was.
 */
export const BACKUP_FORMAT = 'storefront-backup';
export const BACKUP_VERSION = 1;

/** pg's Client and PGlite both answer this. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * What a restore needs (decision 165): the keys that read the encrypted passwords, and the web-push key
 * pair the customers' subscriptions were made for. Never the token-signing or service-role keys: a
 * restored shop makes new ones, and everyone signs in again.
 */
export interface BackupKeys {
  credentialsKey: string;
  blindIndexKey: string;
  vapid?: Record<string, unknown>;
  /** Written by earlier versions (DATA_DIR/keys.json as a whole): still read, never written. */
  local?: Record<string, unknown>;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  migrations: string[];
  tables: { name: string; columns: string[] }[];
  sequences: Record<string, { value: number; called: boolean }>;
  keys?: BackupKeys;
}

export interface BackupFile {
  path: string;
  bytes: Uint8Array;
}

const FETCH_ROWS = 2000;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables of the current schema, a table after every table it references; the migrator's own left out. */
async function listTables(source: Queryable): Promise<BackupHeader['tables']> {
  const tables = (
    await source.query(
      `select c.oid::int as oid, c.relname as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname not like 'kysely\\_migration%'
        order by c.relname`,
    )
  ).rows as { oid: number; name: string }[];
  const references = (
    await source.query(`select conrelid::int as child, confrelid::int as parent from pg_constraint where contype = 'f' and conrelid <> confrelid`)
  ).rows as { child: number; parent: number }[];
  const columns = (
    await source.query(
      `select attrelid::int as oid, attname as name from pg_attribute
        where attrelid in (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema())
          and attnum > 0 and not attisdropped and attgenerated = ''
        order by attnum`,
    )
  ).rows as { oid: number; name: string }[];
  const ordered: typeof tables = [];
  const placed = new Set<number>();
  const place = (table: (typeof tables)[number], path: Set<number>) => {
    if (placed.has(table.oid) || path.has(table.oid)) return;
    path.add(table.oid);
    for (const reference of references.filter((r) => r.child === table.oid)) {
      const parent = tables.find((t) => t.oid === reference.parent);
      if (parent) place(parent, path);
    }
    placed.add(table.oid);
    ordered.push(table);
  };
  for (const table of tables) place(table, new Set());
  return ordered.map((table) => ({ name: table.name, columns: columns.filter((c) => c.oid === table.oid).map((c) => c.name) }));
}

async function appliedMigrations(source: Queryable): Promise<string[]> {
  const found = (await source.query(`select to_regclass(quote_ident(current_schema()) || '.kysely_migration') is not null as found`)).rows[0] as {
    found: boolean;
  };
  if (!found.found) return [];
  return ((await source.query('select name from kysely_migration order by name')).rows as { name: string }[]).map((row) => row.name);
}

async function sequenceValues(source: Queryable): Promise<BackupHeader['sequences']> {
  const names = (
    await source.query(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'S'`,
    )
  ).rows as { name: string }[];
  const values: BackupHeader['sequences'] = {};
  for (const { name } of names) {
    const row = (await source.query(`select last_value::text as value, is_called as called from ${quote(name)}`)).rows[0] as { value: string; called: boolean };
    values[name] = { value: Number(row.value), called: row.called };
  }
  return values;
}

/** Every file under `root` (the disk blob store), as paths relative to it with forward slashes. */
export async function* filesUnder(root: string): AsyncGenerator<BackupFile> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    yield { path: relative(root, file).split(sep).join('/'), bytes: await readFile(file) };
  }
}

/**
 * The lines of a backup of `source`'s current schema. The rows come from one REPEATABLE READ, READ ONLY
 * transaction: one snapshot, taken while the shop keeps taking orders, and blocking none of them.
 */
export async function* backupLines(source: Queryable, options: { keys?: BackupKeys; files?: AsyncIterable<BackupFile> } = {}): AsyncGenerator<string> {
  const rows: Record<string, number> = {};
  await source.query('begin isolation level repeatable read read only');
  try {
    const tables = await listTables(source);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      migrations: await appliedMigrations(source),
      tables,
      sequences: await sequenceValues(source),
      ...(options.keys ? { keys: options.keys } : {}),
    };
    yield JSON.stringify(header);
    for (const table of tables) {
      const prefix = `[${JSON.stringify(table.name)},`;
      let count = 0;
      await source.query(`declare backup_rows no scroll cursor for select to_jsonb(t)::text as row from ${quote(table.name)} t`);
      for (;;) {
        const batch = (await source.query(`fetch forward ${FETCH_ROWS} from backup_rows`)).rows as { row: string }[];
        for (const { row } of batch) yield `${prefix}${row}]`;
        count += batch.length;
        if (batch.length < FETCH_ROWS) break;
      }
      rows[table.name] = count;
      await source.query('close backup_rows');
    }
    await source.query('commit');
  } catch (error) {
    await source.query('rollback').catch(() => undefined);
    throw error;
  }
  let files = 0;
  for await (const file of options.files ?? []) {
    yield `["@file",${JSON.stringify({ path: file.path, data: Buffer.from(file.bytes).toString('base64') })}]`;
    files += 1;
  }
  yield `["@end",${JSON.stringify({ rows, files })}]`;
}

/** Writes the lines gzipped to `path`, readable by its owner only; a file is complete only once this resolves. */
export async function writeBackupFile(lines: AsyncIterable<string>, path: string): Promise<void> {
  async function* withNewlines() {
    for await (const line of lines) yield `${line}\n`;
  }
  try {
    await pipeline(Readable.from(withNewlines()), createGzip(), createWriteStream(path, { mode: 0o600, flags: 'wx' }));
  } catch (error) {
    // Half a backup must not be mistaken for one (restore would refuse it anyway: it has no end line).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(path, { force: true });
    throw error;
  }
}
