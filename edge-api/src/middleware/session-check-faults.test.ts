import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { createLocalJWKSet } from 'jose';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { supabaseSessionCheck } from '../auth/session-check.ts';
import { generateSigningKey, importSigningKey, signAccessToken, type SigningKey } from '../auth/signing-key.ts';
import { createTokenVerifier } from '../auth/verifier.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { createDiskBlobStore } from '../blobs/disk-store.ts';
import type { Database } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import type { Logger } from '../lib/logger.ts';
import { createSecrets, type Secrets } from '../lib/secrets.ts';
import { freePort } from '../testing/free-port.ts';
import { openTestDatabase } from '../testing/test-database.ts';

// Decision 114: the session check on Supabase Auth (GET /auth/v1/user with the caller's token) against a
// real HTTP server that answers 200, then 502, then is gone. An auth server that fails is no
// configuration fault: 503 `unavailable` with Retry-After, one warn line, never `misconfigured`.

const ISSUER = 'https://abcd.supabase.co/auth/v1';
let db: Kysely<Database>;
let blobs: BlobStore;
let secrets: Secrets;
let closeDb: () => Promise<void>;
let key: SigningKey;
let dataDir: string;
let authServer: Server;
let authPort: number;
/** What the stand-in auth server answers GET /auth/v1/user with. */
let authStatus = 200;
const lines: { level: string; message: string }[] = [];
const logger: Logger = {
  info: (message) => lines.push({ level: 'info', message }),
  warn: (message) => lines.push({ level: 'warn', message }),
  error: (message) => lines.push({ level: 'error', message }),
};
const userId = crypto.randomUUID();
const now = () => Math.floor(Date.now() / 1000);

function apiOn(authUrl: string): Hono {
  return new Hono().route(
    '/',
    createApp({
      db,
      verifyToken: createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }) }),
      sessionAlive: supabaseSessionCheck(authUrl, 'anon'),
      deleteAuthUser: async () => {},
      emailConfirmed: async () => true,
      blobs,
      secrets,
      clock: () => new Date(),
      config: { adminEmails: [], supabaseUrl: ISSUER, supabaseAnonKey: 'anon', allowedOrigins: [] },
      logger,
    }),
  );
}
beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  key = await importSigningKey(await generateSigningKey());
  await db.transaction().execute(async (trx) =>
    trx
      .insertInto('users')
      .values({ id: userId, email: 'owner@example.test', display_name: 'Owner', mobile: '01700000000', user_role: 'admin', version: await nextVersion(trx) })
      .execute(),
  );
  dataDir = await mkdtemp(join(tmpdir(), 'session-check-faults-'));
  blobs = await createDiskBlobStore(dataDir, crypto.getRandomValues(new Uint8Array(32)));
  secrets = await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32)));
  authServer = createServer((request, response) => {
    response.writeHead(request.url === '/auth/v1/user' ? authStatus : 404, { 'content-type': 'application/json' }).end('{}');
  });
  authPort = await freePort();
  await new Promise<void>((resolve) => authServer.listen(authPort, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => authServer?.close(resolve));
  await closeDb?.();
  await rm(dataDir, { recursive: true, force: true });
});

async function askAsAdmin(api: Hono) {
  const token = await signAccessToken(key, ISSUER, {
    sub: userId,
    email: 'owner@example.test',
    sessionId: crypto.randomUUID(),
    issuedAt: now(),
    expiresIn: 3600,
  });
  const from = lines.length;
  const response = await api.request('/api/users', { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.error?.code, logged: lines.slice(from) };
}

describe('the session check when Supabase Auth fails', () => {
  it('serves a live session while the auth server answers', async () => {
    authStatus = 200;
    expect((await askAsAdmin(apiOn(`http://127.0.0.1:${authPort}/auth/v1`))).status).toBe(200);
  });

  it('answers 503 unavailable with Retry-After while the auth server answers 502, logged once as a warning', async () => {
    authStatus = 502;
    const answer = await askAsAdmin(apiOn(`http://127.0.0.1:${authPort}/auth/v1`));
    expect(answer).toMatchObject({ status: 503, retryAfter: '2', code: 'unavailable' });
    expect(answer.logged).toEqual([{ level: 'warn', message: 'auth: the session check failed' }]);
  });

  it('answers the same while the auth server cannot be reached', async () => {
    const gone = await freePort();
    const answer = await askAsAdmin(apiOn(`http://127.0.0.1:${gone}/auth/v1`));
    expect(answer).toMatchObject({ status: 503, retryAfter: '2', code: 'unavailable' });
    expect(answer.logged).toEqual([{ level: 'warn', message: 'auth: the session check failed' }]);
  });
});
