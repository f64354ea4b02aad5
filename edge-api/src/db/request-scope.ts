import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.ts';

/**
 * One Kysely for the life of a Workers isolate whose connections belong to the request running it.
 *
 * Workers forbid I/O objects of one request (a socket) from being used by another, so a pool shared by an
 * isolate hangs the second request. The app and its `deps.db` are built once per isolate; each request
 * runs inside `run(pool, ...)` with a pool of its own (Hyperdrive does the real pooling), and the
 * connections the app asks for come from that pool, found through AsyncLocalStorage, which follows the
 * request's promises and the pulls of a body it streams. The pools come from connect.ts's createPool, with
 * its int8 parser, like every other pool.
 */
export function requestScopedDatabase(): { db: Kysely<Database>; run<T>(pool: pg.Pool, work: () => T): T } {
  const current = new AsyncLocalStorage<pg.Pool>();
  const pool: PostgresPool = {
    get options() {
      return current.getStore()?.options ?? {};
    },
    connect: () => {
      const scoped = current.getStore();
      if (!scoped) return Promise.reject(new Error('No database outside a request: run it inside requestScopedDatabase().run()'));
      return scoped.connect();
    },
    // Each request's pool is ended by whoever made it, once its answer is sent.
    end: async () => {},
  };
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), run: (scoped, work) => current.run(scoped, work) };
}
