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
    const unsent = pendingCount + failed.length;
    if (unsent > 0) {
      const what = unsent === 1 ? '1 change' : `${unsent} changes`;
      const parts = [pendingCount > 0 ? `${pendingCount} waiting to sync` : '', failed.length > 0 ? `${failed.length} refused by the server` : ''].filter(Boolean);
      const proceed = await confirm({
        title: `Sign out and discard ${what}?`,
        text: `${what} made on this device ${unsent === 1 ? 'has' : 'have'} not reached the server (${parts.join(', ')}). Signing out deletes ${unsent === 1 ? 'it' : 'them'} from this device. Stay signed in to send ${unsent === 1 ? 'it' : 'them'} when the connection is back.`,
        confirmLabel: `Discard ${what} and Sign Out`,
        cancelLabel: 'Stay Signed In',
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
