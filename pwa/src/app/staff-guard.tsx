import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { NoAccess } from '../components/no-access.tsx';
import { usePageTitle } from '../components/page-title.ts';
import { lookupRole } from '../db/role-lookup.ts';
import { useAuth } from '../lib/auth.tsx';
import { StaffRoleProvider, useStaffAccess } from '../lib/authorization.tsx';

function Checking() {
  usePageTitle('Dashboard');
  return (
    <main className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">Checking your access…</span>
    </main>
  );
}

/**
 * Guards the whole /dashboard: admins and moderators in, with their role provided to the screens below.
 * Signed out: to /login, and back here afterwards. Anyone else stays signed in and is told the dashboard
 * is not for them, with the ways back to the shop (decision 034).
 */
export function StaffGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { access, email, retry } = useStaffAccess(lookupRole);
  const auth = useAuth();
  // The server refused the session (ended elsewhere, or the account removed): not a connection problem.
  const ended = auth.status === 'signedIn' && auth.sessionEnded === true;
  if (access.kind === 'signedOut') return <Navigate to="/login" replace state={{ from: location }} />;
  if (access.kind === 'checking') return <Checking />;
  if (access.kind === 'allowed') return <StaffRoleProvider role={access.role}>{children}</StaffRoleProvider>;
  return (
    <main id="main-content" className="flex min-h-screen items-center justify-center bg-base-200 p-4">
      <div className="card w-full max-w-xl bg-base-100 shadow-sm">
        {access.reason === 'role' ? (
          <NoAccess
            screen="Dashboard"
            title="No access to the dashboard"
            message={`You are signed in as ${email}. The dashboard is where the shop's staff work; your orders and your profile are in the shop.`}
          >
            <Link to="/" className="btn btn-primary">
              Back to the Shop
            </Link>
            <Link to="/my-orders" className="btn btn-outline">
              My Orders
            </Link>
          </NoAccess>
        ) : ended ? (
          <NoAccess
            screen="Dashboard"
            title="Your session has ended"
            message={`Sign in again as ${email || 'before'} to use the dashboard. Everything stays on this device until then.`}
          >
            <Link to="/login" state={{ from: location, reason: 'Your session has ended. Sign in again to sync.' }} className="btn btn-primary">
              Sign In Again
            </Link>
            <Link to="/" className="btn btn-outline">
              Back to the Shop
            </Link>
          </NoAccess>
        ) : (
          <NoAccess
            screen="Dashboard"
            title="Could not check your access"
            message="The server did not say whether this account may use the dashboard. Check your connection and try again."
          >
            <button type="button" className="btn btn-primary" onClick={retry}>
              Try Again
            </button>
            <Link to="/" className="btn btn-outline">
              Back to the Shop
            </Link>
          </NoAccess>
        )}
      </div>
    </main>
  );
}
