import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { checkTestLogs } from '../../../scripts/check-test-logs.ts';
import { createTemplateDatabase, forgoDurability } from './test-database.ts';

const ROOT = new URL('../../..', import.meta.url).pathname;

/**
 * Vitest's global setup: one embedded Postgres server for the whole run, each test file in a schema of its
 * own copied from a template database migrated once here (test-database.ts). With TEST_DATABASE_URL set,
 * the tests use that Postgres instead.
 *
 * It also gives the run a directory for its log lines (test-logs.ts; decision 238): under TEST_LOG_DIR when
 * the caller set it (CI, which checks every suite's logs at the end), else under .data/test-logs. At the end
 * the run's lines are checked for secrets (scripts/check-test-logs.ts): a secret fails the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // A second setup in the same run (a project of its own) writes to the first's directory, which it checks.
  const nested = process.env.TEST_LOG_RUN === String(process.pid);
  const callerLogDir = process.env.TEST_LOG_DIR;
  const runLogDir = join(callerLogDir ?? join(ROOT, '.data/test-logs'), `vitest-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  if (!nested) {
    await mkdir(runLogDir, { recursive: true });
    // Test workers start after this and inherit the environment.
    process.env.TEST_LOG_DIR = runLogDir;
    process.env.TEST_LOG_RUN = String(process.pid);
  }
  const checkLogs = async () => {
    if (nested) return;
    const { findings } = checkTestLogs(runLogDir);
    if (findings.length > 0) throw new Error(`${findings.length} log line(s) of this run hold a secret (${runLogDir}):\n${findings.slice(0, 20).join('\n')}`);
    // Kept for the caller's own check; a clean local run leaves nothing behind.
    if (!callerLogDir) await rm(runLogDir, { recursive: true, force: true });
  };
  if (nested) return checkLogs;
  // The run's migrated template, which every test file's database copies (decision 239).
  const withTemplate = async (url: string) => {
    const template = await createTemplateDatabase(url);
    process.env.TEST_TEMPLATE_DATABASE = template.name;
    return async () => {
      delete process.env.TEST_TEMPLATE_DATABASE;
      await template.drop();
    };
  };
  if (process.env.TEST_DATABASE_URL) {
    const dropTemplate = await withTemplate(process.env.TEST_DATABASE_URL);
    return async () => {
      await dropTemplate();
      await checkLogs();
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'storefront-test-db-'));
  const server = await startEmbeddedPostgres(dataDir);
  process.env.TEST_DATABASE_URL = server.databaseUrl;
  // The run's own server, thrown away at its end: no flush to disk is worth waiting for.
  await forgoDurability(server.databaseUrl);
  const dropTemplate = await withTemplate(server.databaseUrl);
  return async () => {
    await dropTemplate();
    delete process.env.TEST_DATABASE_URL;
    await server.stop();
    // The database server's own log is one of the run's logs.
    await copyFile(join(dataDir, 'postgres.log'), join(runLogDir, 'postgres.log')).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    await checkLogs();
  };
}
