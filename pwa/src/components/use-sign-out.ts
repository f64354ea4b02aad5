import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { loadDevice } from '../db/device.ts';
import { useSyncStatus } from '../db/sync-status.ts';
import { signOut, useAuth } from '../lib/auth.tsx';
import { changesCount as changes } from '../lib/format.ts';
import { useChoose, type Choice } from './confirm-dialog.tsx';
import { useToast } from './toast.tsx';

/**
 * Signing out from a layout's Logout button. When changes made on this device have not reached the
 * server (signing out deletes them), it asks first: send them now (sign out only if every one went),
 * discard them and sign out, or stay signed in. Then it signs out and goes to the home page.
 */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const auth = useAuth();
  const userId = auth.status === 'signedIn' ? auth.user.id : undefined;
  const { pendingCount, failed } = useSyncStatus();
  const choose = useChoose();
  const toast = useToast();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  // The push code that Logout runs first is fetched while signed in, after the page has loaded, so the
  // tap does not wait for it (it stays out of the first load all the same).
  useEffect(() => {
    if (userId) void import('../lib/web-push.ts').catch(() => undefined);
  }, [userId]);

  const finish = async () => {
    // Home first: a screen that needs a user, still open when the auth state changes, would send the
    // person to registration. And home again once signed out, in case such a screen's redirect ran
    // while the home page's code was still loading and cancelled the first navigation.
    void navigate('/', { replace: true });
    // While the token still works: this device's push subscription goes (decision 067). Loaded here, at
    // the tap: the API client it needs stays out of the public pages' first load (decision 052).
    await (await import('../lib/web-push.ts')).removePushOnSignOut();
    try {
      await signOut(userId);
    } catch (error) {
      console.warn('Logout failed', error);
    }
    await navigate('/', { replace: true });
  };

  /** Pushes the outbox, then signs out only if nothing is left in it; otherwise says why and stays. */
  const sendThenSignOut = async () => {
    // The device's database and sync engine load after the first paint (decision 052): never statically here.
    const device = await loadDevice();
    let unreachable = '';
    try {
      await device.getSyncEngine().syncNow();
    } catch (error) {
      unreachable = error instanceof Error && error.message ? error.message : 'The server could not be reached.';
    }
    const left = userId ? await device.getUserDb(userId).outbox.toArray() : [];
    if (left.length === 0) return finish();
    const refused = left.filter((entry) => entry.status === 'failed').length;
    const why =
      refused > 0
        ? `${changes(refused)} refused by the server: open ${refused === 1 ? 'it' : 'them'} to retry or discard.`
        : unreachable || 'Try again in a moment.';
    toast.error(`${changes(left.length)} not sent, so you are still signed in. ${why}`, 8000);
  };

  const run = async () => {
    const unsent = pendingCount + failed.length;
    let choice: Choice = 'confirm';
    if (unsent > 0) {
      const what = changes(unsent);
      const parts = [pendingCount > 0 ? `${pendingCount} waiting to sync` : '', failed.length > 0 ? `${failed.length} refused by the server` : ''].filter(
        Boolean,
      );
      const it = unsent === 1 ? 'it' : 'them';
      choice = await choose({
        title: `Send or discard ${what} before signing out?`,
        text: `${what} made on this device ${unsent === 1 ? 'has' : 'have'} not reached the server (${parts.join(', ')}). Signing out deletes ${it} from this device. Send ${it} now (you are signed out once the server has ${unsent === 1 ? 'it' : 'them all'}), discard ${it} and sign out, or stay signed in.`,
        alternativeLabel: `Send ${what} Now`,
        confirmLabel: `Discard ${what} and Sign Out`,
        cancelLabel: 'Stay Signed In',
        danger: true,
      });
    }
    if (choice === 'cancel') return;
    setSigningOut(true);
    try {
      await (choice === 'alternative' ? sendThenSignOut() : finish());
    } finally {
      setSigningOut(false);
    }
  };

  return { signOut: run, signingOut };
}
