import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSyncStatus } from '../db/sync-status.ts';
import { signOut, useAuth } from '../lib/auth.tsx';
import { useConfirm } from './confirm-dialog.tsx';

/**
 * Signing out from a layout's Logout button: asks first when changes made on this device have not
 * reached the server (signing out deletes them), then signs out and goes to the home page.
 */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const auth = useAuth();
  const userId = auth.status === 'signedIn' ? auth.user.id : undefined;
  const { pendingCount, failed } = useSyncStatus();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const run = async () => {
    if (pendingCount + failed.length > 0) {
      const proceed = await confirm({
        title: 'Sign out with unsynced changes?',
        text: 'Some of your changes have not reached the server yet. Signing out deletes them from this device and they will be lost.',
        confirmLabel: 'Sign Out Anyway',
        danger: true,
      });
      if (!proceed) return;
    }
    setSigningOut(true);
    try {
      await signOut(userId);
    } catch (error) {
      console.warn('Logout failed', error);
    } finally {
      setSigningOut(false);
    }
    navigate('/', { replace: true });
  };

  return { signOut: run, signingOut };
}
