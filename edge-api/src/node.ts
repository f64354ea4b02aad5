import { parseEnv } from './env.ts';
import { startNodeServer } from './node-server.ts';

// Ctrl-C and SIGTERM stop the HTTP server, then the database (the embedded Postgres last). However this
// process ends otherwise (an exception, kill -9), the embedded server's watcher stops it.
try {
  const env = parseEnv(process.env);
  const started = Date.now();
  // The embedded database is started again by the app itself when it dies (decision 193).
  const server = await startNodeServer(env);
  // Before the ready line: whoever reads it may send SIGTERM at once (a supervisor, a test).
  let stopping = 0;
  const stop = async (signal: NodeJS.Signals) => {
    // One Ctrl-C or SIGTERM often arrives twice (npm forwards it to its script, and the terminal or the
    // process manager sends it to the whole group): a repeat within 2 s is the same request.
    if (stopping && Date.now() - stopping < 2_000) return;
    if (stopping) {
      console.log(`${signal} again: exiting now; the database server stops on its own.`);
      process.exit(1);
    }
    stopping = Date.now();
    console.log(`${signal}: stopping…`);
    // Whatever the clients do, the process is gone within 10 s (requests under way get 6 of them; the rest is for stopping the database).
    setTimeout(() => {
      console.error('Still stopping after 10 s: exiting now; the database server stops on its own.');
      process.exit(1);
    }, 10_000).unref();
    try {
      await server.close();
      console.log('Stopped.');
      process.exit(0);
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`Storefront running at ${server.url} (ready in ${Date.now() - started} ms)`);
  if (server.demoLogins) {
    // Shown this once: the passwords are this data directory's own, and no log line repeats them.
    console.log('Demo shop created. Its logins (shown only now):');
    for (const login of server.demoLogins)
      console.log(`  ${login.role.padEnd(9)} ${login.email} / ${login.password}${login.apiKey ? `  API key ${login.apiKey}` : ''}`);
  }
  if (server.demoShop) {
    console.log('This is a demo shop: remove the demo data and accounts with `npm run demo:remove`; make your own admin with `npm run admin`.');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
