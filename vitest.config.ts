import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { appendTestLog } from './edge-api/src/testing/test-logs.ts';

/** Test files that spawn processes or take minutes (issue 34 item 5): a project of their own. */
const PROCESS_TESTS = [
  'edge-api/src/node.test.ts',
  'edge-api/src/npm-start.test.ts',
  'edge-api/src/migrate.test.ts',
  'edge-api/src/deploy-recipe.test.ts',
  'edge-api/src/db-faults.test.ts',
  'edge-api/src/auth/supabase-owner-admin.test.ts',
  'edge-api/src/db/data-dir-lock.test.ts',
  'edge-api/src/db/embedded-postgres.test.ts',
  'edge-api/src/routes/sync-exactly-once.test.ts',
  'edge-api/src/database-restarts.test.ts',
  'edge-api/src/double-start.test.ts',
  'edge-api/src/disk-full.test.ts',
  // The Node entry in-process on an embedded Postgres server of its own (initdb, the demo seed): a process each.
  'edge-api/src/node-server.test.ts',
  'edge-api/src/node-staff-reveals.test.ts',
  'edge-api/src/metrics/metrics.test.ts',
  // Runs the TypeScript compiler over seeded files under each runtime's project (decision 244): seconds of CPU.
  'edge-api/src/runtime-boundaries.test.ts',
  // About 115 MB of multipart bodies at the upload size limits: many seconds of memory traffic by nature.
  'edge-api/src/routes/uploads-size-limits.test.ts',
];

/** Every project: a request outside the test's own servers fails the test (issue 34 item 5). */
const NO_NETWORK = 'edge-api/src/testing/no-network.ts';

export default defineConfig({
  test: {
    // One embedded Postgres for the run (or TEST_DATABASE_URL's), a schema per test file.
    globalSetup: ['edge-api/src/testing/global-setup.ts'],
    // Two cores do not gain from more workers than that.
    maxWorkers: 2,
    // What the tests and the apps they run in-process print goes to the run's logs too, which are checked
    // for secrets at the end (edge-api/src/testing/test-logs.ts, decision 238); the console shows it as before.
    onConsoleLog: (log, type) => {
      appendTestLog(`console-${type}`, log.endsWith('\n') ? log : `${log}\n`);
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        // *.workerd.test.ts need the Workers entry under workerd: `npm run test:workers` (vitest.workers.config.ts).
        test: {
          name: 'api',
          environment: 'node',
          include: ['edge-api/**/*.test.ts', 'migrations/**/*.test.ts'],
          exclude: ['**/*.workerd.test.ts', '**/node_modules/**', ...PROCESS_TESTS],
          setupFiles: [NO_NETWORK],
          // A worker runs its api files one after another in one module graph instead of loading the app's
          // modules again for each (issue 34 item 5; a sample of 20 files: 45 s of CPU down to 28 s). It holds
          // because no api file mocks a module, each builds its own app on a database of its own, and the
          // few that fake the clock or change the environment put them back. A file that needs a module
          // mock or leaves global state behind belongs in a project that isolates.
          isolate: false,
        },
      },
      {
        // Files that start processes of their own (the app, npm, a Postgres server, Caddy) or run for
        // minutes: `npm run test:processes`, which CI runs; `npm test` stays a run a developer keeps running.
        test: { name: 'processes', environment: 'node', include: PROCESS_TESTS, setupFiles: [NO_NETWORK] },
      },
      {
        plugins: [react()],
        test: {
          name: 'pwa',
          environment: 'happy-dom',
          include: ['pwa/**/*.test.{ts,tsx}'],
          setupFiles: [NO_NETWORK, 'pwa/src/test/setup.ts'],
          // A worker runs its pwa files one after another in one simulated browser, with the packages
          // loaded once (decision 259); pwa/src/test/setup.ts puts the page, the databases, the timers
          // and the app's own modules back after each file.
          isolate: false,
        },
      },
    ],
  },
});
