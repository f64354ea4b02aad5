import { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import type { AppEnv } from '../middleware/session.ts';

const DEMO_CHECK_MS = 30_000;

/**
 * Where the PWA finds auth (one build serves the embedded, Node and edge modes), and whether the shop
 * still holds the demo accounts: the dashboard then says it is a demo shop.
 */
export function configRoutes(deps: Deps) {
  let demo: { value: boolean; at: number } | undefined;
  const isDemo = async () => {
    const now = deps.clock().getTime();
    if (!demo || now - demo.at > DEMO_CHECK_MS) {
      const row = await deps.db
        .selectFrom('users')
        .select('id')
        .where('email', 'like', '%@demo.test')
        .where('deleted_at', 'is', null)
        .limit(1)
        .executeTakeFirst();
      demo = { value: row !== undefined, at: now };
    }
    return demo.value;
  };
  return new Hono<AppEnv>().get('/', async (c) =>
    c.json({
      supabaseUrl: deps.config.supabaseUrl,
      supabaseAnonKey: deps.config.supabaseAnonKey,
      demo: await isDemo(),
      // Web push (decision 067): the VAPID public key browsers subscribe with; null when not set up.
      pushPublicKey: deps.config.push?.publicKey ?? null,
    }),
  );
}
