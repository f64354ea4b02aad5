import { resolve } from 'node:path';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import { useEmbeddedPostgres } from '../edge-api/src/db/embedded-postgres.ts';
import { migrateToLatest } from '../edge-api/src/db/migrate.ts';
import { parseEnv } from '../edge-api/src/env.ts';
import { removeDemoData } from '../edge-api/src/seed/demo-data.ts';

// `npm run demo:remove`: the demo accounts, their orders, the demo inventory and the demo services nobody
// else ordered go, on the configured database (running or not). Set DEMO_DATA=0 too, or an empty
// database gets the demo again. README "Run it".
const env = parseEnv(process.env);
const server = env.DATABASE_URL
  ? { databaseUrl: env.DATABASE_URL, release: async () => {} }
  : await useEmbeddedPostgres(resolve(env.DATA_DIR)).catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    });
const db = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 2 });
let code = 0;
try {
  await migrateToLatest(db);
  const removed = await removeDemoData(db);
  console.log(
    `Demo removed: ${removed.accounts} accounts, ${removed.orders} orders, ${removed.stocks} inventory accounts, ${removed.services} services (with ${removed.serviceStocks} items of their stock). ` +
      'Set DEMO_DATA=0 so that an empty database does not get it again.',
  );
} catch (error) {
  console.error(`Could not remove the demo: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
} finally {
  await db.destroy();
  await server.release();
}
process.exit(code);
