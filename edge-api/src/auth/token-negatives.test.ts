import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { createLocalJWKSet, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { createDiskBlobStore } from '../blobs/disk-store.ts';
import type { Database } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import { testLogger } from '../testing/test-logs.ts';
import { createSecrets } from '../lib/secrets.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { generateSigningKey, importSigningKey, signAccessToken, type SigningKey } from './signing-key.ts';
import { createTokenVerifier } from './verifier.ts';

// Forged and unfit access tokens against the API itself: each is answered 401 and reads nothing. The
// token of a signed-out session is in ended-sessions.test.ts, through the real auth server.
const ISSUER = 'https://abcd.supabase.co/auth/v1';
const LEGACY_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
let db: Kysely<Database>;
let closeDb: () => Promise<void>;
let key: SigningKey;
let api: Hono;
let userId: string;
const sessionId = crypto.randomUUID();

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  aud: 'authenticated',
  sub: userId,
  email: 'victim@example.test',
  role: 'authenticated',
  session_id: sessionId,
  iat: now(),
  exp: now() + 3600,
  ...overrides,
});
const es256 = (payload: Record<string, unknown>, signer: SigningKey = key) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: signer.kid }).sign(signer.privateKey);
const hs256 = (payload: Record<string, unknown>, secret: string | Uint8Array) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
  key = await importSigningKey(await generateSigningKey());
  userId = crypto.randomUUID();
  await db.transaction().execute(async (trx) =>
    trx
      .insertInto('users')
      .values({ id: userId, email: 'victim@example.test', display_name: 'Victim', mobile: '01700000000', user_role: 'admin', version: await nextVersion(trx) })
      .execute(),
  );
  const app = createApp({
    db,
    // A legacy secret is configured too, so HS256 is checked rather than refused outright.
    verifyToken: createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }), hs256Secret: LEGACY_SECRET }),
    sessionAlive: async (tokenClaims) => tokenClaims.sessionId === sessionId,
    deleteAuthUser: async () => {},
    emailConfirmed: async () => true,
    blobs: await createDiskBlobStore(await mkdtemp(join(tmpdir(), 'token-negatives-')), crypto.getRandomValues(new Uint8Array(32))),
    secrets: await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))),
    clock: () => new Date(),
    config: { adminEmails: [], supabaseUrl: ISSUER, supabaseAnonKey: 'anon', allowedOrigins: [] },
    logger: testLogger(),
  });
  api = new Hono().route('/', app);
});
afterAll(() => closeDb?.());

const readAsAdmin = (token: string) => api.request('/api/users', { headers: { authorization: `Bearer ${token}` } });

describe('access tokens the API refuses with 401', () => {
  it('accepts the genuine token it is compared against', async () => {
    const genuine = await signAccessToken(key, ISSUER, { sub: userId, email: 'victim@example.test', sessionId, issuedAt: now(), expiresIn: 3600 });
    expect((await readAsAdmin(genuine)).status).toBe(200);
  });

  const cases: [string, () => Promise<string>][] = [
    ['alg none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    ['the wrong audience', () => es256(claims({ aud: 'service_role' }))],
    ['the wrong issuer', () => es256(claims({ iss: 'https://evil.example/auth/v1' }))],
    ['an expired one', () => es256(claims({ iat: now() - 7200, exp: now() - 3600 }))],
    [
      'a bad signature',
      async () => {
        const token = await es256(claims());
        const [header, payload] = token.split('.');
        const other = await es256(claims({ sub: crypto.randomUUID() }));
        return `${header}.${payload}.${other.split('.')[2]}`;
      },
    ],
    [
      'a payload changed after signing',
      async () => {
        const [header, , signature] = (await es256(claims({ sub: crypto.randomUUID() }))).split('.');
        return `${header}.${b64(claims())}.${signature}`;
      },
    ],
    ['an unknown kid', async () => es256(claims(), await importSigningKey(await generateSigningKey()))],
    ['HS256 signed with the public key (algorithm confusion)', () => hs256(claims(), JSON.stringify(key.publicJwk))],
    ['HS256 signed with the public key coordinates', () => hs256(claims(), Buffer.from(String(key.publicJwk.x), 'base64url'))],
    ['HS256 with a wrong secret', () => hs256(claims(), 'not-the-secret-but-just-as-long-as-it-is-42')],
    ['no subject', () => es256(claims({ sub: undefined }))],
    ['no session', () => es256(claims({ session_id: undefined }))],
    ['an ended session', () => es256(claims({ session_id: crypto.randomUUID() }))],
    ['not a JWT at all', async () => 'definitely-not-a-jwt'],
  ];

  it.each(cases)('%s', async (_name, make) => {
    const answer = await readAsAdmin(await make());
    expect(answer.status).toBe(401);
    const body = await answer.text();
    expect(body).not.toContain('victim@example.test');
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'unauthorized' } });
  });
});
