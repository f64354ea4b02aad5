import { defineConfig } from 'vitest/config';

/**
 * The API contract suite against the Workers entry under workerd, started by scripts/workers-suite.ts
 * (which sets TEST_API_URL and the rest): the same test files the Node entry passes in-process, plus the
 * checks only a running worker can answer. One file at a time: they share the worker and its database.
 */
export const workerContractFiles = [
  'edge-api/src/routes/services.test.ts',
  'edge-api/src/routes/orders.test.ts',
  'edge-api/src/routes/admin-orders.test.ts',
  'edge-api/src/routes/admin-orders-export.test.ts',
  'edge-api/src/routes/admin-credentials.test.ts',
  'edge-api/src/routes/admin-audit.test.ts',
  'edge-api/src/operations/deliver.test.ts',
  'edge-api/src/operations/delivery-kinds.test.ts',
  'edge-api/src/routes/wise-stocks.test.ts',
  'edge-api/src/routes/users.test.ts',
  'edge-api/src/routes/settings.test.ts',
  'edge-api/src/routes/sync.test.ts',
  'edge-api/src/routes/sync-exactly-once.test.ts',
  'edge-api/src/routes/uploads.test.ts',
  'edge-api/src/routes/uploads-size-limits.test.ts',
  'edge-api/src/routes/push.test.ts',
  'edge-api/src/routes/service-stocks.test.ts',
  'edge-api/src/routes/service-stock-import.test.ts',
  'edge-api/src/payments/usdt.test.ts',
  'edge-api/src/payments/binance-pay.test.ts',
  'edge-api/src/payments/bkash.test.ts',
  'edge-api/src/routes/coupons.test.ts',
  'edge-api/src/routes/tickets.test.ts',
  'edge-api/src/routes/public-api.test.ts',
  'edge-api/src/routes/public-api-prices.test.ts',
  'edge-api/src/routes/public-webhooks.test.ts',
  'edge-api/src/openapi.test.ts',
];

export default defineConfig({
  test: {
    name: 'workers',
    environment: 'node',
    include: [...workerContractFiles, 'edge-api/**/*.workerd.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
