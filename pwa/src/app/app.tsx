import { useEffect } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { UpdatePrompt } from '../components/update-prompt.tsx';
import { startSync, wipeUserData } from '../db/sync-engine.ts';
import { AuthProvider, setSignOutCleanup, useAuth } from '../lib/auth.tsx';
import { createRouter } from './router.tsx';

const router = createRouter();

// Signing out deletes the user's data on this device (DESIGN section 6).
setSignOutCleanup(wipeUserData);

function AuthGate() {
  // The spec: the page is not rendered until the initial auth state is known.
  const auth = useAuth();
  const known = auth.status !== 'loading';
  const userId = auth.status === 'signedIn' ? auth.user.id : null;
  const ended = auth.status === 'signedIn' && auth.sessionEnded === true;

  // One sync engine for the whole app, restarted whenever the signed-in user changes, and when an ended
  // session is renewed (the changes kept meanwhile go at once).
  useEffect(() => (known ? startSync(userId) : undefined), [known, userId, ended]);

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
      <RouterProvider router={router} />
      {/* Once for the whole app, whichever layout is showing. */}
      <UpdatePrompt />
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
