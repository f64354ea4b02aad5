import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  /** The public half as published in the JWKS. */
  publicJwk: JWK;
}

export interface StoredSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function generateSigningKey(): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = crypto.randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] };
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' }, publicJwk };
}

export async function importSigningKey(stored: StoredSigningKey): Promise<SigningKey> {
  const privateKey = (await importJWK(stored.privateJwk, 'ES256')) as CryptoKey;
  return { kid: stored.kid, privateKey, publicJwk: stored.publicJwk };
}

export interface AccessTokenClaims {
  sub: string;
  email: string;
  sessionId: string;
  userMetadata?: Record<string, unknown>;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresIn: number;
}

/** An access token with the claims Supabase Auth puts in its own. */
export function signAccessToken(key: SigningKey, issuer: string, claims: AccessTokenClaims): Promise<string> {
  return new SignJWT({
    email: claims.email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: claims.userMetadata ?? {},
    role: 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: claims.issuedAt }],
    session_id: claims.sessionId,
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.kid })
    .setIssuer(issuer)
    .setSubject(claims.sub)
    .setAudience('authenticated')
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.issuedAt + claims.expiresIn)
    .sign(key.privateKey);
}
