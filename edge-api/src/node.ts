import { parseEnv } from './env.ts';
import { demoLogins, startNodeServer } from './node-server.ts';

try {
  const env = parseEnv(process.env);
  const started = Date.now();
  const server = await startNodeServer(env);
  const logins = env.DEMO_DATA === '1' && !env.SUPABASE_URL ? ` — demo logins: ${demoLogins.map((l) => `${l.email} / ${l.password} (${l.role})`).join(', ')}` : '';
  console.log(`Storefront running at ${server.url} (ready in ${Date.now() - started} ms)${logins}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
