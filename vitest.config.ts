import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Each API test file starts its own database; two cores do not gain from more workers than that.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        test: { name: 'api', environment: 'node', include: ['edge-api/**/*.test.ts', 'migrations/**/*.test.ts'] },
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
