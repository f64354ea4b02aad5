import * as z from 'zod';
import { isVaultPublicJwk } from './vault-envelope.ts';

/** The request bodies of /api/vaults (decision 181). */

const b64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A PIN verifier: 32 bytes from HKDF of the PBKDF2 output, never the PIN. */
const verifier = b64url(43, 43);

export const vaultRegisterBody = z
  .object({
    id: z.uuid(),
    publicKey: z.custom<JsonWebKey>(isVaultPublicJwk, 'must be an ECDH P-256 public key (JWK)'),
    pinSalt: b64url(22, 64),
    pinIterations: z.number().int().min(1000).max(10_000_000),
    verifier,
    deviceLabel: z.string().max(80).default(''),
  })
  .strict();

export const vaultUnlockBody = z.object({ verifier }).strict();
