/**
 * A passkey's PRF extension (WebAuthn level 3) as a source of 32 secret bytes for the vault (decision 068):
 * evaluated with the vault's own salt, on this device only; no server takes part, so the challenge is random.
 */
import { fromB64, toB64 } from './vault-crypto.ts';

type PrfResults = { prf?: { enabled?: boolean; results?: { first?: ArrayBuffer } } };

/** Offered only where the browser says it can evaluate PRF (WebAuthn's getClientCapabilities). */
export async function passkeyPrfSupported(): Promise<boolean> {
  const credential = globalThis.PublicKeyCredential as unknown as { getClientCapabilities?: () => Promise<Record<string, boolean>> } | undefined;
  if (!credential?.getClientCapabilities || !navigator.credentials) return false;
  try {
    return (await credential.getClientCapabilities())['extension:prf'] === true;
  } catch {
    return false;
  }
}

const challenge = () => crypto.getRandomValues(new Uint8Array(32));

/** The PRF output of a known passkey (the person confirms with the device's screen lock). */
export async function prfFromPasskey(credentialId: string, salt: string): Promise<ArrayBuffer> {
  const assertion = (await navigator.credentials.get({
    publicKey: {
      challenge: challenge(),
      allowCredentials: [{ type: 'public-key', id: fromB64(credentialId) }],
      userVerification: 'required',
      extensions: { prf: { eval: { first: fromB64(salt) } } } as AuthenticationExtensionsClientInputs,
    },
  })) as PublicKeyCredential | null;
  const first = (assertion?.getClientExtensionResults() as PrfResults | undefined)?.prf?.results?.first;
  if (!first) throw new Error('This passkey gave no secret (PRF) to unlock with');
  return first;
}

/** Makes a passkey for the vault and answers its id and PRF output. */
export async function createPrfPasskey(salt: string, userName: string): Promise<{ credentialId: string; secret: ArrayBuffer }> {
  const created = (await navigator.credentials.create({
    publicKey: {
      challenge: challenge(),
      rp: { name: 'Storefront passwords on this device' },
      user: { id: crypto.getRandomValues(new Uint8Array(16)), name: userName, displayName: userName },
      pubKeyCredParams: [
        { type: 'public-key', alg: -7 },
        { type: 'public-key', alg: -257 },
      ],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      extensions: { prf: { eval: { first: fromB64(salt) } } } as AuthenticationExtensionsClientInputs,
    },
  })) as PublicKeyCredential | null;
  if (!created) throw new Error('No passkey was made');
  const results = created.getClientExtensionResults() as PrfResults;
  if (results.prf?.enabled === false) throw new Error('This passkey cannot unlock the vault (no PRF support)');
  const credentialId = toB64(created.rawId);
  // Some authenticators only evaluate PRF when the passkey is used, not when it is made.
  const secret = results.prf?.results?.first ?? (await prfFromPasskey(credentialId, salt));
  return { credentialId, secret };
}
