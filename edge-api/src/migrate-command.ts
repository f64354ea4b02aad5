import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { BlobStore } from './blobs/blob-store.ts';
import { openDatabase } from './db/connect.ts';
import { useEmbeddedPostgres } from './db/embedded-postgres.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import type { Env } from './env.ts';
import { dataDirImageStore, legacyImageDataUrls, legacyImages, supabaseImageStore } from './image-store.ts';
import { consoleLogger, type Logger } from './lib/logger.ts';
import { decodeKey } from './lib/secrets.ts';
import { loadOrCreateLocalKeys } from './local-keys.ts';
import { countInlineImageRows, inlineImagesKept, moveInlineImages, type InlineImageRule, type MovedImages } from './operations/move-inline-images.ts';

/**
 * The exit status of a run that applied the migrations but left inline images the move would take in
 * the rows: no image store was configured to move them into, or rows were given one while it ran. Not
 * 0, so a deploy script stops and its operator reads why; not 1, so a script can tell it from a failed
 * migration. Inline images the move never takes (an SVG typed in by hand) only get a warning.
 */
export const EXIT_INLINE_IMAGES_LEFT = 3;

export interface MigrateOutput {
  /** What was done, on stdout. */
  info(line: string): void;
  /** What the operator must do, on stderr. */
  error(line: string): void;
  /** What the operator should know but need not act on now, on stderr. */
  warn(line: string): void;
  /** The move's own log lines (counts only). */
  logger: Logger;
}

const consoleOutput = (): MigrateOutput => ({
  info: (line) => console.log(line),
  error: (line) => console.error(line),
  warn: (line) => console.warn(line),
  logger: consoleLogger(),
});

/**
 * `npm run migrate`: brings DATABASE_URL (or the embedded database under DATA_DIR, running or not) to the
 * latest schema, then moves the inline `data:` images rows of earlier versions still hold into the image
 * store, as the Node entry does at every start (decisions 051 and 127): a Workers deployment
 * never runs the Node entry, so this is where its rows are rewritten. Returns the exit status.
 */
export async function runMigrate(env: Env, output: MigrateOutput = consoleOutput()): Promise<number> {
  const server = env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, release: async () => {} } : await useEmbeddedPostgres(env.DATA_DIR);
  const db = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 1 });
  try {
    await migrateToLatest(db);
    output.info('Database is at the latest migration.');
    return await moveLeftoverInlineImages(env, db, output);
  } finally {
    await db.destroy();
    await server.release();
  }
}

async function moveLeftoverInlineImages(env: Env, db: Kysely<Database>, output: MigrateOutput): Promise<number> {
  const known = legacyImageDataUrls();
  const waiting = await countInlineImageRows(db, { known });
  let status = 0;
  let left: string[] = [];
  // The common case once moved: a few index look-ups, and no store opened.
  if (total(waiting) > 0) {
    const store = await imageStoreOf(env);
    if (store) {
      const moved = await moveInto(store, db, output);
      left = moved.leftValues;
      // Rewritten only where they still held what was read: a row given an inline image meanwhile (by a
      // deployment of the earlier version, still serving) keeps it until the next run.
      const since = await countInlineImageRows(db, { known, left });
      if (total(since) > 0) {
        output.error(
          [
            `The inline images read were moved, but ${total(since)} rows were given an inline data: image while this ran (${perTable(since)}),`,
            'most likely by a deployment of the earlier version still serving; they were left as they are. Run `npm run migrate` again to move them.',
          ].join('\n'),
        );
        status = EXIT_INLINE_IMAGES_LEFT;
      }
    } else {
      output.error(
        [
          `The migrations are applied, but ${total(waiting)} rows still hold inline data: images (${perTable(waiting)}),`,
          'and no image store is configured to move them into (decision 051: images by reference only).',
          "For a Workers deployment, run `npm run migrate` again with the worker's Supabase settings in the environment or in .env:",
          '  SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, CREDENTIALS_KEY and BLIND_INDEX_KEY (with DATABASE_URL).',
          'For a shop the Node entry serves, its images under DATA_DIR/files, start it (`npm start`): it runs the migrations and moves them at its start,',
          'so it needs no `npm run migrate` before (`npm run migrate && npm start` stops here).',
        ].join('\n'),
      );
      status = EXIT_INLINE_IMAGES_LEFT;
    }
  }
  await warnOfKept(db, { known, left }, output);
  return status;
}

async function moveInto(store: { blobs: BlobStore; where: string }, db: Kysely<Database>, output: MigrateOutput): Promise<MovedImages> {
  let moved;
  try {
    moved = await moveInlineImages({ db, blobs: store.blobs, logger: output.logger }, legacyImages(store.blobs));
  } catch (error) {
    // The rows are rewritten in one transaction after every file is stored: a failure leaves them all as they were.
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The migrations are applied, but moving the inline images into ${store.where} failed: ${why}\nNo row was rewritten; run \`npm run migrate\` again once that is fixed.`,
      { cause: error },
    );
  }
  const rewritten = moved.rows.services + moved.rows.orders + moved.rows.wiseStocks;
  const demo = moved.known ? ` (and pointed ${moved.known} of the earlier demo data's pictures at their files)` : '';
  output.info(`Moved ${moved.moved} inline images into ${store.where}${demo} and rewrote ${rewritten} rows to refer to them.`);
  return moved;
}

/**
 * One line naming the rows whose inline image the move leaves (an SVG typed in by hand: the store keeps
 * none), so they are known; not a failure, as nothing but an admin's new picture would change them.
 */
async function warnOfKept(db: Kysely<Database>, rule: InlineImageRule, output: MigrateOutput): Promise<void> {
  const kept = await inlineImagesKept(db, rule);
  if (kept.services.length + kept.orders + kept.wiseStocks.length === 0) return;
  const named = (what: string, rows: { id: string; name: string }[]) => {
    const shown = rows.slice(0, 5).map((row) => `"${row.name}" (${row.id})`);
    return `${what} ${shown.join(', ')}${rows.length > shown.length ? ` and ${rows.length - shown.length} more` : ''}`;
  };
  const parts = [
    kept.services.length
      ? named(
          'services',
          kept.services.map((s) => ({ id: s.id, name: s.title })),
        )
      : '',
    kept.wiseStocks.length
      ? named(
          'stocks',
          kept.wiseStocks.map((s) => ({ id: s.id, name: s.wiseName })),
        )
      : '',
    kept.orders ? `${kept.orders} orders (each a copy of its service's or stock's picture)` : '',
  ].filter(Boolean);
  output.warn(
    `Warning: inline images the image store does not keep (an SVG, or not an image) stay in ${parts.join('; ')}; an admin replaces such a picture (an upload or an https URL) to drop it. Not an error: the exit status does not count them.`,
  );
}

const total = (rows: MovedImages['rows']) => rows.services + rows.orders + rows.wiseStocks;
const perTable = (rows: MovedImages['rows']) => `services ${rows.services}, orders ${rows.orders}, stocks ${rows.wiseStocks}`;

/**
 * The store the shop reads its images from, by the Node entry's rule: Supabase Storage with SUPABASE_URL
 * and SUPABASE_SERVICE_ROLE_KEY; the files under DATA_DIR with the embedded database. A DATABASE_URL
 * without Supabase may belong to a Workers deployment whose settings were not given here, so nothing is
 * written to this machine's disk for it: null.
 */
async function imageStoreOf(env: Env): Promise<{ blobs: BlobStore; where: string } | null> {
  // With SUPABASE_URL the environment's rules (env.ts) require the service-role key and CREDENTIALS_KEY.
  if (env.SUPABASE_URL && env.SUPABASE_SERVICE_ROLE_KEY && env.CREDENTIALS_KEY) {
    const credentialsKey = decodeKey(env.CREDENTIALS_KEY, 'CREDENTIALS_KEY');
    const blobs = await supabaseImageStore({ url: env.SUPABASE_URL, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY }, credentialsKey);
    return { blobs, where: 'Supabase Storage' };
  }
  if (env.DATABASE_URL) return null;
  const dataDir = resolve(env.DATA_DIR);
  return { blobs: await dataDirImageStore(dataDir, await loadOrCreateLocalKeys(dataDir)), where: `${dataDir}/files` };
}
