import { spawn } from 'node:child_process';
import { demoLoginsIn } from '../edge-api/src/testing/demo-logins.ts';
import { generateVapidKeys } from '../edge-api/src/push/vapid.ts';
import { createDedicatedDatabase, newDataKeys, startStandIn, startWorker } from '../edge-api/src/testing/workerd.ts';
import { startPaymentStandIns } from '../edge-api/src/testing/payment-stand-ins.ts';

// `npm run test:workers`: the Workers deployment, whole, on this machine. The worker under workerd
// (`wrangler dev --local`, offline) on a database of its own on the real Postgres of TEST_DATABASE_URL,
// the Node entry's embedded auth standing in for Supabase Auth and Storage; then the API contract suite
// the Node entry passes (the same files, over HTTP: vitest.workers.config.ts), the checks only a running
// worker can answer (*.workerd.test.ts) and the browser journey of a customer ordering and an admin
// delivering (e2e/journey.test.ts), and the smoke check an owner runs after deploying (scripts/smoke.ts).
// Fails when any of them fails. Arguments go to vitest as filters: `npm run test:workers -- worker-mail`
// runs that contract file alone (and still the smoke check and the journey).

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const started = performance.now();
const step = (what: string) => console.log(`\n--- ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

function run(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

step('build');
if ((await run(process.execPath, ['scripts/ensure-build.ts'], {})) !== 0) process.exit(1);

step('database, auth and storage stand-in, worker');
const database = await createDedicatedDatabase(serverUrl);
const keys = newDataKeys();
// Web push (decision 067): the worker sends to a push-service stand-in the push tests run on this machine.
const vapid = await generateVapidKeys();
const adminEmail = `workers-admin-${crypto.randomUUID().slice(0, 8)}@example.test`;
let failed = false;
let standIn: Awaited<ReturnType<typeof startStandIn>> | undefined;
let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
// TronGrid, Binance Pay and bKash on this machine (issue 26): the worker calls them, the payment tests act on them.
const rails = await startPaymentStandIns();
try {
  standIn = await startStandIn({ databaseUrl: database.url, ...keys });
  worker = await startWorker({
    hyperdriveUrl: database.hyperdriveUrl,
    vars: {
      SUPABASE_URL: standIn.url,
      SUPABASE_ANON_KEY: standIn.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: standIn.serviceRoleKey,
      CREDENTIALS_KEY: keys.credentialsKey,
      BLIND_INDEX_KEY: keys.blindIndexKey,
      ADMIN_EMAILS: adminEmail,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:owner@example.test',
      PUSH_ALLOW_LOCAL_ENDPOINTS: '1',
      // Webhooks (decision 174): the test receiver on this machine, named so; off unless set.
      WEBHOOK_TEST_HOSTS: 'localhost',
      TRON_API_URL: `${rails.url}/trongrid`,
      BINANCE_PAY_API_URL: `${rails.url}/binance`,
      BKASH_API_URL: `${rails.url}/bkash`,
    },
  });
  console.log(`worker ${worker.url}, Supabase stand-in ${standIn.url}, database ${database.name}`);
  const target = {
    TEST_API_URL: worker.url,
    TEST_AUTH_URL: standIn.url,
    TEST_AUTH_ANON_KEY: standIn.anonKey,
    TEST_AUTH_SERVICE_ROLE_KEY: standIn.serviceRoleKey,
    TEST_API_DATABASE_URL: database.url,
    TEST_API_HYPERDRIVE_URL: database.hyperdriveUrl,
    TEST_CREDENTIALS_KEY: keys.credentialsKey,
    TEST_BLIND_INDEX_KEY: keys.blindIndexKey,
    TEST_ADMIN_EMAIL: adminEmail,
    TEST_AUTH_JWT_SECRET: standIn.jwtSecret,
    TEST_PUSH_PUBLIC_KEY: vapid.publicKey,
    TEST_PUSH_PRIVATE_KEY: vapid.privateKey,
    TEST_PAYMENT_STAND_INS_URL: rails.url,
  };

  step('API contract suite against the worker');
  if ((await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.workers.config.ts', ...process.argv.slice(2)], target)) !== 0)
    failed = true;

  step("the owner's smoke check against the worker");
  const smoke = { SMOKE_EMAIL: 'admin@demo.test', SMOKE_PASSWORD: (await demoLoginsIn(standIn.dataDir)).admin.password };
  if ((await run(process.execPath, ['scripts/smoke.ts', worker.url], smoke)) !== 0) failed = true;

  step('browser journey against the worker');
  const chromium = { CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', E2E_BASE_URL: worker.url, E2E_DEMO_DATA_DIR: standIn.dataDir };
  if ((await run(process.execPath, ['--test', '--test-concurrency=1', '--test-timeout=600000', 'e2e/journey.test.ts'], chromium)) !== 0) failed = true;
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (failed && worker) console.log(`\nworker output (last 4000 characters):\n${worker.output().slice(-4000)}`);
  await worker?.stop();
  await standIn?.stop();
  await rails.close();
  await database.drop();
}
step(failed ? 'the Workers suite FAILED' : 'the Workers suite passed');
process.exit(failed ? 1 : 0);
