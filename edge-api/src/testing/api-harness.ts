import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet } from 'jose';
import { createApp } from '../app.ts';
import { generateSigningKey, importSigningKey, signAccessToken } from '../auth/signing-key.ts';
import { createTokenVerifier } from '../auth/verifier.ts';
import { createDiskBlobStore } from '../blobs/disk-store.ts';
import type { Kysely } from 'kysely';
import type { Database, Role } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { silentLogger } from '../lib/logger.ts';
import { createSecrets } from '../lib/secrets.ts';
import { openTestDatabase } from './test-database.ts';

const TEST_ISSUER = 'http://auth.test/auth/v1';
const TEST_ANON_KEY = 'test-anon-key';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  role: Role;
}

/**
 * The real API app on a real database with real ES256 tokens, called in-process. Nothing of our own
 * is mocked: only the auth server is replaced by signing tokens with a key the verifier trusts.
 */
export async function createApiHarness(
  overrides: Partial<Deps['config']> = {},
  database?: { db: Kysely<Database>; close: () => Promise<void> },
) {
  const { db, close: closeDb } = database ?? (await openTestDatabase());
  const key = await importSigningKey(await generateSigningKey());
  const blobDir = await mkdtemp(join(tmpdir(), 'storefront-blobs-'));
  const deletedAuthUsers: string[] = [];
  const deps: Deps = {
    db,
    verifyToken: createTokenVerifier({ issuer: TEST_ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }) }),
    deleteAuthUser: async (id) => {
      deletedAuthUsers.push(id);
    },
    blobs: await createDiskBlobStore(blobDir, crypto.getRandomValues(new Uint8Array(32))),
    secrets: await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))),
    clock: () => new Date(),
    config: { adminEmails: [], supabaseUrl: 'http://auth.test', supabaseAnonKey: TEST_ANON_KEY, allowedOrigins: [], ...overrides },
    logger: silentLogger,
  };
  const app = createApp(deps);

  /** A token for an account that exists on the auth server (with or without a user record). */
  const tokenFor = (id: string, email: string) => {
    const issuedAt = Math.floor(Date.now() / 1000);
    return signAccessToken(key, TEST_ISSUER, { sub: id, email, sessionId: crypto.randomUUID(), issuedAt, expiresIn: 3600 });
  };

  /** A signed-in user with a user record of the given role. */
  const createUser = async (role: Role = 'user', name = role): Promise<TestUser> => {
    const id = crypto.randomUUID();
    const email = `${name}-${id.slice(0, 8)}@example.test`;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ id, email, display_name: `${name} ${id.slice(0, 4)}`, mobile: '01700000000', user_role: role, version: await nextVersion(trx) })
        .execute();
    });
    return { id, email, role, token: await tokenFor(id, email) };
  };

  /**
   * `count` plain orders of `owner`, straight into the database: each with a version of its own, as
   * if each came in a transaction of its own, or with one version shared, as one transaction writes.
   */
  const insertOrders = async (owner: Pick<TestUser, 'id' | 'email'>, count: number, versions: 'one each' | 'shared' = 'one each') =>
    db.transaction().execute(async (trx) => {
      const first = await nextVersion(trx);
      const rows = Array.from({ length: count }, (_, i) => ({
        id: crypto.randomUUID(),
        product_id: crypto.randomUUID(),
        title: `Proxy ${i}`,
        price: '5',
        user_id: owner.id,
        user_email: owner.email,
        version: versions === 'shared' ? first : first + i,
      }));
      for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('orders').values(rows.slice(i, i + 1000)).execute();
      if (versions === 'one each') await trx.updateTable('sync_counter').set({ version: first + count - 1 }).where('id', '=', 1).execute();
      return rows.map((row) => row.id);
    });

  /** Calls the API as `user` (or anonymously) and returns the status and parsed body. */
  const call = async <T = unknown>(method: string, path: string, options: { user?: TestUser | string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = typeof options.user === 'string' ? options.user : options.user?.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await app.request(path, { method, headers, body });
    const text = await response.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (CSV, images): the raw text.
    }
    return { status: response.status, body: data as T, headers: response.headers };
  };

  return {
    app,
    db,
    deps,
    tokenFor,
    createUser,
    insertOrders,
    call,
    deletedAuthUsers,
    close: async () => {
      await closeDb();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}

export type ApiHarness = Awaited<ReturnType<typeof createApiHarness>>;
