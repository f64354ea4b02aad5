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
 * A value sealed with the device key (decision 254), opened as soon as it is on screen: the vault is off, so
 * it needs no PIN, and a password's Copy or a list of lines works at once, as in clear. `undefined` while it
 * opens, then the value in clear; null for a value not sealed so, or one that would not open (Show says why).
 */
export function useDeviceOpened(value: unknown): unknown {
  const db = useUserDb();
  const [opened, setOpened] = useState<{ from: unknown; to: unknown } | null>(null);
  useEffect(() => {
    if (!db || !isDeviceSealed(value)) return;
    let current = true;
    openSealedValue(db, value).then(
      (clear) => current && setOpened({ from: value, to: clear }),
      (error: unknown) => {
        console.warn('Could not open a secret sealed on this device', error);
        if (current) setOpened({ from: value, to: null });
      },
    );
    return () => {
      current = false;
    };
  }, [db, value]);
  if (!db || !isDeviceSealed(value)) return null;
  return opened?.from === value ? opened.to : undefined;
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
