import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { createLocalJWKSet } from 'jose';
import type { Kysely } from 'kysely';
import { apiNotFound, createApp } from '../app.ts';
import { createEmbeddedAuth } from '../auth/embedded/embedded-auth.ts';
import { mailboxMailer } from '../auth/embedded/mailer.ts';
import { generateSigningKey, importSigningKey, signAccessToken } from '../auth/signing-key.ts';
import { createTokenVerifier } from '../auth/verifier.ts';
import { createDiskBlobStore } from '../blobs/disk-store.ts';
import type { Role } from '../contract/users.ts';
import { openDatabase } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { moreVersions, nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { testLogger } from './test-logs.ts';
import { createSecrets, decodeKey, type Secrets } from '../lib/secrets.ts';
import { fileRoutes } from '../routes/files.ts';
import { openTestDatabase } from './test-database.ts';

const TEST_ISSUER = 'http://auth.test/auth/v1';
const TEST_ANON_KEY = 'test-anon-key';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  role: Role;
}

/** An account on the auth server, signed in, with no user record yet. */
export interface TestAccount {
  id: string;
  email: string;
  token: string;
}

/**
 * Where the API under test runs. By default in this process (`createApp` on a test database). With
 * TEST_API_URL set, over HTTP against a running entry (the Workers entry under workerd in
 * `scripts/workers-suite.ts`): the same test files then check the same contract there, with accounts
 * made on the real auth server (TEST_AUTH_URL) and the entry's database (TEST_API_DATABASE_URL) for the
 * checks that read it directly.
 */
export const remoteApi = process.env.TEST_API_URL
  ? {
      url: process.env.TEST_API_URL.replace(/\/+$/, ''),
      /** The Supabase the entry uses (SUPABASE_URL). */
      supabaseUrl: required('TEST_AUTH_URL').replace(/\/+$/, ''),
      authUrl: `${required('TEST_AUTH_URL').replace(/\/+$/, '')}/auth/v1`,
      anonKey: required('TEST_AUTH_ANON_KEY'),
      serviceRoleKey: required('TEST_AUTH_SERVICE_ROLE_KEY'),
      databaseUrl: required('TEST_API_DATABASE_URL'),
      credentialsKey: required('TEST_CREDENTIALS_KEY'),
      blindIndexKey: required('TEST_BLIND_INDEX_KEY'),
      /** An email in the entry's ADMIN_EMAILS. */
      adminEmail: required('TEST_ADMIN_EMAIL'),
      /** The legacy JWT secret the auth stand-in also accepts (HS256), when it has one. */
      jwtSecret: process.env.TEST_AUTH_JWT_SECRET,
    }
  : undefined;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`TEST_API_URL is set, so ${name} must be too`);
  return value;
}

/** What a test may know of the app's dependencies, in either mode. */
export interface HarnessDeps {
  secrets: Secrets;
  /** In-process only: a test that changes the configuration or a dependency cannot run against a remote entry. */
  config: Deps['config'];
  deleteAuthUser: Deps['deleteAuthUser'];
}

/**
 * The real API app on a real database with real ES256 tokens: called in-process, or over HTTP when
 * TEST_API_URL names a running entry. Nothing of our own is mocked: in-process, only the auth server is
 * replaced by signing tokens with a key the verifier trusts.
 */
export async function createApiHarness(overrides: Partial<Deps['config']> = {}, database?: { db: Kysely<Database>; close: () => Promise<void> }) {
  return remoteApi && !database ? remoteHarness(remoteApi) : inProcessHarness(overrides, database);
}

/**
 * Always in this process, with the app's whole Deps: for tests that need them (a seed, a backup), never run
 * against a remote entry. `clock` is the app's (its limits' windows, its timestamps): the real one unless given.
 */
export async function inProcessHarness(
  overrides: Partial<Deps['config']> = {},
  database?: { db: Kysely<Database>; close: () => Promise<void> },
  { clock = () => new Date() }: { clock?: () => Date } = {},
) {
  const { db, close: closeDb } = database ?? (await openTestDatabase());
  const key = await importSigningKey(await generateSigningKey());
  const blobDir = await mkdtemp(join(tmpdir(), 'storefront-blobs-'));
  const mailbox = await mkdtemp(join(tmpdir(), 'storefront-mailbox-'));
  const deletedAuthUsers: string[] = [];
  // The auth server is replaced here: a session lives until a test ends it with endSession().
  const endedSessions = new Set<string>();
  const unconfirmedAccounts = new Set<string>();
  const blobs = await createDiskBlobStore(blobDir, crypto.getRandomValues(new Uint8Array(32)));
  const deps: Deps = {
    db,
    verifyToken: createTokenVerifier({ issuer: TEST_ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }) }),
    sessionAlive: async (claims) => claims.sessionId !== undefined && !endedSessions.has(claims.sessionId),
    deleteAuthUser: async (id) => {
      deletedAuthUsers.push(id);
    },
    emailConfirmed: async (id) => !unconfirmedAccounts.has(id),
    blobs,
    secrets: await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))),
    clock,
    config: { adminEmails: [], supabaseUrl: 'http://auth.test', supabaseAnonKey: TEST_ANON_KEY, allowedOrigins: [], ...overrides },
    logger: testLogger(),
  };
  // As both entries mount them: the API and the stored files.
  const app = new Hono();
  app.route('/', createApp(deps));
  app.all('/api/*', apiNotFound);
  app.route('/files', fileRoutes(blobs));
  // The embedded auth on the same key and issuer, at the configured auth URL's path: a client (the PWA's
  // own, in a screen test) signs up and in for real, and the API trusts its tokens as it trusts tokenFor's.
  const auth = createEmbeddedAuth({
    db,
    key,
    issuer: TEST_ISSUER,
    anonKey: TEST_ANON_KEY,
    serviceRoleKey: `test-service-role-${crypto.randomUUID()}`,
    clientIp: (c) => c.req.header('x-test-client-ip') ?? 'in-process',
    logger: testLogger(),
    mailer: await mailboxMailer(mailbox, { logger: testLogger() }),
  });
  app.route('/auth/v1', auth.app);

  /** A token for an account that exists on the auth server (with or without a user record). */
  const tokenFor = (id: string, email: string) => {
    const issuedAt = Math.floor(Date.now() / 1000);
    return signAccessToken(key, TEST_ISSUER, { sub: id, email, sessionId: crypto.randomUUID(), issuedAt, expiresIn: 3600 });
  };
  const createAccount = async (email?: string): Promise<TestAccount> => {
    const id = crypto.randomUUID();
    const address = email ?? `account-${id.slice(0, 8)}@example.test`;
    return { id, email: address, token: await tokenFor(id, address) };
  };
  const request = async (input: RequestInfo | URL, init?: RequestInit) => app.request(input instanceof URL ? input.href : input, init);

  return {
    mode: 'in-process' as const,
    ...common(db, request, createAccount),
    app,
    deps: deps as HarnessDeps & Deps,
    tokenFor,
    /** Makes the auth server say this account's address is not confirmed. */
    unconfirmEmail: (accountId: string) => {
      unconfirmedAccounts.add(accountId);
    },
    /** Ends the session of a token, as a sign-out on the auth server would. */
    endSession: (sessionId: string) => {
      endedSessions.add(sessionId);
    },
    /** Whether the API asked the auth server to delete this account. */
    authAccountDeleted: async (id: string) => deletedAuthUsers.includes(id),
    close: async () => {
      await closeDb();
      await rm(blobDir, { recursive: true, force: true });
      await rm(mailbox, { recursive: true, force: true });
    },
  };
}

async function remoteHarness(target: NonNullable<typeof remoteApi>) {
  const db = openDatabase({ databaseUrl: target.databaseUrl, maxConnections: 4 });
  const secrets = await createSecrets(decodeKey(target.credentialsKey, 'TEST_CREDENTIALS_KEY'), decodeKey(target.blindIndexKey, 'TEST_BLIND_INDEX_KEY'));
  const authCall = (path: string, init: RequestInit & { headers?: Record<string, string> }) =>
    fetch(`${target.authUrl}${path}`, { ...init, headers: { apikey: target.anonKey, 'content-type': 'application/json', ...init.headers } });

  /** Signs up on the auth server the entry trusts, as supabase-js does. */
  const createAccount = async (email?: string): Promise<TestAccount> => {
    const address = email ?? `account-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const response = await authCall('/signup', { method: 'POST', body: JSON.stringify({ email: address, password: `pw-${crypto.randomUUID()}` }) });
    if (!response.ok) throw new Error(`sign-up of ${address} failed: ${response.status} ${await response.text()}`);
    const session = (await response.json()) as { access_token: string; user: { id: string } };
    return { id: session.user.id, email: address, token: session.access_token };
  };
  // A path is the entry's; an absolute URL (an image in Storage) is fetched where it points, as a browser would.
  const request = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    return fetch(/^https?:/.test(url) ? url : `${target.url}${url}`, input instanceof Request ? input : init);
  };
  const deps: HarnessDeps = {
    secrets,
    get config(): Deps['config'] {
      throw new Error('The configuration of a remote entry cannot be read or changed from a test');
    },
    deleteAuthUser: async () => {
      throw new Error('The dependencies of a remote entry cannot be replaced from a test');
    },
  };

  return {
    mode: 'http' as const,
    ...common(db, request, createAccount),
    app: { request },
    deps,
    authAccountDeleted: async (id: string) => {
      const response = await fetch(`${target.authUrl}/admin/users/${id}`, {
        headers: { apikey: target.serviceRoleKey, authorization: `Bearer ${target.serviceRoleKey}` },
      });
      return response.status === 404;
    },
    close: () => db.destroy(),
  };
}

/** The parts that read and write the same way whichever way the API is called. */
function common(
  db: Kysely<Database>,
  request: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
  createAccount: (email?: string) => Promise<TestAccount>,
) {
  /** A signed-in user with a user record of the given role. */
  const createUser = async (role: Role = 'user', name: string = role): Promise<TestUser> => {
    const account = await createAccount(`${name}-${crypto.randomUUID().slice(0, 8)}@example.test`);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id: account.id,
          email: account.email,
          display_name: `${name} ${account.id.slice(0, 4)}`,
          mobile: '01700000000',
          user_role: role,
          version: await nextVersion(trx),
        })
        .execute();
    });
    return { ...account, role };
  };

  /** Gives an existing user a role, written on the record as createUser writes it (with a version of its own). */
  const setRole = async (userId: string, role: Role) =>
    db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ user_role: role, version: await nextVersion(trx) })
        .where('id', '=', userId)
        .execute();
    });

  /**
   * `count` plain orders of `owner`, straight into the database: each with a version of its own, as
   * if each came in a transaction of its own, or with one version shared, as one transaction writes.
   */
  const insertOrders = async (owner: Pick<TestUser, 'id' | 'email'>, count: number, versions: 'one each' | 'shared' = 'one each') =>
    db.transaction().execute(async (trx) => {
      const first = await nextVersion(trx);
      const each = versions === 'one each' ? [first, ...(await moreVersions(trx, count - 1))] : [];
      const rows = Array.from({ length: count }, (_, i) => ({
        id: crypto.randomUUID(),
        product_id: crypto.randomUUID(),
        title: `Proxy ${i}`,
        price: '5',
        user_id: owner.id,
        user_email: owner.email,
        version: versions === 'shared' ? first : each[i]!,
      }));
      for (let i = 0; i < rows.length; i += 1000)
        await trx
          .insertInto('orders')
          .values(rows.slice(i, i + 1000))
          .execute();
      return rows.map((row) => row.id);
    });

  /** Calls the API as `user` (or anonymously) and returns the status and parsed body. */
  const call = async <T = unknown>(
    method: string,
    path: string,
    options: { user?: TestUser | TestAccount | string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = typeof options.user === 'string' ? options.user : options.user?.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await request(path, { method, headers, body });
    const text = await response.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (CSV, images): the raw text.
    }
    return { status: response.status, body: data as T, headers: response.headers };
  };

  return { db, createUser, setRole, createAccount, insertOrders, call };
}

export type ApiHarness = Awaited<ReturnType<typeof createApiHarness>>;
