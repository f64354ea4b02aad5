import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { UpdatePrompt } from '../components/update-prompt.tsx';
import { loadDevice, withDevice } from '../db/device.ts';
import { useSyncStatus } from '../db/sync-status.ts';
import { AuthProvider, reportSessionWorks, setSignOutCleanup, useAuth } from '../lib/auth.tsx';
import { createRouter } from './router.tsx';

// Made on first use, not when this module is evaluated, and started (listening to the address, loading the
// page's code) apart from its making: app-start.tsx puts each in a task of its own on a server-rendered
// page (decision 070).
let made: ReturnType<typeof createRouter> | undefined;
let started = false;
/** Makes the router, without starting it. */
export function makeRouter(): void {
  made ??= createRouter();
}
function theRouter() {
  makeRouter();
  if (!started) {
    started = true;
    made!.initialize();
  }
  return made!;
}

/** Resolves once the first route's code has loaded, so the app's first render is the page, not a spinner. */
export function routerReady(): Promise<void> {
  const router = theRouter();
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

// Signing out deletes the user's data on this device (DESIGN section 6).
// The sync engine and Dexie load after the first paint (decision 052).
setSignOutCleanup(async (userId) => (await loadDevice()).wipeUserData(userId));

/**
 * An ended session (decision 040) that the server takes again: once a sync of this user's goes through
 * after the session was said to have ended (its queued changes sent), the banner clears itself (issue 33
 * item 6). A sync that was already done before does not count: only one finished after the end.
 */
function SessionRenewal({ userId }: { userId: string }) {
  const sync = useSyncStatus();
  const [endedAt] = useState(() => new Date().toISOString());
  const sent = sync.userId === userId && !sync.syncing && sync.lastError === null && sync.pendingCount === 0 && (sync.lastSyncedAt ?? '') > endedAt;
  useEffect(() => {
    if (sent) reportSessionWorks(userId);
  }, [sent, userId]);
  return null;
}

function AuthGate() {
  // The spec: the page is not rendered until the initial auth state is known.
  const auth = useAuth();
  const known = auth.status !== 'loading';
  const userId = auth.status === 'signedIn' ? auth.user.id : null;
  const ended = auth.status === 'signedIn' && auth.sessionEnded === true;

  // One sync engine for the whole app, restarted whenever the signed-in user changes, and when an ended
  // session is renewed (the changes kept meanwhile go at once). It loads after the first paint (decision 052).
  useEffect(() => {
    if (!known) return undefined;
    let stop: (() => void) | undefined;
    let stopped = false;
    withDevice((device) => {
      if (!stopped) stop = device.startSync(userId);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [known, userId, ended]);

  if (!known) {
    return (
      <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
        <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
        <span className="sr-only">Loading…</span>
      </div>
    );
  }
  return (
    <>
      <RouterProvider router={theRouter()} />
      {/* Once for the whole app, whichever layout is showing. */}
      <UpdatePrompt />
      {ended && userId && <SessionRenewal userId={userId} />}
    </>
  );
}

export function App() {
  return (
    <AuthProvider>
      <ToastProvider>
        <ConfirmProvider>
          <AuthGate />
        </ConfirmProvider>
      </ToastProvider>
    </AuthProvider>
  );
}
