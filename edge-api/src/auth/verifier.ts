import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Logger } from '../lib/logger.ts';

export interface TokenClaims {
  sub: string;
  email?: string;
  sessionId?: string;
  /** When the session signed in (ms), from Supabase's `amr` claim; absent when the token does not say. */
  signedInAt?: number;
}

/** The latest sign-in time in an `amr` claim (`[{ method, timestamp }]`, seconds), in ms. */
function signedInAtOf(amr: unknown): number | undefined {
  if (!Array.isArray(amr)) return undefined;
  const times = amr.map((entry) => (entry as { timestamp?: unknown } | null)?.timestamp).filter((t): t is number => typeof t === 'number');
  return times.length > 0 ? Math.max(...times) * 1000 : undefined;
}

export type VerifyToken = (token: string) => Promise<TokenClaims>;

export interface TokenVerifierOptions {
  /** The `iss` Supabase Auth puts in its tokens: `${SUPABASE_URL}/auth/v1`, exactly. */
  issuer: string;
  /** The auth server's public keys (JWKS): ES256 or RS256 signing keys. */
  keys: JWTVerifyGetKey;
  /**
   * The project's legacy JWT secret (SUPABASE_JWT_SECRET), for projects whose tokens are still HS256.
   * Without it an HS256 token is refused.
   */
  hs256Secret?: string;
  logger?: Logger;
  /** For the log's once-a-minute limit. */
  now?: () => number;
}

/** Why a token was refused, in words an operator can act on; never the token. */
export interface TokenRejection {
  reason: string;
  fields: Record<string, unknown>;
  /** Worth a log line: the configuration or the caller is wrong, not merely an old session. */
  notable: boolean;
}

const LOG_EVERY_MS = 60_000;
/**
 * A token whose signature and claims passed is remembered this long (never past its `exp`), so a burst
 * of requests with one token verifies its signature once (decision 071). Shorter than the 10 minutes
 * jose keeps a remote JWKS, so a withdrawn key is not trusted any longer than it already was.
 * Sign-outs are the session check's business (decision 045), asked on every request all the same.
 */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
const VERIFIED_TOKENS_MAX = 1_000;

/** A refusal the session middleware turns into 401. */
export class TokenRejected extends Error {
  readonly rejection: TokenRejection;
  constructor(rejection: TokenRejection) {
    super(rejection.reason);
    this.rejection = rejection;
  }
}

function describe(error: unknown, token: string, options: TokenVerifierOptions): TokenRejection {
  let header: { alg?: string; kid?: string };
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return { reason: 'the bearer token is not a JWT', fields: {}, notable: true };
  }
  const seen = { alg: header.alg, kid: header.kid };
  if (error instanceof errors.JWTExpired) return { reason: 'the token has expired', fields: seen, notable: false };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const payload: JWTPayload = error.payload;
    if (error.claim === 'iss') {
      return {
        reason: `the token's issuer is not ${options.issuer} (SUPABASE_URL + /auth/v1, exactly)`,
        fields: { ...seen, expectedIssuer: options.issuer, tokenIssuer: payload.iss ?? null },
        notable: true,
      };
    }
    if (error.claim === 'aud') {
      return { reason: "the token's audience is not 'authenticated'", fields: { ...seen, tokenAudience: payload.aud ?? null }, notable: true };
    }
    return { reason: `the token's ${error.claim} claim failed: ${error.reason}`, fields: seen, notable: true };
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    const reason =
      header.alg === 'HS256'
        ? 'the token is HS256 (a legacy JWT secret) and SUPABASE_JWT_SECRET is not set'
        : `the token's algorithm ${header.alg ?? '(none)'} is not accepted (ES256, RS256, or HS256 with SUPABASE_JWT_SECRET)`;
    return { reason, fields: seen, notable: true };
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    const reason =
      header.alg === 'HS256' ? 'the token signature does not match SUPABASE_JWT_SECRET' : "the token signature does not match the auth server's published key";
    return { reason, fields: seen, notable: true };
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return { reason: `no key in ${options.issuer}/.well-known/jwks.json has the token's kid`, fields: seen, notable: true };
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error instanceof TypeError) {
    return { reason: `the keys at ${options.issuer}/.well-known/jwks.json could not be read: ${(error as Error).message}`, fields: seen, notable: true };
  }
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) {
    return { reason: `the token is malformed: ${error.message}`, fields: seen, notable: true };
  }
  return { reason: `the token could not be verified: ${error instanceof Error ? error.message : String(error)}`, fields: seen, notable: true };
}

/**
 * Verifies a Supabase access token: its signature (the auth server's JWKS, or the legacy HS256 secret
 * when one is configured), the issuer and the audience. The same code whatever the auth server is.
 * A refusal that points at a configuration mistake is logged with its reason, at most once a minute
 * per reason; the token itself never is.
 */
export function createTokenVerifier(options: TokenVerifierOptions): VerifyToken {
  const secret = options.hs256Secret ? new TextEncoder().encode(options.hs256Secret) : undefined;
  const now = options.now ?? Date.now;
  const lastLogged = new Map<string, { at: number; suppressed: number }>();

  const report = (rejection: TokenRejection) => {
    if (!rejection.notable || !options.logger) return;
    const seen = lastLogged.get(rejection.reason);
    if (seen && now() - seen.at < LOG_EVERY_MS) {
      seen.suppressed += 1;
      return;
    }
    lastLogged.set(rejection.reason, { at: now(), suppressed: 0 });
    options.logger.warn(`auth: token refused: ${rejection.reason}`, { ...rejection.fields, sameRefusalsSinceLastLine: seen?.suppressed ?? 0 });
  };

  const verified = new Map<string, { claims: TokenClaims; until: number }>();

  return async (token) => {
    const known = verified.get(token);
    if (known && Date.now() < known.until) return known.claims;
    const claims = await verify(token);
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.clear();
    verified.set(token, { claims, until: Math.min(Date.now() + VERIFIED_TOKEN_TTL_MS, expiryOf(token)) });
    return claims;
  };

  async function verify(token: string): Promise<TokenClaims> {
    let payload: JWTPayload;
    try {
      const common = { issuer: options.issuer, audience: 'authenticated' };
      const alg = safeAlg(token);
      ({ payload } =
        alg === 'HS256' && secret
          ? await jwtVerify(token, secret, { ...common, algorithms: ['HS256'] })
          : await jwtVerify(token, options.keys, { ...common, algorithms: ['ES256', 'RS256'] }));
    } catch (error) {
      const rejection = describe(error, token, options);
      report(rejection);
      throw new TokenRejected(rejection);
    }
    if (typeof payload.sub !== 'string') {
      const rejection = { reason: 'the token has no subject', fields: {}, notable: true };
      report(rejection);
      throw new TokenRejected(rejection);
    }
    return {
      sub: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      sessionId: typeof payload.session_id === 'string' ? payload.session_id : undefined,
      ...(signedInAtOf(payload.amr) !== undefined && { signedInAt: signedInAtOf(payload.amr) }),
    };
  }
}

/** When a verified token stops being valid, in ms; now when it carries no `exp` (it is then never remembered). */
function expiryOf(token: string): number {
  const exp = (decodeJwt(token) as JWTPayload).exp;
  return typeof exp === 'number' ? exp * 1000 : 0;
}

function safeAlg(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).alg;
  } catch {
    return undefined;
  }
}

export function remoteKeys(authUrl: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(`${authUrl}/.well-known/jwks.json`));
}
