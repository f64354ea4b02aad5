import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupKeysOf, checkBackupFile, keysFileFor, makeBackup, writeKeysFile, type MadeBackup } from '../edge-api/src/backup/make-backup.ts';
import { useEmbeddedPostgres } from '../edge-api/src/db/embedded-postgres.ts';
import { parseEnv } from '../edge-api/src/env.ts';

// `npm run backup [-- --out FILE] [--keys separate|include|none] [--keys-out FILE] [--no-files]`: one
// consistent file of every table (one snapshot, taken while the shop stays open) and of the uploaded
// images; the keys a restore needs go apart from it, into DATA_DIR/backup-keys/ (decision 165). README "Back up".
const { values: args } = parseArgs({
  options: {
    out: { type: 'string' },
    keys: { type: 'string', default: 'separate' },
    'keys-out': { type: 'string' },
    'no-files': { type: 'boolean', default: false },
  },
});
if (!['separate', 'include', 'none'].includes(args.keys!)) {
  console.error('--keys is one of: separate (the default: a keys file in DATA_DIR/backup-keys, or --keys-out), include (inside the backup), none');
  process.exit(2);
}

const env = parseEnv(process.env);
const dataDir = resolve(env.DATA_DIR);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = resolve(args.out ?? join('backups', `storefront-${stamp}.backup.gz`));
await mkdir(dirname(out), { recursive: true, mode: 0o700 });

const keys = args.keys === 'none' ? undefined : await backupKeysOf(dataDir, env);
const server = env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, release: async () => {} } : await useEmbeddedPostgres(dataDir);
let made: MadeBackup;
try {
  const withImages = !env.SUPABASE_URL && !args['no-files'];
  made = await makeBackup({
    databaseUrl: server.databaseUrl,
    path: out,
    keys: args.keys === 'include' ? keys : undefined,
    filesRoot: withImages ? join(dataDir, 'files') : undefined,
  });
} finally {
  await server.release();
}
const { rows, files, bytes: size } = made;

const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
console.log(`Backup written: ${out} (${total} rows in ${Object.keys(rows).length} tables, ${files} files, ${(size / 1024 / 1024).toFixed(1)} MB)`);
// Read back to its end before anyone relies on it (a full disk or a cut stream shows here, not at a restore).
const checked = await checkBackupFile(out, made);
console.log(`Checked: ${checked.lines} lines read back, every table's count as written.`);
if (args.keys === 'separate' && keys) {
  const keysFile = resolve(args['keys-out'] ?? keysFileFor(dataDir, basename(out)));
  await writeKeysFile(keys, keysFile);
  console.log(`Keys written: ${keysFile}. Keep it apart from the backup (restore with --keys ${keysFile}): together they read every delivered password.`);
} else if (args.keys === 'include' && keys) {
  console.log('The keys are inside the backup: whoever has the file can read every delivered password. Keep it safe.');
} else {
  console.log('No keys with this backup: restoring it needs CREDENTIALS_KEY and BLIND_INDEX_KEY (or a keys file) to read the delivered passwords.');
}
if (env.SUPABASE_URL) console.log('Images live in Supabase Storage and are not in this file: back them up there.');
