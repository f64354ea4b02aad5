import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useUserDb } from '../db/hooks.ts';
import { isDeviceSealed } from '../db/device-seal.ts';
import { isSealed, isVaultSealed, isVaultUnlocked, openSealedValue, readVault, subscribeVault, vaultVersion } from '../db/vault-session.ts';
import { useAuth } from '../lib/auth.tsx';
import type { PinDialogMode } from './vault-pin-dialog.tsx';

// The dialog (and the sync engine it wakes) loads when it is first opened.
const LazyPinDialog = lazy(() => import('./vault-pin-dialog.tsx').then((m) => ({ default: m.VaultPinDialog })));

/** This device's vault for the signed-in user: off (false), on (true), or not read yet (undefined); and unlocked or not. */
export function useVaultState(): { on: boolean | undefined; unlocked: boolean; passkey: boolean } {
  const db = useUserDb();
  useSyncExternalStore(subscribeVault, vaultVersion, vaultVersion);
  const record = useLiveQuery(async () => (db ? ((await readVault(db)) ?? null) : null), [db]);
  return { on: record === undefined ? undefined : record !== null, unlocked: db ? isVaultUnlocked(db) : false, passkey: !!record?.passkey };
}

/** A secret as the device holds it: `open` answers it in clear (a sealed one only while the vault is unlocked). */
export function useSecret(value: string | undefined): { sealed: boolean; locked: boolean; open: () => Promise<string> } {
  const { sealed, locked, open } = useSealedValue(value);
  return { sealed, locked, open: async () => (sealed ? String(await open()) : (value ?? '')) };
}

/**
 * A secret sealed with the device key (decision 254), opened as soon as it is shown on screen: the vault is
 * off, so it needs no PIN, and its Copy button works at once, as it did for the clear value. Null until
 * opened, and for anything else (in clear, or sealed to the vault, which opens on Show).
 */
export function useDeviceOpened(value: string | undefined): string | null {
  const db = useUserDb();
  const [opened, setOpened] = useState<{ value: string; text: string } | null>(null);
  useEffect(() => {
    if (!db || !isDeviceSealed(value)) return;
    let current = true;
    openSealedValue(db, value).then(
      (text) => current && setOpened({ value, text: String(text) }),
      (error: unknown) => console.warn('Could not open a secret sealed on this device', error),
    );
    return () => {
      current = false;
    };
  }, [db, value]);
  return opened && opened.value === value ? opened.text : null;
}

/** Any sealed value (a list of delivered lines, say): `open` answers it as it was before sealing. */
export function useSealedValue(value: unknown): { sealed: boolean; locked: boolean; open: () => Promise<unknown> } {
  const db = useUserDb();
  useSyncExternalStore(subscribeVault, vaultVersion, vaultVersion);
  const sealed = isSealed(value);
  return {
    sealed,
    // Sealed with the device key while the vault is off (decision 254): opened without a PIN.
    locked: isVaultSealed(value) && (!db || !isVaultUnlocked(db)),
    open: async () => (sealed && db ? openSealedValue(db, value) : value),
  };
}

/** The PIN dialog, loaded on first use. */
export function VaultDialog({ mode, onClose, onDone }: { mode: PinDialogMode; onClose: () => void; onDone?: () => void }) {
  const auth = useAuth();
  const db = useUserDb();
  if (auth.status !== 'signedIn' || !db) return null;
  return (
    <Suspense fallback={null}>
      <LazyPinDialog mode={mode} db={db} userId={auth.user.id} onClose={onClose} onDone={onDone} />
    </Suspense>
  );
}
