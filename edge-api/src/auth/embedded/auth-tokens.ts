import bcrypt from 'bcryptjs';
import type { Context } from 'hono';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { signAccessToken, type SigningKey } from '../signing-key.ts';
import { BCRYPT_COST, findAuthUserById, findSession, type AuthUserRow, type SessionMethod } from './auth-store.ts';
import { AuthFailure, bearerToken } from './auth-requests.ts';
import { toAuthUser } from './auth-user.ts';

/** The signed-in caller: its account, its session, and how and when that session began. */
export interface Caller {
  user: AuthUserRow;
  sessionId: string;
  method: SessionMethod;
  startedAt: Date;
}

export interface AuthTokens {
  /** A valid access token whose user and session still exist, else GoTrue's 401/403. */
  authenticate(c: Context): Promise<Caller>;
  /** GoTrue's session answer: a new access token, the refresh token, the user. */
  tokenResponse(
    user: AuthUserRow,
    sessionId: string,
    refreshToken: string,
  ): Promise<Record<string, unknown> & { access_token: string; refresh_token: string; expires_at: number; expires_in: number; token_type: string }>;
  /** Public keys only. */
  jwks(): { keys: JWK[] };
}

export interface AuthTokenOptions {
  db: Kysely<Database>;
  key: SigningKey;
  issuer: string;
  anonKey: string;
  clock: () => Date;
  accessTokenSeconds: number;
  legacyJwtSecret?: string;
}

/** ES256 access tokens with a kid (and, for a stand-in only, the legacy HS256 secret on the way in). */
export function createAuthTokens(options: AuthTokenOptions): AuthTokens {
  const { db, key, issuer, anonKey, clock, accessTokenSeconds } = options;
  const jwks = () => ({ keys: [key.publicJwk] });
  const legacySecret = options.legacyJwtSecret ? new TextEncoder().encode(options.legacyJwtSecret) : undefined;
  const localKeys = createLocalJWKSet(jwks());

  const verifiedClaims = async (bearer: string) => {
    try {
      const checks = { issuer, audience: 'authenticated', currentDate: clock() };
      const { payload } =
        legacySecret && decodeProtectedHeader(bearer).alg === 'HS256'
          ? await jwtVerify(bearer, legacySecret, { ...checks, algorithms: ['HS256'] })
          : await jwtVerify(bearer, localKeys, { ...checks, algorithms: ['ES256'] });
      return { sub: payload.sub, sessionId: payload.session_id };
    } catch {
      throw new AuthFailure(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is expired or has invalid claims');
    }
  };

  return {
    jwks,
    async authenticate(c) {
      const bearer = bearerToken(c);
      if (!bearer || bearer === anonKey) throw new AuthFailure(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
      const { sub, sessionId } = await verifiedClaims(bearer);
      if (typeof sub !== 'string' || typeof sessionId !== 'string') throw new AuthFailure(403, 'bad_jwt', 'invalid JWT: missing sub or session_id claim');
      const user = await findAuthUserById(db, sub);
      if (!user) throw new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      const session = await findSession(db, sessionId, user.id);
      if (!session) throw new AuthFailure(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
      return { user, sessionId, ...session };
    },
    async tokenResponse(user, sessionId, refreshToken) {
      const issuedAt = Math.floor(clock().getTime() / 1000);
      const accessToken = await signAccessToken(key, issuer, {
        sub: user.id,
        email: user.email,
        sessionId,
        userMetadata: user.user_metadata,
        issuedAt,
        expiresIn: accessTokenSeconds,
      });
      return {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: accessTokenSeconds,
        expires_at: issuedAt + accessTokenSeconds,
        refresh_token: refreshToken,
        user: toAuthUser(user),
      };
    },
  };
}

// Unknown emails still cost one bcrypt comparison, so response times do not reveal who has an account.
let dummyHash: Promise<string> | undefined;

export async function passwordMatches(password: string, hash: string | undefined): Promise<boolean> {
  if (hash) return bcrypt.compare(password, hash);
  dummyHash ??= bcrypt.hash(crypto.randomUUID(), BCRYPT_COST);
  await bcrypt.compare(password, await dummyHash);
  return false;
}
