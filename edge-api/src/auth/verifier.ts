import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

export interface TokenClaims {
  sub: string;
  email?: string;
  sessionId?: string;
}

export type VerifyToken = (token: string) => Promise<TokenClaims>;

/**
 * Verifies a Supabase access token: the key from the auth server's JWKS, the issuer and the audience.
 * The same code whatever the auth server is; only where the keys come from differs.
 */
export function createTokenVerifier(options: { issuer: string; keys: JWTVerifyGetKey }): VerifyToken {
  return async (token) => {
    const { payload } = await jwtVerify(token, options.keys, {
      issuer: options.issuer,
      audience: 'authenticated',
      algorithms: ['ES256', 'RS256'],
    });
    if (typeof payload.sub !== 'string') throw new Error('token has no subject');
    return {
      sub: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      sessionId: typeof payload.session_id === 'string' ? payload.session_id : undefined,
    };
  };
}

export function remoteKeys(authUrl: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(`${authUrl}/.well-known/jwks.json`));
}
