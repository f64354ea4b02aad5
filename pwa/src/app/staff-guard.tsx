import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { Role, User } from '../../../edge-api/src/contract.ts';
import { getUserDb } from '../db/local-db.ts';
import { api, ApiRequestError, unwrap } from '../lib/api-client.ts';
import { signOut, useAuth } from '../lib/auth.tsx';

export type StaffRole = Extract<Role, 'admin' | 'moderator'>;

/** What the role fetch gave for one user id. */
export type RoleLookup =
  | { uid: string; kind: 'role'; role: Role }
  /** The server answered with an error (401, 403, 404, 5xx): the spec logs the user out. */
  | { uid: string; kind: 'failed' }
  /** No answer at all (offline): the user record synced to this device decides, if there is one. */
  | { uid: string; kind: 'unreachable'; localUser: User | null };

export type Access = { kind: 'checking' } | { kind: 'allowed'; role: StaffRole } | { kind: 'denied' };

const asStaffRole = (role: Role | undefined): StaffRole | null => (role === 'admin' || role === 'moderator' ? role : null);

/**
 * The spec's guard, made to work offline: the role comes from GET /api/users/{uid}; a non-staff role or a
 * failed fetch denies. When the server cannot be reached at all, the user record synced to this device
 * decides, so an admin's tablet keeps working through an outage.
 */
export function decideAccess(uid: string, lookup: RoleLookup | undefined): Access {
  if (!lookup || lookup.uid !== uid) return { kind: 'checking' };
  let role: StaffRole | null = null;
  if (lookup.kind === 'role') role = asStaffRole(lookup.role);
  else if (lookup.kind === 'unreachable' && lookup.localUser?.uid === uid) role = asStaffRole(lookup.localUser.userRole);
  return role ? { kind: 'allowed', role } : { kind: 'denied' };
}

const StaffRoleContext = createContext<StaffRole | null>(null);

/** The signed-in staff member's role, inside the dashboard. */
export function useStaffRole(): StaffRole {
  const role = use(StaffRoleContext);
  if (!role) throw new Error('useStaffRole() needs the <StaffGuard> above it');
  return role;
}

async function lookupRole(uid: string): Promise<RoleLookup> {
  const offline = async (): Promise<RoleLookup> => ({ uid, kind: 'unreachable', localUser: (await getUserDb(uid).users.get(uid)) ?? null });
  if (typeof navigator !== 'undefined' && !navigator.onLine) return offline();
  try {
    const user = await unwrap(api.users[':uid'].$get({ param: { uid } }));
    return { uid, kind: 'role', role: user.userRole };
  } catch (error) {
    return error instanceof ApiRequestError ? { uid, kind: 'failed' } : offline();
  }
}

function Checking() {
  return (
    <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">Checking your access…</span>
    </div>
  );
}

/** Guards the whole /dashboard: admins and moderators in; anyone else is signed out and sent to /login. */
export function StaffGuard({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status !== 'signedIn') return <Navigate to="/login" replace state={{ from: location }} />;
  return <SignedInGuard uid={auth.user.id}>{children}</SignedInGuard>;
}

function SignedInGuard({ uid, children }: { uid: string; children: ReactNode }) {
  const navigate = useNavigate();
  const [lookup, setLookup] = useState<RoleLookup>();

  useEffect(() => {
    let cancelled = false;
    lookupRole(uid)
      .catch((): RoleLookup => ({ uid, kind: 'failed' }))
      .then((result) => {
        if (!cancelled) setLookup(result);
      });
    return () => {
      cancelled = true;
    };
  }, [uid]);

  const access = decideAccess(uid, lookup);

  useEffect(() => {
    if (access.kind !== 'denied') return;
    let cancelled = false;
    signOut(uid)
      .catch((error: unknown) => console.warn('Sign-out after a denied dashboard visit failed', error))
      .finally(() => {
        if (!cancelled) navigate('/login', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [access.kind, uid, navigate]);

  if (access.kind !== 'allowed') return <Checking />;
  return <StaffRoleContext value={access.role}>{children}</StaffRoleContext>;
}
