import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAuth } from '../lib/auth.tsx';
import { useSyncStatus } from '../db/sync-status.ts';
import { changesCount as changes } from '../lib/format.ts';

// The list of refused changes loads when there is one: it is not part of every page's first load.
const FailedChanges = lazy(() => import('./failed-changes.tsx').then((m) => ({ default: m.FailedChanges })));

/** The auth server ended the session: the user's data and changes stay here until they sign in again. */
function SessionEnded({ email, unsent }: { email: string; unsent: number }) {
  const location = useLocation();
  return (
    <div className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 bg-warning px-4 py-2 text-center text-sm text-warning-content">
      <strong>Your session has ended.</strong>
      <span>
        Sign in again as {email || 'before'} to sync{unsent > 0 ? ` your ${changes(unsent)}` : ''}. Everything stays on this device until then.
      </span>
      <Link to="/login" state={{ from: location, reason: 'Your session has ended. Sign in again to sync.' }} className="btn btn-xs">
        Sign In Again
      </Link>
    </div>
  );
}

/**
 * Whether the app is offline, whether the session has ended (the data stays until the user signs in again
 * or discards it), how many changes wait to sync, and the ones the server refused.
 */
export function OfflineBanner() {
  const { userId, online, pendingCount, failed, lastError } = useSyncStatus();
  const auth = useAuth();

  return (
    <div className="empty:hidden" role="status" aria-live="polite">
      {auth.status === 'signedIn' && auth.sessionEnded === true && <SessionEnded email={auth.user.email} unsent={pendingCount + failed.length} />}
      {!online && (
        <div className="flex flex-wrap items-center justify-center gap-x-2 bg-warning px-4 py-2 text-center text-sm text-warning-content">
          <strong>You are offline.</strong>
          <span>Showing the data saved on this device.</span>
          {pendingCount > 0 && <span>{changes(pendingCount)} waiting to sync.</span>}
        </div>
      )}
      {online && pendingCount > 0 && (
        <div className="bg-info px-4 py-2 text-center text-sm text-info-content">
          {changes(pendingCount)} waiting to sync{lastError ? `: ${lastError}` : '…'}
        </div>
      )}
      {userId && failed.length > 0 && (
        <Suspense fallback={null}>
          <FailedChanges userId={userId} failed={failed} />
        </Suspense>
      )}
    </div>
  );
}
