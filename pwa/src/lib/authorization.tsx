/**
 * Who may do what in the dashboard, as data (after bulletproof-react's lib/authorization.tsx). The route
 * guard decides the signed-in person's role and provides it; screens ask `can(...)`. The server checks
 * every call again: this only decides what a screen offers.
 */
import { createContext, use, useCallback, useEffect, useState, type ReactNode } from 'react';
import { isStaffRole, type Role, type StaffRole, type User } from '../../../edge-api/src/contract/users.ts';
import { useAuth } from './auth.tsx';

/** DESIGN section 3: moderators process orders; everything else in the dashboard is the admins'. */
export const policies = {
  'orders:process': ['moderator', 'admin'],
  'orders:delete': ['admin'],
  'audit:read': ['admin'],
  'services:manage': ['admin'],
  'stocks:manage': ['admin'],
  'users:manage': ['admin'],
  'settings:manage': ['admin'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof policies;

export const can = (role: StaffRole, permission: Permission): boolean => (policies[permission] as readonly StaffRole[]).includes(role);

const StaffRoleContext = createContext<StaffRole | null>(null);

/** Gives the dashboard the staff role its guard found. */
export function StaffRoleProvider({ role, children }: { role: StaffRole; children: ReactNode }) {
  return <StaffRoleContext value={role}>{children}</StaffRoleContext>;
}

/** The signed-in staff member's role, inside the dashboard. */
function useStaffRole(): StaffRole {
  const role = use(StaffRoleContext);
  if (!role) throw new Error('useStaffRole() needs the dashboard guard (StaffRoleProvider) above it');
  return role;
}

/** The role, and whether it may do something. */
export function useAuthorization() {
  const role = useStaffRole();
  return { role, can: (permission: Permission) => can(role, permission) };
}

/** What the role fetch gave for one user id. */
export type RoleLookup =
  | { uid: string; kind: 'role'; role: Role }
  /** The server refused (401, 403, 404): the guard denies, and nobody is signed out (decision 034). */
  | { uid: string; kind: 'failed' }
  /** No answer, or the server is down (offline, 5xx): the user record synced to this device decides, if there is one. */
  | { uid: string; kind: 'unreachable'; localUser: User | null };

export type Access =
  | { kind: 'checking' }
  | { kind: 'allowed'; role: StaffRole }
  /** `role`: the account is not staff. `failed`: the server would not say (an error answer). */
  | { kind: 'denied'; reason: 'role' | 'failed' };

/**
 * The spec's guard, made to work offline: the role comes from GET /api/users/{uid}; a non-staff role or a
 * failed fetch denies. When the server cannot be reached at all, the user record synced to this device
 * decides, so an admin's tablet keeps working through an outage.
 */
export function decideAccess(uid: string, lookup: RoleLookup | undefined): Access {
  if (!lookup || lookup.uid !== uid) return { kind: 'checking' };
  const role = lookup.kind === 'role' ? lookup.role : lookup.kind === 'unreachable' && lookup.localUser?.uid === uid ? lookup.localUser.userRole : undefined;
  if (isStaffRole(role)) return { kind: 'allowed', role };
  // No role known at all (an error answer, or offline with no record on this device) is not "a customer".
  return { kind: 'denied', reason: role === undefined ? 'failed' : 'role' };
}

export type DashboardAccess = { kind: 'signedOut' } | Access;

/**
 * The dashboard guard's decision for whoever is signed in now. The role lookup is handed in (the app
 * passes the db layer's), so authorization needs nothing above lib/. `retry` asks again.
 * Nobody is signed out here: a customer who opens a dashboard address is told it is not for them.
 */
export function useStaffAccess(lookupRole: (uid: string) => Promise<RoleLookup>): { access: DashboardAccess; email: string; retry: () => void } {
  const auth = useAuth();
  const uid = auth.status === 'signedIn' ? auth.user.id : null;
  const [lookup, setLookup] = useState<RoleLookup>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!uid) return;
    let cancelled = false;
    lookupRole(uid)
      .catch((): RoleLookup => ({ uid, kind: 'failed' }))
      .then((result) => {
        if (!cancelled) setLookup(result);
      });
    return () => {
      cancelled = true;
    };
  }, [uid, attempt, lookupRole]);

  const retry = useCallback(() => {
    setLookup(undefined);
    setAttempt((n) => n + 1);
  }, []);

  if (auth.status === 'loading') return { access: { kind: 'checking' }, email: '', retry };
  if (!uid) return { access: { kind: 'signedOut' }, email: '', retry };
  return { access: decideAccess(uid, lookup), email: auth.status === 'signedIn' ? auth.user.email : '', retry };
}
