import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { useEmbeddedPostgres } from '../edge-api/src/db/embedded-postgres.ts';
import { migrateToLatest } from '../edge-api/src/db/migrate.ts';
import { parseEnv } from '../edge-api/src/env.ts';
import { makeOwnerAdmin, recordOwnerAdmin, type OwnerAdminResult } from '../edge-api/src/auth/embedded/owner-admin.ts';
import { supabaseOwnerAccount } from '../edge-api/src/auth/supabase-admin.ts';

// `npm run admin -- --email EMAIL --password PASSWORD [--name NAME]`: the owner makes (or takes back) an
// admin from the shell, on the configured database (DATABASE_URL, or the embedded one in DATA_DIR, whether
// the app runs or not). With SUPABASE_URL the account is created or taken back in Supabase Auth through
// its admin API (service-role key). README "Admins".
const { values: args } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
if (!args.email || !args.password) {
  console.error('Usage: npm run admin -- --email EMAIL --password PASSWORD [--name NAME]');
  process.exit(2);
}

const env = parseEnv(process.env);
const dataDir = resolve(env.DATA_DIR);
await mkdir(dataDir, { recursive: true, mode: 0o700 });
const server = env.DATABASE_URL
  ? { databaseUrl: env.DATABASE_URL, release: async () => {} }
  : await useEmbeddedPostgres(dataDir).catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    });
const db = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 2 });
let code = 0;
try {
  await migrateToLatest(db);
  let result: OwnerAdminResult;
  if (env.SUPABASE_URL && env.SUPABASE_ANON_KEY && env.SUPABASE_SERVICE_ROLE_KEY) {
    // The account lives in Supabase Auth: created or taken back there first, then our record.
    const authUrl = `${env.SUPABASE_URL.replace(/\/$/, '')}/auth/v1`;
    const email = args.email.trim().toLowerCase();
    const { userId, created } = await supabaseOwnerAccount(
      authUrl,
      { anonKey: env.SUPABASE_ANON_KEY, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY },
      { email, password: args.password, name: args.name },
    );
    const account = created ? 'created' : 'repaired';
    const record = await db.transaction().execute((trx) => recordOwnerAdmin(trx, { userId, email, name: args.name, account }));
    result = { userId, email, account, record };
  } else {
    result = await makeOwnerAdmin(db, { email: args.email, password: args.password, name: args.name });
  }
  const where = env.SUPABASE_URL ? ' in Supabase Auth' : '';
  const account = result.account === 'created' ? `account created${where}` : `existing account${where}: password set, address confirmed, every session ended`;
  console.log(`${result.email} is an admin (${account}; user record ${result.record}). Sign in with it at the shop.`);
} catch (error) {
  console.error(`Could not make ${args.email} an admin: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
} finally {
  await db.destroy();
  await server.release();
}
process.exit(code);
