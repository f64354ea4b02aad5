import { Hono } from 'hono';
import { sql } from 'kysely';
import { migrationNames } from '../db/migration-names.ts';
import type { Deps } from '../deps.ts';

const RETRY_AFTER_SECONDS = 5;

/** What /readyz found: ready, or why not. */
export async function readiness(db: Deps['db']): Promise<{ ready: true; migrations: number } | { ready: false; reason: string }> {
  let applied: string[];
  try {
    applied = (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((row) => row.name);
  } catch {
    return { ready: false, reason: 'the database does not answer' };
  }
  const done = new Set(applied);
  const missing = migrationNames().filter((name) => !done.has(name));
  return missing.length === 0 ? { ready: true, migrations: applied.length } : { ready: false, reason: `${missing.length} migrations are not applied` };
}

/**
 * Operator signals on both entries (issue 28): `/healthz` answers while the process runs; `/readyz` only
 * when the database answers and every migration this version knows is applied (503 and Retry-After else).
 * Neither is cached, and neither says more than a load balancer needs.
 */
export function healthRoutes(deps: Pick<Deps, 'db'>) {
  return new Hono()
    .get('/healthz', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'ok' });
    })
    .get('/readyz', async (c) => {
      c.header('Cache-Control', 'no-store');
      const found = await readiness(deps.db);
      if (found.ready) return c.json({ status: 'ready', migrations: found.migrations });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ status: 'unavailable', reason: found.reason }, 503);
    });
}
