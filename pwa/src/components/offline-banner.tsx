import { Link, useLocation } from 'react-router-dom';
import type { OutboxEntry } from '../db/local-db.ts';
import { useAuth } from '../lib/auth.tsx';
import { loadDevice } from '../db/device.ts';
import { shortId } from '../lib/format.ts';
import { useSyncStatus } from '../db/sync-status.ts';

const changeLabels: Record<OutboxEntry['name'], string> = {
  placeOrder: 'New order',
  setOrderStatus: 'Order status change',
  setPaymentStatus: 'Payment status change',
  deliverOrder: 'Credentials delivery',
  setStockStatus: 'Wise stock status change',
  cancelOrder: 'Order cancellation',
  sendPaymentProof: 'Payment proof',
  reportProblem: 'Problem report',
  declineReport: 'Problem report answer',
  logReveal: 'Password view',
};

const changes = (count: number) => (count === 1 ? '1 change' : `${count} changes`);

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
        <details className="bg-error px-4 py-2 text-sm text-error-content">
          <summary className="cursor-pointer text-center font-semibold">
            {changes(failed.length)} could not be saved. Show details
          </summary>
          <ul className="mx-auto mt-2 flex max-w-3xl flex-col gap-2">
            {failed.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center gap-2 rounded bg-base-100 p-2 text-base-content">
                <span className="flex-1">
                  <strong>{changeLabels[entry.name]}</strong>
                  {entry.target && <span className="font-mono"> #{shortId(entry.target.id)}</span>}: {entry.error ?? 'Refused by the server'}
                </span>
                <button type="button" className="btn btn-xs btn-primary" onClick={() => void loadDevice().then((device) => device.retryFailed(userId, entry.id).saved.catch(() => {}))}>
                  Retry
                </button>
                <button type="button" className="btn btn-xs" onClick={() => void loadDevice().then((device) => device.dismissFailed(userId, entry.id))}>
                  Dismiss
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
