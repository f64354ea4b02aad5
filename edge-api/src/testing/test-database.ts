import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

/** Any fixed number: the advisory lock that test files on one Postgres take in turn. */
const SCHEMA_CHANGE_LOCK = 7_214_093;

/** The URL of another database on the same server. */
const databaseUrlOf = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
};

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test` (its global setup starts an embedded Postgres).');
  return url;
}

/**
 * For the embedded server the run starts and deletes (global-setup.ts), never a Postgres of anyone else's:
 * no fsync, no waiting for the WAL at commit, no full pages in it. A crash of that server loses nothing a
 * test relies on (only a crash of the machine would), and copying the template for each test file, each
 * commit and each checkpoint stop waiting on the disk, which on a loaded machine is most of their time.
 * Settings a reload applies (postgresql.auto.conf of the run's own cluster).
 */
export async function forgoDurability(url: string): Promise<void> {
  const admin = openDatabase({ databaseUrl: url, maxConnections: 1 });
  try {
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) await sql`alter system set ${sql.raw(setting)} = off`.execute(admin);
    await sql`select pg_reload_conf()`.execute(admin);
  } finally {
    await admin.destroy();
  }
}

/**
 * Vitest's global setup makes one migrated database per run (decision 239) that every test file copies
 * (`create database … template`, a file copy, instead of running every migration again under a lock).
 * Returns its name, for TEST_TEMPLATE_DATABASE, and how to drop it.
 */
export async function createTemplateDatabase(url: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `storefront_test_template_${process.pid}`;
  const admin = openDatabase({ databaseUrl: url, maxConnections: 1 });
  const drop = async () => {
    await sql`alter database ${sql.id(name)} with is_template false`.execute(admin).catch(() => undefined);
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
  };
  await drop();
  await sql`create database ${sql.id(name)}`.execute(admin);
  const template = openDatabase({ databaseUrl: databaseUrlOf(url, name), maxConnections: 1 });
  try {
    await sql`create extension if not exists pg_trgm schema public`.execute(template);
    await migrateToLatest(template);
  } finally {
    await template.destroy();
  }
  // No connection may stay on a template while it is copied.
  await sql`alter database ${sql.id(name)} with is_template true allow_connections false`.execute(admin);
  return {
    name,
    drop: async () => {
      await drop();
      await admin.destroy();
    },
  };
}

export interface TestDatabase {
  db: Kysely<Database>;
  /** The schema the file's tables are in (`public` of its own database, when migrated). */
  schema: string;
  /** A URL of the file's own database, for a pool or a process of a test's own (with `schema` first in its search_path). */
  databaseUrl: string;
  /** Runs `work` (a migration, a restore) while no other test file changes schemas. */
  underLock: (work: () => Promise<void>) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A fresh, migrated database for one test file on the Postgres of TEST_DATABASE_URL, dropped afterwards.
 * Vitest's global setup (global-setup.ts) starts one embedded Postgres server for the whole run and sets
 * TEST_DATABASE_URL to it, unless it points at another Postgres already (CI).
 *
 * Migrated (the default): a database of its own, copied from the run's template (TEST_TEMPLATE_DATABASE).
 * Not migrated (a test of migrations or restores): a schema of its own on the server's database; creating
 * the extension, migrating and dropping a schema happen one file at a time under an advisory lock: Kysely's
 * migrator lists the tables of every schema, and a schema another file drops during that listing fails it.
 */
export async function openTestDatabase({ migrate = true }: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const url = serverUrl();
  const id = `test_${crypto.randomUUID().replaceAll('-', '')}`;
  // One connection, so the session-level lock is taken and released on the same one.
  const admin = openDatabase({ databaseUrl: url, maxConnections: 1 });
  const underLock = async (work: () => Promise<void>) => {
    await sql`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK})`.execute(admin);
    try {
      await work();
    } finally {
      await sql`select pg_advisory_unlock(${SCHEMA_CHANGE_LOCK})`.execute(admin);
    }
  };
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (migrate && template) {
    await sql`create database ${sql.id(id)} template ${sql.id(template)}`.execute(admin);
    const databaseUrl = databaseUrlOf(url, id);
    const db = openDatabase({ databaseUrl, searchPath: 'public', maxConnections: 10 });
    return {
      db,
      schema: 'public',
      databaseUrl,
      underLock,
      close: async () => {
        await db.destroy();
        await sql`drop database if exists ${sql.id(id)} with (force)`.execute(admin);
        await admin.destroy();
      },
    };
  }
  const db = openDatabase({ databaseUrl: url, searchPath: `${id},public`, maxConnections: 10 });
  await underLock(async () => {
    await sql`create extension if not exists pg_trgm schema public`.execute(admin);
    await sql`create schema ${sql.id(id)}`.execute(admin);
    if (migrate) await migrateToLatest(db, { schema: id });
  });
  return {
    db,
    schema: id,
    databaseUrl: url,
    underLock,
    close: async () => {
      await db.destroy();
      await underLock(async () => {
        await sql`drop schema ${sql.id(id)} cascade`.execute(admin);
      });
      await admin.destroy();
    },
  };
}
