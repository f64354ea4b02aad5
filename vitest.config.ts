import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // One embedded Postgres for the run (or TEST_DATABASE_URL's), a schema per test file.
    globalSetup: ['edge-api/src/testing/global-setup.ts'],
    // Two cores do not gain from more workers than that.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        // *.workerd.test.ts need the Workers entry under workerd: `npm run test:workers` (vitest.workers.config.ts).
        test: { name: 'api', environment: 'node', include: ['edge-api/**/*.test.ts', 'migrations/**/*.test.ts'], exclude: ['**/*.workerd.test.ts', '**/node_modules/**'] },
      },
      {
        plugins: [react()],
        test: {
          name: 'pwa',
          environment: 'happy-dom',
          include: ['pwa/**/*.test.{ts,tsx}'],
          setupFiles: ['pwa/src/test/setup.ts'],
        },
      },
    ],
  },
});
