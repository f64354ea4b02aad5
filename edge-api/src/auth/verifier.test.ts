import { createLocalJWKSet, SignJWT, type JWTVerifyGetKey } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../lib/logger.ts';
import { generateSigningKey, importSigningKey, signAccessToken, type SigningKey } from './signing-key.ts';
import { createTokenVerifier, TokenRejected, VERIFIED_TOKEN_TTL_MS } from './verifier.ts';

const ISSUER = 'https://abcd.supabase.co/auth/v1';
const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

function recordingLogger() {
  const lines: { message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: () => {},
    warn: (message, fields) => lines.push({ message, fields }),
    error: (message, fields) => lines.push({ message, fields }),
  };
  return { logger, lines, text: () => JSON.stringify(lines) };
}

const newKey = async () => importSigningKey(await generateSigningKey());
const es256 = (key: SigningKey, claims: { issuer?: string; expiresIn?: number; issuedAt?: number } = {}) =>
  signAccessToken(key, claims.issuer ?? ISSUER, {
    sub: crypto.randomUUID(),
    email: 'someone@example.test',
    sessionId: crypto.randomUUID(),
    issuedAt: claims.issuedAt ?? Math.floor(Date.now() / 1000),
    expiresIn: claims.expiresIn ?? 3600,
  });
/** What a Supabase project on the legacy JWT secret issues. */
const hs256 = (secret: string, claims: { issuer?: string; audience?: string } = {}) =>
  new SignJWT({ email: 'legacy@example.test', role: 'authenticated', session_id: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(claims.issuer ?? ISSUER)
    .setSubject(crypto.randomUUID())
    .setAudience(claims.audience ?? 'authenticated')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (cause: unknown) => cause,
  );
  expect(error).toBeInstanceOf(TokenRejected);
  return (error as TokenRejected).rejection;
}

describe('the token verifier', () => {
  it('takes ES256 tokens from the JWKS and, with SUPABASE_JWT_SECRET, HS256 tokens beside them', async () => {
    const key = await newKey();
    const keys = createLocalJWKSet({ keys: [key.publicJwk] });
    const verify = createTokenVerifier({ issuer: ISSUER, keys, hs256Secret: SECRET });
    const modern = await es256(key);
    expect((await verify(modern)).email).toBe('someone@example.test');
    const legacy = await verify(await hs256(SECRET));
    expect(legacy.email).toBe('legacy@example.test');
    expect(legacy.sessionId).toBeTypeOf('string');
  });

  it('refuses an HS256 token without the secret, saying SUPABASE_JWT_SECRET is missing', async () => {
    const log = recordingLogger();
    const verify = createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [(await newKey()).publicJwk] }), logger: log.logger });
    const token = await hs256(SECRET);
    expect((await refusal(verify(token))).reason).toMatch(/HS256.*SUPABASE_JWT_SECRET is not set/);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.message).toMatch(/SUPABASE_JWT_SECRET is not set/);
    expect(log.text()).not.toContain(token);
  });

  it('logs a wrong issuer with the expected and the received issuer, and a wrong audience, never the token', async () => {
    const key = await newKey();
    const log = recordingLogger();
    const verify = createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }), hs256Secret: SECRET, logger: log.logger });
    const elsewhere = await es256(key, { issuer: 'https://abcd.supabase.co' });
    const rejection = await refusal(verify(elsewhere));
    expect(rejection.reason).toContain(`issuer is not ${ISSUER}`);
    expect(rejection.fields).toMatchObject({ expectedIssuer: ISSUER, tokenIssuer: 'https://abcd.supabase.co' });
    const wrongAudience = await hs256(SECRET, { audience: 'anon' });
    expect((await refusal(verify(wrongAudience))).reason).toMatch(/audience is not 'authenticated'/);
    expect(log.lines.map((line) => line.message)).toEqual([
      expect.stringContaining(`issuer is not ${ISSUER}`),
      expect.stringContaining("audience is not 'authenticated'"),
    ]);
    expect(log.text()).not.toContain(elsewhere);
    expect(log.text()).not.toContain(wrongAudience);
  });

  it('logs signatures that do not match the published key or the secret', async () => {
    const published = await newKey();
    const impostor = await newKey();
    const log = recordingLogger();
    const verify = createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [published.publicJwk] }), hs256Secret: SECRET, logger: log.logger });
    // Another private key under the published kid.
    const forged = await es256({ ...impostor, kid: published.kid });
    expect((await refusal(verify(forged))).reason).toMatch(/does not match the auth server's published key/);
    expect((await refusal(verify(await hs256('another-secret-of-at-least-32-characters!')))).reason).toMatch(/does not match SUPABASE_JWT_SECRET/);
    expect((await refusal(verify(await es256(impostor)))).reason).toMatch(/no key in .*jwks\.json has the token's kid/);
    expect((await refusal(verify('not-a-jwt'))).reason).toMatch(/not a JWT/);
    expect(log.lines).toHaveLength(4);
  });

  it('does not log an expired session, the ordinary case', async () => {
    const key = await newKey();
    const log = recordingLogger();
    const verify = createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }), logger: log.logger });
    const old = await es256(key, { issuedAt: Math.floor(Date.now() / 1000) - 7200, expiresIn: 3600 });
    expect((await refusal(verify(old))).reason).toMatch(/expired/);
    expect(log.lines).toEqual([]);
  });

  it('logs one reason at most once a minute, counting the refusals in between', async () => {
    let now = 0;
    const log = recordingLogger();
    const verify = createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [(await newKey()).publicJwk] }), logger: log.logger, now: () => now });
    const token = await hs256(SECRET);
    for (let i = 0; i < 5; i++) await refusal(verify(token));
    expect(log.lines).toHaveLength(1);
    now += 61_000;
    await refusal(verify(token));
    expect(log.lines).toHaveLength(2);
    expect(log.lines[1]!.fields).toMatchObject({ sameRefusalsSinceLastLine: 4 });
  });

  describe('remembering verified tokens (decision 071)', () => {
    afterEach(() => vi.useRealTimers());
    /** The JWKS, counting how often a signature needed a key. */
    const countingKeys = (key: SigningKey) => {
      const jwks = createLocalJWKSet({ keys: [key.publicJwk] });
      const counted: { lookups: number; keys: JWTVerifyGetKey } = {
        lookups: 0,
        keys: (header, token) => {
          counted.lookups += 1;
          return jwks(header, token);
        },
      };
      return counted;
    };

    it('checks a token once, then again after the memory lapses', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const key = await newKey();
      const counted = countingKeys(key);
      const verify = createTokenVerifier({ issuer: ISSUER, keys: counted.keys });
      const token = await es256(key);
      const first = await verify(token);
      expect(await verify(token)).toEqual(first);
      expect(counted.lookups).toBe(1);
      // Another token of the same key is checked on its own.
      await verify(await es256(key));
      expect(counted.lookups).toBe(2);
      vi.setSystemTime(Date.now() + VERIFIED_TOKEN_TTL_MS + 1);
      expect(await verify(token)).toEqual(first);
      expect(counted.lookups).toBe(3);
    });

    it('never answers from memory for a token past its expiry', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const key = await newKey();
      const verify = createTokenVerifier({ issuer: ISSUER, keys: createLocalJWKSet({ keys: [key.publicJwk] }) });
      // Expires well inside the memory's own time.
      const token = await es256(key, { expiresIn: 10 });
      await verify(token);
      vi.setSystemTime(Date.now() + 11_000);
      expect((await refusal(verify(token))).reason).toMatch(/expired/);
    });
  });
});
