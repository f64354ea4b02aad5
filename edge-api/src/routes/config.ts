import { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import type { AppEnv } from '../middleware/session.ts';

/** Where the PWA finds auth: one build serves the embedded, Node and edge modes. */
export function configRoutes(deps: Deps) {
  return new Hono<AppEnv>().get('/', (c) =>
    c.json({ supabaseUrl: deps.config.supabaseUrl, supabaseAnonKey: deps.config.supabaseAnonKey }),
  );
}
