import type { Session, User as AuthUser } from '@supabase/auth-js';
import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import { AppError, hasCode, isApiAnswer } from './app-error.ts';
import { authCallback, getSupabase, hasStoredSession, SESSION_STORAGE_KEY, supabaseLoaded } from './supabase.ts';

export interface SignedInUser {
  id: string;
  email: string;
}

export type AuthState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  /**
   * `session` is supabase-js's once it has answered (absent while it loads or cannot reach the server).
   * `sessionEnded`: the auth server ended the session (refresh refused); the user's data and unsent
   * changes stay on this device, readable, until they sign in again or choose to discard them.
   */
  | { status: 'signedIn'; user: SignedInUser; session?: Session | null; sessionEnded?: boolean };

/** Exported for tests that need a given auth state; the app uses AuthProvider. */
export const AuthContext = createContext<AuthState>({ status: 'loading' });

/** Who last signed in on this device and has not signed out: kept when the auth server ends the session. */
const LAST_USER_KEY = 'storefront:last-user';

function readUser(key: string, pick: (value: unknown) => unknown): SignedInUser | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const user = pick(JSON.parse(raw)) as { id?: unknown; email?: unknown } | null | undefined;
    return typeof user?.id === 'string' ? { id: user.id, email: typeof user.email === 'string' ? user.email : '' } : null;
  } catch {
    return null;
  }
}

/** The user of the session supabase-js stored, read without supabase-js and without the network. */
export function storedSessionUser(): SignedInUser | null {
  return readUser(SESSION_STORAGE_KEY, (value) => (value as { user?: unknown } | null)?.user);
}

function lastUser(): SignedInUser | null {
  return readUser(LAST_USER_KEY, (value) => value);
}

function rememberUser(user: SignedInUser | null): void {
  try {
    if (user) localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
    else {
      localStorage.removeItem(LAST_USER_KEY);
      localStorage.removeItem(ENDED_KEY);
    }
  } catch {
    // storage not writable: the session alone then decides
  }
}

/**
 * The session the API refused although supabase-js still holds it (ended elsewhere, decision 045): its
 * user and its expiry, which tell it from a renewed session. Kept, so that a reload (of /login too) still
 * knows the session has ended instead of showing it as live until the next sync is refused (issue 33 item 6).
 */
const ENDED_KEY = 'storefront:session-ended';

interface EndedMark {
  id: string;
  expiresAt: number | null;
}

function storedExpiry(): number | null {
  try {
    const expiresAt = (JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null') as { expires_at?: unknown } | null)?.expires_at;
    return typeof expiresAt === 'number' ? expiresAt : null;
  } catch {
    return null;
  }
}

function endedMark(): EndedMark | null {
  try {
    const mark = JSON.parse(localStorage.getItem(ENDED_KEY) ?? 'null') as Partial<EndedMark> | null;
    return typeof mark?.id === 'string' ? { id: mark.id, expiresAt: typeof mark.expiresAt === 'number' ? mark.expiresAt : null } : null;
  } catch {
    return null;
  }
}

function markEnded(mark: EndedMark | null): void {
  try {
    if (mark) localStorage.setItem(ENDED_KEY, JSON.stringify(mark));
    else localStorage.removeItem(ENDED_KEY);
  } catch {
    // storage not writable: the state in memory still says so until a reload
  }
}

/** Whether the session of `userId` expiring at `expiresAt` is the one the API refused. */
function isEndedSession(userId: string, expiresAt: number | null | undefined): boolean {
  const mark = endedMark();
  return mark !== null && mark.id === userId && mark.expiresAt === (expiresAt ?? null);
}

/** Set while this device signs out on purpose, so that supabase-js's SIGNED_OUT is not read as "ended". */
let signingOutOnPurpose = false;
/** The mounted AuthProvider's re-read of the state, run once a sign-out on purpose has finished. */
const afterSignOut = new Set<() => void>();
/** The mounted AuthProvider's "this user's session has ended" (true) or "works again" (false), from reportSessionEnded() and reportSessionWorks(). */
const sessionEndedListeners = new Set<(userId: string, ended: boolean) => void>();

/**
 * The API refused this user's session and it could not be renewed. supabase-js keeps a session whose
 * access token is still inside its lifetime although the auth server ended it (signed out elsewhere, the
 * account removed: decision 045), so the app would otherwise show load errors for up to an hour; now it
 * says the session has ended and offers to sign in again, the data kept, as when supabase-js drops it.
 */
export function reportSessionEnded(userId: string): void {
  if (storedSessionUser()?.id === userId) markEnded({ id: userId, expiresAt: storedExpiry() });
  for (const listener of sessionEndedListeners) listener(userId, true);
}

/**
 * The server took this user's session again (a sync went through, the changes kept meanwhile sent): the
 * "session ended" state clears itself, as when the user signs in again (issue 33 item 6).
 */
export function reportSessionWorks(userId: string): void {
  if (endedMark()?.id === userId) markEnded(null);
  for (const listener of sessionEndedListeners) listener(userId, false);
}

/**
 * The state before supabase-js has said anything (decision 040): the stored session's user at once,
 * however old its token, so that the device copy opens offline without waiting for a refresh; the last
 * user, marked ended, when the auth server ended the session; else signed out.
 */
function initialState(): AuthState {
  // A mailed link brought a session: wait for supabase-js to take it before anything renders.
  if (authCallback?.type) return { status: 'loading' };
  const stored = storedSessionUser();
  if (stored)
    return isEndedSession(stored.id, storedExpiry()) ? { status: 'signedIn', user: stored, sessionEnded: true } : { status: 'signedIn', user: stored };
  const last = lastUser();
  if (last) return { status: 'signedIn', user: last, sessionEnded: true };
  return hasStoredSession() ? { status: 'loading' } : { status: 'signedOut' };
}

/**
 * Tracks the supabase-js session; the first state is known before anything renders (spec: layout). With
 * no session stored on this device that state is "signed out" at once, and supabase-js is followed from
 * whenever a sign-in or registration loads it, or another tab signs in.
 *
 * No session from supabase-js is not always "signed out": while the stored session is still there (a
 * refresh that could not reach the server) the user stays signed in on the device copy; when supabase-js
 * removed it without this device signing out, the session has ended and the user is asked to sign in
 * again, their data kept.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    const apply = (session: Session | null) => {
      if (cancelled) return;
      if (session?.user) {
        const user = { id: session.user.id, email: session.user.email ?? '' };
        rememberUser(user);
        // The very session the API refused stays ended; any other (signed in again, renewed) clears the mark.
        const ended = isEndedSession(user.id, session.expires_at);
        if (!ended) markEnded(null);
        setState(ended ? { status: 'signedIn', user, session, sessionEnded: true } : { status: 'signedIn', user, session });
        return;
      }
      const stored = storedSessionUser();
      if (stored) {
        // supabase-js could not renew the token (offline, server down): keep reading the device copy.
        const ended = isEndedSession(stored.id, storedExpiry());
        setState((previous) =>
          previous.status === 'signedIn' && previous.user.id === stored.id && (previous.sessionEnded === true) === ended
            ? previous
            : { status: 'signedIn', user: stored, ...(ended ? { sessionEnded: true } : {}) },
        );
        return;
      }
      const last = signingOutOnPurpose ? null : lastUser();
      setState(last ? { status: 'signedIn', user: last, sessionEnded: true } : { status: 'signedOut' });
    };
    const follow = async (supabase: Awaited<typeof supabaseLoaded>) => {
      // A sign-up confirmed by its mailed link: the user record first (the state stays loading meanwhile).
      if (authCallback?.type === 'signup') await recordConfirmedSignUp(supabase);
      if (!cancelled) unsubscribe = supabase.auth.onAuthStateChange((_event, session) => apply(session)).data.subscription.unsubscribe;
      const { data } = await supabase.auth.getSession();
      apply(data.session);
    };
    if (hasStoredSession() || authCallback?.type) getSupabase().catch(() => apply(null));
    supabaseLoaded.then(follow).catch(() => apply(null));
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_STORAGE_KEY && event.newValue) void getSupabase().catch(() => {});
      if (event.key === LAST_USER_KEY && !event.newValue && !storedSessionUser()) apply(null);
    };
    window.addEventListener('storage', onStorage);
    const signedOut = () => apply(null);
    afterSignOut.add(signedOut);
    const ended = (userId: string, isEnded: boolean) => {
      if (cancelled) return;
      setState((previous) => {
        if (previous.status !== 'signedIn' || previous.user.id !== userId || (previous.sessionEnded === true) === isEnded) return previous;
        if (isEnded) return { status: 'signedIn', user: previous.user, sessionEnded: true };
        // Works again: with the session supabase-js holds; without one the user signs in again as before.
        if (!storedSessionUser()) return previous;
        return previous.session ? { status: 'signedIn', user: previous.user, session: previous.session } : { status: 'signedIn', user: previous.user };
      });
    };
    sessionEndedListeners.add(ended);
    return () => {
      afterSignOut.delete(signedOut);
      sessionEndedListeners.delete(ended);
      cancelled = true;
      unsubscribe?.();
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  return <AuthContext value={state}>{children}</AuthContext>;
}

export const useAuth = () => use(AuthContext);

export interface SignUpInput {
  displayName: string;
  email: string;
  mobile: string;
  password: string;
}

/**
 * Registration (DESIGN section 3): the auth account with display name and mobile in its metadata, then
 * the user record. When saving the record fails the API has already deleted the auth account, so this
 * device signs out too and the error carries the server's message.
 * Resolves `needsConfirmation: true` when the auth server wants the email confirmed before a session exists;
 * the user record is then created at the first sign-in.
 */
export async function signUp(input: SignUpInput): Promise<{ needsConfirmation: boolean }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.signUp({
    email: input.email,
    password: input.password,
    options: { data: { displayName: input.displayName, mobile: input.mobile } },
  });
  if (error) throw error;
  if (!data.session || !data.user) return { needsConfirmation: true };
  try {
    await saveUserRecord(data.user, input);
  } catch (cause) {
    await signOut(data.user.id);
    // A network failure never reached the server; the record is then made at the next sign-in.
    if (isApiAnswer(cause) && cause.message) throw cause;
    throw new AppError(hasCode(cause, 'network') ? 'network' : 'internal', 'Failed to save user to database', { cause });
  }
  return { needsConfirmation: false };
}

/** The API client, loaded when an account is made or signs in: the first paint of a page needs none of it. */
const apiClient = () => import('./api-client.ts');

async function saveUserRecord(user: AuthUser, fields: { displayName: string; email: string; mobile: string }) {
  const { api, unwrap } = await apiClient();
  return unwrap(
    api.users.$post({
      json: {
        uid: user.id,
        email: fields.email,
        displayName: fields.displayName,
        mobile: fields.mobile,
        userRole: 'user',
        createdAt: new Date().toISOString(),
      },
    }),
  );
}

/** Signs in with email and password; rejects with the auth server's error (see signInErrorMessage). */
export async function signIn(email: string, password: string): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  await ensureUserRecord(data.user);
}

/**
 * An account whose record was never saved (confirmation pending at sign-up, or the network dropped the
 * save) gets it now from its metadata. Best effort: sign-in succeeds either way.
 */
async function ensureUserRecord(user: AuthUser): Promise<void> {
  const { api, unwrap } = await apiClient();
  try {
    await unwrap(api.users[':uid'].$get({ param: { uid: user.id } }));
  } catch (error) {
    // Without a record the API refuses even the account's own (403 forbidden, requireRole): missing too.
    if (!hasCode(error, 'not_found', 'forbidden')) return;
    const meta = (user.user_metadata ?? {}) as { displayName?: unknown; mobile?: unknown };
    const displayName = typeof meta.displayName === 'string' ? meta.displayName.trim() : '';
    const mobile = typeof meta.mobile === 'string' ? meta.mobile.trim() : '';
    // The API deletes the auth account when a first save is refused: only send what it will accept.
    if (!displayName || !mobile || !user.email) return;
    await saveUserRecord(user, { email: user.email, displayName, mobile }).catch((cause: unknown) =>
      console.warn('Could not create the missing user record', cause),
    );
  }
}

/** The record of an account whose sign-up a mailed link just confirmed, made as at a first sign-in (decision 262). */
async function recordConfirmedSignUp(supabase: Awaited<typeof supabaseLoaded>): Promise<void> {
  const { data } = await supabase.auth.getSession();
  if (data.session?.user) await ensureUserRecord(data.session.user).catch((cause: unknown) => console.warn('Could not create the user record', cause));
}

/** supabase-js's AuthApiError, told by its name so this module needs no supabase-js code of its own. */
function isAuthApiError(error: unknown): error is { code?: string; status?: number } {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AuthApiError';
}

/** What the sign-in screen says about a failed attempt. */
export function signInErrorMessage(error: unknown): string {
  if (isAuthApiError(error)) {
    if (error.code === 'email_not_confirmed') return 'Please confirm your email address first: open the link we emailed you when you registered.';
    if (error.code === 'invalid_credentials' || error.status === 400) return "Oops! That email or password doesn't look right.";
    if (error.status === 429) return 'Too many attempts. Please wait a minute and try again.';
  }
  if (typeof navigator !== 'undefined' && !navigator.onLine) return 'You are offline. Connect to the internet to sign in.';
  return "We couldn't sign you in right now. Please try again.";
}

/** What signing out also does on this device, for the user who signed out. */
export type SignOutCleanup = (userId: string) => Promise<void>;

let signOutCleanup: SignOutCleanup = async () => {};

/**
 * Hands sign-out the wipe of the user's data on this device. The app does it at start (the sync engine's
 * wipeUserData), so auth itself needs nothing of the database layer.
 */
export function setSignOutCleanup(cleanup: SignOutCleanup): void {
  signOutCleanup = cleanup;
}

/**
 * Logout (DESIGN section 6): this device's session ends even offline, then the cleanup the app handed in
 * runs: syncing stops and the user's database and the private image cache go. A failed revoke request is
 * only logged (spec section 8).
 */
export async function signOut(userId?: string): Promise<void> {
  signingOutOnPurpose = true;
  rememberUser(null);
  try {
    const supabase = await getSupabase();
    const uid = userId ?? storedSessionUser()?.id ?? lastUser()?.id;
    const { error } = await supabase.auth.signOut({ scope: 'local' });
    if (error) console.warn('Sign-out request failed:', error.message);
    if (uid) await signOutCleanup(uid).catch((cause: unknown) => console.warn('Could not delete the data of this user on this device', cause));
    for (const listener of afterSignOut) listener();
  } finally {
    signingOutOnPurpose = false;
  }
}
