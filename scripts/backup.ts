import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { backupLines, filesUnder, writeBackupFile, type BackupKeys } from '../edge-api/src/backup/backup.ts';
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

async function currentKeys(): Promise<BackupKeys | undefined> {
  const file = join(dataDir, 'keys.json');
  const local = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> & { credentialsKey?: string; blindIndexKey?: string }) : undefined;
  const credentialsKey = env.CREDENTIALS_KEY ?? local?.credentialsKey;
  const blindIndexKey = env.BLIND_INDEX_KEY ?? local?.blindIndexKey;
  if (!credentialsKey || !blindIndexKey) return undefined;
  return { credentialsKey, blindIndexKey, ...(local?.vapid ? { vapid: local.vapid as Record<string, unknown> } : {}) };
}

const keys = args.keys === 'none' ? undefined : await currentKeys();
const server = env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, release: async () => {} } : await useEmbeddedPostgres(dataDir);
const client = new pg.Client({ connectionString: server.databaseUrl });
let rows: Record<string, number> = {};
let files = 0;
try {
  await client.connect();
  const withImages = !env.SUPABASE_URL && !args['no-files'];
  async function* counted() {
    for await (const line of backupLines(client, { keys: args.keys === 'include' ? keys : undefined, files: withImages ? filesUnder(join(dataDir, 'files')) : undefined })) {
      if (line.startsWith('["@end",')) ({ rows, files } = (JSON.parse(line) as [string, { rows: Record<string, number>; files: number }])[1]);
      yield line;
    }
  }
  await writeBackupFile(counted(), out);
} finally {
  await client.end().catch(() => undefined);
  await server.release();
}

const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
const size = (await stat(out)).size;
console.log(`Backup written: ${out} (${total} rows in ${Object.keys(rows).length} tables, ${files} files, ${(size / 1024 / 1024).toFixed(1)} MB)`);
if (args.keys === 'separate' && keys) {
  const keysFile = resolve(args['keys-out'] ?? join(dataDir, 'backup-keys', `${basename(out)}.keys.json`));
  await mkdir(dirname(keysFile), { recursive: true, mode: 0o700 });
  await writeFile(keysFile, JSON.stringify(keys, null, 2), { mode: 0o600, flag: 'wx' });
  await chmod(keysFile, 0o600);
  console.log(`Keys written: ${keysFile}. Keep it apart from the backup (restore with --keys ${keysFile}): together they read every delivered password.`);
} else if (args.keys === 'include' && keys) {
  console.log('The keys are inside the backup: whoever has the file can read every delivered password. Keep it safe.');
} else {
  console.log('No keys with this backup: restoring it needs CREDENTIALS_KEY and BLIND_INDEX_KEY (or a keys file) to read the delivered passwords.');
}
if (env.SUPABASE_URL) console.log('Images live in Supabase Storage and are not in this file: back them up there.');
