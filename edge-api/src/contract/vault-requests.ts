import * as z from 'zod';
import { ECDH_P256, isVaultPublicJwk } from './vault-envelope.ts';

/** The request bodies of /api/vaults (decision 181). */

const b64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A PIN verifier: 32 bytes from HKDF of the PBKDF2 output, never the PIN. */
const verifier = b64url(43, 43);

/**
 * Whether WebCrypto takes the JWK as an ECDH P-256 public key: a key of the right shape whose point is not
 * on the curve would be stored and then fail every answer sealed to it (issue 30 item 6, decision 246).
 */
async function importsAsVaultKey(jwk: JsonWebKey): Promise<boolean> {
  const { kty, crv, x, y } = jwk;
  return crypto.subtle.importKey('jwk', { kty, crv, x, y }, ECDH_P256, false, []).then(
    () => true,
    () => false,
  );
}

export const vaultRegisterBody = z
  .object({
    id: z.uuid(),
    publicKey: z
      .custom<JsonWebKey>(isVaultPublicJwk, 'must be an ECDH P-256 public key (JWK)')
      .refine(importsAsVaultKey, 'must be a point on the P-256 curve (the key does not import)'),
    pinSalt: b64url(22, 64),
    pinIterations: z.number().int().min(1000).max(10_000_000),
    verifier,
    deviceLabel: z.string().max(80).default(''),
  })
  .strict();

export const vaultUnlockBody = z.object({ verifier }).strict();
