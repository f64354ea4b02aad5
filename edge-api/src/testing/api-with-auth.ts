import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { createLocalJWKSet } from 'jose';
import type { Kysely } from 'kysely';
import { createApp } from '../app.ts';
import { isEmailConfirmed } from '../auth/embedded/auth-store.ts';
import { cachedSessionCheck, embeddedSessionCheck } from '../auth/session-check.ts';
import { createTokenVerifier } from '../auth/verifier.ts';
import { createDiskBlobStore } from '../blobs/disk-store.ts';
import type { Database } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { testLogger } from './test-logs.ts';
import { createSecrets } from '../lib/secrets.ts';
import type { AuthServer } from './auth-server.ts';

/**
 * The API on the same database as a running embedded auth server, wired as the Node entry wires them
 * (sessions and confirmations read from the auth tables), but with no memory of live sessions.
 */
export async function apiWithEmbeddedAuth(db: Kysely<Database>, server: AuthServer, config: Partial<Deps['config']> = {}): Promise<Hono> {
  const app = createApp({
    db,
    verifyToken: createTokenVerifier({ issuer: server.issuer, keys: createLocalJWKSet(server.auth.jwks()) }),
    sessionAlive: cachedSessionCheck(embeddedSessionCheck(db), { ttlMs: 0 }),
    deleteAuthUser: server.auth.deleteUser,
    emailConfirmed: (userId) => isEmailConfirmed(db, userId),
    guestAccounts: server.auth.guestAccounts,
    clientIp: (c) => c.req.header('x-test-client-ip') ?? 'test',
    blobs: await createDiskBlobStore(await mkdtemp(join(tmpdir(), 'api-with-auth-')), crypto.getRandomValues(new Uint8Array(32))),
    secrets: await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))),
    clock: () => new Date(),
    config: { adminEmails: [], supabaseUrl: server.url, supabaseAnonKey: 'anon', allowedOrigins: [], ...config },
    logger: testLogger(),
  });
  return new Hono().route('/', app);
}
