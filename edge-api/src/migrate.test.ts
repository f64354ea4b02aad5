import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from './blobs/blob-store.ts';
import { createDiskBlobStore } from './blobs/disk-store.ts';
import { storageStandIn } from './blobs/storage-stand-in.ts';
import { openDatabase } from './db/connect.ts';
import { useEmbeddedPostgres } from './db/embedded-postgres.ts';
import { migrateTo } from './db/migrate.ts';
import { migrationNames } from './db/migration-names.ts';
import type { Database } from './db/schema.ts';
import { parseEnv } from './env.ts';
import { legacyImageDataUrls } from './image-store.ts';
import { silentLogger } from './lib/logger.ts';
import { generateKey } from './lib/secrets.ts';
import { EXIT_INLINE_IMAGES_LEFT, runMigrate } from './migrate-command.ts';
import { countInlineImageRows } from './operations/move-inline-images.ts';
import { demoAuthPng, legacyDemoImages } from './seed/demo-images.ts';
import { createDedicatedDatabase, type DedicatedDatabase } from './testing/workerd.ts';
import { teeToTestLog } from './testing/test-logs.ts';

// `npm run migrate` on a database of an earlier version whose rows still hold inline data: images: the
// real entry (migrate.ts) in its own process against a database of its own, with a Supabase-like Storage
// served over HTTP by the storage stand-in, as a Workers deployment upgrades; and once on the embedded
// database, whose images are files under DATA_DIR.

const ROOT = new URL('../..', import.meta.url).pathname;
/** The last migration before the partial indexes on inline images: the schema of a shop from before decision 051. */
const BEFORE_INLINE_INDEXES = '2026-11-23-2310_idempotency_request_hash';
const SERVICE_ROLE_KEY = 'sb_secret_migrate_test_service_role_key';

const png = demoAuthPng();
const gif = Uint8Array.from(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
const dataUrl = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
const pngInline = dataUrl('image/png', png);
const gifInline = dataUrl('image/gif', gif);
/** A picture of the earlier demo data, inline: it becomes the address of the same picture, a file of the site. */
const [demoInline, demoPath] = [...legacyDemoImages()][0]!;
/** A picture typed in by hand as an inline SVG, which the image store does not keep. */
const svgInline = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>')}`;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 60_000);

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-migrate-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function dedicatedDatabase(): Promise<DedicatedDatabase> {
  const database = await createDedicatedDatabase(process.env.TEST_DATABASE_URL!, 'sf_migrate');
  cleanups.push(() => database.drop());
  return database;
}

interface OldRows {
  service: string;
  demoService: string;
  orders: string[];
  stock: string;
}

/**
 * A shop of an earlier version: its schema before the inline-image indexes, a service with an inline
 * picture and two orders copying it, a service with a picture of the earlier demo data, a stock with two
 * inline images.
 */
async function oldShop(databaseUrl: string): Promise<OldRows> {
  const db = openDatabase({ databaseUrl, maxConnections: 1 });
  try {
    await migrateTo(db, BEFORE_INLINE_INDEXES);
    const ids = {
      service: crypto.randomUUID(),
      demoService: crypto.randomUUID(),
      orders: [crypto.randomUUID(), crypto.randomUUID()],
      stock: crypto.randomUUID(),
    };
    const user = crypto.randomUUID();
    await sql`update sync_counter set version = 5`.execute(db);
    await sql`insert into services (id, title, description, category, price, delivery_time, image, version)
      values (${ids.service}, 'Photo', 'x', 'vps', '5', '1h', ${pngInline}, 5)`.execute(db);
    await sql`insert into services (id, title, description, category, price, delivery_time, image, version)
      values (${ids.demoService}, 'Demo', 'x', 'vps', '5', '1h', ${demoInline}, 5)`.execute(db);
    for (const id of ids.orders) {
      await sql`insert into orders (id, product_id, title, image, price, user_id, user_email, version)
        values (${id}, ${ids.service}, 'Photo', ${pngInline}, '5', ${user}, 'old@example.test', 5)`.execute(db);
    }
    await sql`insert into wise_stocks (id, wise_name, wise_email, wise_password_enc, wise_password_index, auth_image, doc_img1, user_name, version)
      values (${ids.stock}, 'A', 'a@wise.test', 'x', 'x', ${gifInline}, ${pngInline}, 'A', 5)`.execute(db);
    return ids;
  } finally {
    await db.destroy();
  }
}

async function readRows<T>(databaseUrl: string, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const db = openDatabase({ databaseUrl, maxConnections: 1 });
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

const everyImageRow = (ids: OldRows) => (db: Kysely<Database>) =>
  Promise.all([
    db.selectFrom('services').select(['id', 'image', 'version']).where('id', '=', ids.service).executeTakeFirstOrThrow(),
    db.selectFrom('services').select(['id', 'image', 'version']).where('id', '=', ids.demoService).executeTakeFirstOrThrow(),
    db.selectFrom('orders').select(['id', 'image', 'version']).where('id', 'in', ids.orders).orderBy('id').execute(),
    db.selectFrom('wise_stocks').select(['id', 'auth_image', 'doc_img1', 'doc_img2', 'version']).where('id', '=', ids.stock).executeTakeFirstOrThrow(),
    sql<{ name: string }>`select name from kysely_migration order by name`.execute(db).then((r) => r.rows.map((row) => row.name)),
    countInlineImageRows(db, { known: legacyImageDataUrls() }),
  ]).then(([service, demoService, orders, stock, migrations, inline]) => ({ service, demoService, orders, stock, migrations, inline }));

/** The real `npm run migrate` entry in its own process (asynchronous: the storage it may call answers from this one). */
function runEntry(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'edge-api/src/migrate.ts')], {
    cwd: ROOT,
    // Empty values count as unset (env.ts): nothing of this machine's environment decides the store.
    env: {
      ...process.env,
      DATABASE_URL: '',
      SUPABASE_URL: '',
      SUPABASE_ANON_KEY: '',
      SUPABASE_SERVICE_ROLE_KEY: '',
      CREDENTIALS_KEY: '',
      BLIND_INDEX_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  teeToTestLog(child, 'migrate-entry');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`npm run migrate did not finish within 60 s:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('npm run migrate on a Workers deployment (DATABASE_URL and Supabase)', () => {
  let storage: ServerType;
  let storageUrl: string;
  let stored: BlobStore;
  /** The Storage calls each run made. */
  const calls: string[] = [];
  /** Run once, at the next Storage call: what happens elsewhere while the move stores its files. */
  let atNextStorageCall: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // Supabase Storage's HTTP API, as the storage stand-in answers it (the Node entry's SUPABASE_STAND_IN), over files of its own.
    stored = await createDiskBlobStore(await scratchDir(), crypto.getRandomValues(new Uint8Array(32)));
    const app = new Hono();
    app.use('*', async (c, next) => {
      calls.push(`${c.req.method} ${c.req.path}`);
      const meanwhile = atNextStorageCall;
      atNextStorageCall = undefined;
      await meanwhile?.();
      await next();
    });
    app.route('/storage/v1', storageStandIn(stored, SERVICE_ROLE_KEY));
    storage = await new Promise<ServerType>((done) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => done(server));
    });
    storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
    cleanups.push(() => new Promise((done) => storage.close(() => done())));
  });

  const supabaseEnv = () => ({
    SUPABASE_URL: storageUrl,
    SUPABASE_ANON_KEY: 'sb_publishable_migrate_test',
    SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
    CREDENTIALS_KEY: generateKey(),
    BLIND_INDEX_KEY: generateKey(),
  });

  it('applies the migrations, stores each inline image in Storage and rewrites the rows to refer to it; a second run changes nothing', async () => {
    const database = await dedicatedDatabase();
    const ids = await oldShop(database.url);
    const dataDir = await scratchDir();

    const first = await runEntry({ DATABASE_URL: database.url, DATA_DIR: dataDir, ...supabaseEnv() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Database is at the latest migration.');
    expect(first.stdout).toContain(
      "Moved 3 inline images into Supabase Storage (and pointed 1 of the earlier demo data's pictures at their files) and rewrote 5 rows",
    );

    const after = await readRows(database.url, everyImageRow(ids));
    expect(after.migrations).toEqual(migrationNames());
    expect(after.inline).toEqual({ services: 0, orders: 0, wiseStocks: 0 });
    // The service and its orders: the picture's public Storage URL, as an uploaded picture's; a new version each, so devices fetch it.
    const publicPrefix = `${storageUrl}/storage/v1/object/public/service-images/`;
    expect(after.service.image).toMatch(new RegExp(`^${publicPrefix.replace(/[.]/g, '\\.')}inline-[0-9a-f]{32}\\.png$`));
    expect(after.orders.map((o) => o.image)).toEqual([after.service.image, after.service.image]);
    expect(after.demoService.image).toBe(demoPath);
    for (const row of [after.service, after.demoService, ...after.orders, after.stock]) expect(Number(row.version)).toBeGreaterThan(5);
    // The stock: references into the private bucket.
    expect(after.stock.doc_img1).toMatch(/^stock-images\/inline-[0-9a-f]{32}\.png$/);
    expect(after.stock.auth_image).toMatch(/^stock-images\/inline-[0-9a-f]{32}\.gif$/);
    expect(after.stock.doc_img2).toBe('');

    // Storage holds the bytes, where the rows point.
    const served = await fetch(after.service.image);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    expect(await stored.read('service-images', after.service.image.slice(publicPrefix.length))).toEqual(png);
    expect(await stored.read('stock-images', after.stock.doc_img1.slice('stock-images/'.length))).toEqual(png);
    expect(await stored.read('stock-images', after.stock.auth_image.slice('stock-images/'.length))).toEqual(gif);
    // Nothing went to this machine's disk (no keys.json, no files/).
    expect(await readdir(dataDir)).toEqual([]);

    // Again (the next update): the indexes find nothing, Storage is not called, no row changes.
    calls.length = 0;
    const second = await runEntry({ DATABASE_URL: database.url, DATA_DIR: dataDir, ...supabaseEnv() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toContain('Moved');
    expect(calls).toEqual([]);
    expect(await readRows(database.url, everyImageRow(ids))).toEqual(after);
  });

  it('without an image store, applies the migrations, leaves the rows and exits 3 naming the settings to give; with a store that fails, exits 1', async () => {
    const database = await dedicatedDatabase();
    const ids = await oldShop(database.url);
    const before = await readRows(database.url, everyImageRow(ids));
    calls.length = 0;

    const run = await runEntry({ DATABASE_URL: database.url, DATA_DIR: await scratchDir() });
    expect(run.code).toBe(EXIT_INLINE_IMAGES_LEFT);
    expect(run.stdout).toContain('Database is at the latest migration.');
    expect(run.stderr).toContain('5 rows still hold inline data: images (services 2, orders 2, stocks 1)');
    for (const name of ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'CREDENTIALS_KEY', 'BLIND_INDEX_KEY'])
      expect(run.stderr).toContain(name);
    expect(run.stderr).toContain('npm start');

    const after = await readRows(database.url, everyImageRow(ids));
    expect(after.migrations).toEqual(migrationNames());
    expect(before.migrations).not.toEqual(migrationNames());
    expect({ ...after, migrations: [] }).toEqual({ ...before, migrations: [], inline: { services: 2, orders: 2, wiseStocks: 1 } });
    expect(after.service.image).toBe(pngInline);
    expect(calls).toEqual([]);

    // A Storage that refuses the key: status 1 after the migrations, saying so, no row rewritten, no key in the output.
    const refused = await runEntry({ DATABASE_URL: database.url, ...supabaseEnv(), SUPABASE_SERVICE_ROLE_KEY: 'sb_secret_not_this_projects_key' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The migrations are applied, but moving the inline images into Supabase Storage failed');
    expect(refused.stderr).toContain('No row was rewritten');
    expect(`${refused.stdout}${refused.stderr}`).not.toContain('sb_secret_not_this_projects_key');
    expect({ ...(await readRows(database.url, everyImageRow(ids))), migrations: [] }).toEqual({ ...after, migrations: [] });

    // Given the Supabase settings, the next run moves them and exits 0.
    const again = await runEntry({ DATABASE_URL: database.url, ...supabaseEnv() });
    expect(again.code, again.stderr).toBe(0);
    expect((await readRows(database.url, everyImageRow(ids))).inline).toEqual({ services: 0, orders: 0, wiseStocks: 0 });
  });
  it('a row given an inline image while the files are stored keeps it, and the run exits 3 saying so; the next run moves it', async () => {
    const database = await dedicatedDatabase();
    const ids = await oldShop(database.url);
    // An admin on the earlier deployment, still serving, replaces the service's picture with another inline one.
    atNextStorageCall = () =>
      readRows(database.url, (db) => db.updateTable('services').set({ image: gifInline }).where('id', '=', ids.service).execute()).then(() => undefined);

    const run = await runEntry({ DATABASE_URL: database.url, ...supabaseEnv() });
    expect(run.code, run.stderr).toBe(EXIT_INLINE_IMAGES_LEFT);
    expect(run.stderr).toContain('but 1 rows were given an inline data: image while this ran (services 1, orders 0, stocks 0)');
    expect(run.stderr).toContain('Run `npm run migrate` again');
    const after = await readRows(database.url, everyImageRow(ids));
    // The admin's picture, not the one read before it: left for the next run. Its orders copied the earlier one and refer to it now.
    expect(after.service.image).toBe(gifInline);
    expect(after.orders.every((o) => o.image.startsWith(`${storageUrl}/storage/v1/object/public/service-images/inline-`))).toBe(true);
    expect(after.inline).toEqual({ services: 1, orders: 0, wiseStocks: 0 });

    const again = await runEntry({ DATABASE_URL: database.url, ...supabaseEnv() });
    expect(again.code, again.stderr).toBe(0);
    const moved = await readRows(database.url, everyImageRow(ids));
    expect(moved.service.image).toMatch(/\/service-images\/inline-[0-9a-f]{32}\.gif$/);
    expect(moved.inline).toEqual({ services: 0, orders: 0, wiseStocks: 0 });
  });

  it('a shop whose only inline images are SVGs typed in by hand: exits 0 with or without a store, warning on one line which rows keep them', async () => {
    const database = await dedicatedDatabase();
    const db = openDatabase({ databaseUrl: database.url, maxConnections: 1 });
    const service = crypto.randomUUID();
    try {
      await migrateTo(db, BEFORE_INLINE_INDEXES);
      await sql`insert into services (id, title, description, category, price, delivery_time, image, version)
        values (${service}, 'Drawn', 'x', 'vps', '5', '1h', ${svgInline}, 5)`.execute(db);
      await sql`insert into orders (id, product_id, title, image, price, user_id, user_email, version)
        values (${crypto.randomUUID()}, ${service}, 'Drawn', ${svgInline}, '5', ${crypto.randomUUID()}, 'old@example.test', 5)`.execute(db);
    } finally {
      await db.destroy();
    }
    calls.length = 0;

    for (const env of [{ DATABASE_URL: database.url }, { DATABASE_URL: database.url, ...supabaseEnv() }]) {
      const run = await runEntry(env);
      expect(run.code, run.stderr).toBe(0);
      const warnings = run.stderr.split('\n').filter((line) => line.startsWith('Warning: inline images the image store does not keep'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`services "Drawn" (${service})`);
      expect(warnings[0]).toContain('1 orders');
      expect(run.stderr).not.toContain('still hold inline data: images');
    }
    // Nothing to move: no store was called, the rows are as they were.
    expect(calls).toEqual([]);
    const image = await readRows(database.url, (db) => db.selectFrom('services').select('image').where('id', '=', service).executeTakeFirstOrThrow());
    expect(image.image).toBe(svgInline);
  });
});

describe('npm run migrate on the embedded database', () => {
  it('moves the inline images into the files under DATA_DIR, as the Node entry would at its start', { timeout: 120_000 }, async () => {
    const dataDir = await scratchDir();
    const setup = await useEmbeddedPostgres(dataDir);
    let ids: OldRows;
    try {
      ids = await oldShop(setup.databaseUrl);
    } finally {
      await setup.release();
    }

    const lines: string[] = [];
    const output = {
      info: (line: string) => lines.push(line),
      error: (line: string) => lines.push(`error: ${line}`),
      warn: (line: string) => lines.push(`warn: ${line}`),
      logger: silentLogger,
    };
    expect(await runMigrate(parseEnv({ DATA_DIR: dataDir }), output)).toBe(0);
    expect(lines.join('\n')).toContain(`Moved 3 inline images into ${dataDir}/files (and pointed 1`);

    const check = await useEmbeddedPostgres(dataDir);
    try {
      const after = await readRows(check.databaseUrl, everyImageRow(ids));
      expect(after.inline).toEqual({ services: 0, orders: 0, wiseStocks: 0 });
      // The disk store's public address, served by the Node entry at /files.
      expect(after.service.image).toMatch(/^\/files\/service-images\/inline-[0-9a-f]{32}\.png$/);
      expect(after.orders.map((o) => o.image)).toEqual([after.service.image, after.service.image]);
      expect(after.demoService.image).toBe(demoPath);
      expect(new Uint8Array(await readFile(join(dataDir, after.service.image.slice(1))))).toEqual(png);
      expect(new Uint8Array(await readFile(join(dataDir, 'files', after.stock.doc_img1)))).toEqual(png);
      expect(new Uint8Array(await readFile(join(dataDir, 'files', after.stock.auth_image)))).toEqual(gif);
    } finally {
      await check.release();
    }
  });
});
