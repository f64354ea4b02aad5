import type { Generated, Selectable } from 'kysely';
/** The server's half of a device vault (decision 181): see migrations/2026-11-29-0330_device_vaults.ts. */
export interface DeviceVaultsTable {
  id: string;
  user_id: string;
  public_key: JsonWebKey;
  pin_salt: string;
  pin_iterations: number;
  verifier_hash: string;
  pepper_enc: string | null;
  wrong_tries: Generated<number>;
  device_label: Generated<string>;
  created_at: Generated<Date>;
  last_unlock_at: Date | null;
  destroyed_at: Date | null;
}
export type DeviceVaultRow = Selectable<DeviceVaultsTable>;
