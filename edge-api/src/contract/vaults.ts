/**
 * The server's half of a device vault (decision 181): the device registers its vault with a PIN verifier
 * and gets a random pepper back; the wrapping key of the vault's private key needs both the PIN and the
 * pepper, and the server gives the pepper only for the right verifier, counting wrong ones.
 * Without zod (the device imports it; the request schemas are in vault-requests.ts).
 */

/** Wrong PINs in a row after which the server destroys the vault's pepper. */
export const VAULT_MAX_WRONG_PINS = 5;
/** How long an unlock token proves the PIN (the device's own idle lock is as long). */
export const VAULT_UNLOCK_TOKEN_MS = 5 * 60_000;
/** The header a device sends to have delivered secrets sealed to its vault (decision 182). */
export const VAULT_ID_HEADER = 'x-vault-id';
/** The header carrying an unlock token. */
export const VAULT_UNLOCK_HEADER = 'x-vault-unlock';

/** A vault as its owner lists it: nothing secret. */
export interface VaultSummary {
  id: string;
  pinSalt: string;
  pinIterations: number;
  deviceLabel: string;
  wrongTries: number;
  destroyed: boolean;
  createdAt: string;
}

export interface VaultRegistered {
  pepper: string;
}

export interface VaultUnlocked {
  pepper: string;
  unlockToken: string;
  expiresAt: string;
}
