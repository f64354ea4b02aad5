import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { seedDemoData } from '../seed/demo-data.ts';
import { demoPassword } from '../seed/demo-passwords.ts';
import { inProcessHarness } from '../testing/api-harness.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { backupLines, type Queryable } from './backup.ts';
import { RestoreError, restoreLines } from './restore.ts';

let api: Awaited<ReturnType<typeof inProcessHarness>>;
/** The harness's own database, kept so a test can restore into it under the schema-change lock. */
let ownDatabase: Awaited<ReturnType<typeof openTestDatabase>>;
const targets: Awaited<ReturnType<typeof openTestDatabase>>[] = [];

beforeAll(async () => {
  ownDatabase = await openTestDatabase();
  api = await inProcessHarness({}, ownDatabase);
  await seedDemoData(api.deps, (email) => demoPassword('backup-test', email));
});
afterAll(async () => {
  for (const target of targets) await target.close();
  await api?.close();
});

/** A backup of the harness's database through one connection of it, as `npm run backup` takes it through pg. */
async function backupWith<T>(work: (lines: AsyncGenerator<string>) => Promise<T>): Promise<T> {
  return api.db.connection().execute(async (connection) => {
    const source: Queryable = { query: (text, params) => connection.executeQuery(CompiledQuery.raw(text, params ?? [])) };
    return work(backupLines(source));
  });
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

async function emptyTarget() {
  const target = await openTestDatabase({ migrate: false });
  targets.push(target);
  return target;
}

async function restoreInto(target: Awaited<ReturnType<typeof openTestDatabase>>, lines: string[]) {
  let result: Awaited<ReturnType<typeof restoreLines>> | undefined;
  await target.underLock(async () => {
    result = await restoreLines(lines, target.db, { schema: target.schema });
  });
  return result!;
}

/** Every row of every table of a schema (the migrator's own aside), as Postgres writes it, in a stable order. */
async function everyRow(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const tables = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = current_schema() and tablename not like 'kysely_migration%' order by 1`.execute(db);
  const rows: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    rows[name] = (await sql<{ row: string }>`select to_jsonb(t)::text as row from ${sql.table(name)} t order by 1`.execute(db)).rows.map((r) => r.row);
  }
  return rows;
}

describe('backup and restore', () => {
  it('restores every row of every table as of one snapshot, leaving out what was written during the backup', async () => {
    const customer = await api.createUser('user');
    const { lines, rowsAtSnapshot } = await backupWith(async (generator) => {
      const first = await generator.next();
      // The snapshot is taken: an order placed now, and committed, is not part of this backup.
      const rowsAtSnapshot = await everyRow(api.db);
      await api.insertOrders(customer, 1);
      return { lines: [first.value as string, ...(await collect(generator))], rowsAtSnapshot };
    });
    expect((await everyRow(api.db)).orders!.length).toBe(rowsAtSnapshot.orders!.length + 1);

    const target = await emptyTarget();
    const result = await restoreInto(target, lines);
    const restored = await everyRow(target.db);
    expect(Object.keys(restored)).toEqual(Object.keys(rowsAtSnapshot));
    expect(rowsAtSnapshot.orders!.length).toBeGreaterThan(10);
    expect(rowsAtSnapshot.wise_stocks!.length).toBeGreaterThan(0);
    for (const table of Object.keys(rowsAtSnapshot)) expect(restored[table], table).toEqual(rowsAtSnapshot[table]);
    expect(result.rows.orders).toBe(rowsAtSnapshot.orders!.length);
  });

  it('refuses a database that has rows, and changes nothing in it', async () => {
    const lines = await backupWith(collect);
    const before = await everyRow(api.db);
    // Under the lock, as every restore: the migrator lists every schema, and another file may be dropping one.
    await expect(restoreInto(ownDatabase, lines)).rejects.toThrow(RestoreError);
    await expect(restoreInto(ownDatabase, lines)).rejects.toThrow(/not empty/);
    expect(await everyRow(api.db)).toEqual(before);
  });

  it('refuses a backup cut short, and leaves the database without a row of it', async () => {
    const lines = await backupWith(collect);
    const target = await emptyTarget();
    await expect(restoreInto(target, lines.slice(0, -3))).rejects.toThrow(/ends early/);
    const after = await everyRow(target.db);
    for (const [table, rows] of Object.entries(after)) if (table !== 'sync_counter') expect(rows, table).toEqual([]);
    // The same target then takes the whole backup.
    await restoreInto(target, lines);
    expect((await everyRow(target.db)).orders!.length).toBeGreaterThan(10);
  });

  it('refuses what is not a backup', async () => {
    const target = await emptyTarget();
    await expect(restoreInto(target, ['{"hello":"world"}'])).rejects.toThrow('This is not a storefront backup');
  });
});
