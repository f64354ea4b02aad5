/**
 * The headers that tell the server about this device's vault (decision 182): `X-Vault-Id` so delivered
 * secrets come sealed to it (never in clear to a device whose vault is on), and `X-Vault-Unlock` while an
 * unlock token lives. Set by db/vault-session.ts, sent by every API client.
 */
import { VAULT_ID_HEADER, VAULT_UNLOCK_HEADER } from '../../../edge-api/src/contract/vaults.ts';

let current: { vaultId: string | null; token: string | null; tokenUntil: number } = { vaultId: null, token: null, tokenUntil: 0 };

export function setVaultHeaders(next: { vaultId: string | null; token?: string | null; tokenUntil?: number }): void {
  current = { vaultId: next.vaultId, token: next.token ?? null, tokenUntil: next.tokenUntil ?? 0 };
}

/** The vault is locked: its id still goes along, its token no more. */
export function dropVaultToken(): void {
  current = { ...current, token: null, tokenUntil: 0 };
}

export function vaultHeaders(now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {};
  if (current.vaultId) headers[VAULT_ID_HEADER] = current.vaultId;
  if (current.token && now < current.tokenUntil) headers[VAULT_UNLOCK_HEADER] = current.token;
  return headers;
}
