import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import { usePageTitle } from '../../components/page-title.ts';
import { keepOnDevice } from '../../db/device-copy.ts';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { useCurrentUser, useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode, isApiAnswer } from '../../lib/app-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { formatDateLong, greetingFor, initialOf, roleBadgeClass, roleLabel } from '../../lib/format.ts';
import { authCallback } from '../../lib/supabase.ts';
import type { UserDb } from '../../db/local-db.ts';
import { VaultCard } from '../../components/vault-card.tsx';
import { ChangeEmailCard, ChangePasswordCard, EditProfileCard, OtherDevicesCard, saveProfile } from './account-settings.tsx';
import { CurrencyCard } from './currency-card.tsx';
import { NotificationsCard } from './notifications-card.tsx';

export const STALE_NOTICE = 'Showing the copy saved on this device: the server could not be reached, so it may be out of date.';
export const ERRORED_NOTICE = 'Showing the copy saved on this device: the server could not answer just now, so it may be out of date.';
export const PROFILE_FAILED = { title: 'Unable to Load Profile', message: 'Failed to fetch user profile.' } as const;

/** A refresh with no answer by then has failed: the page says so rather than loading for ever. */
const REFRESH_PATIENCE_MS = 15_000;

/**
 * How the refresh from the server went: its answer is kept on the device, and the page reads it there.
 * 'offline': not asked; 'unreachable': asked, no answer; 'errored': the server answered with an error.
 */
type Refresh = 'loading' | 'done' | 'missing' | 'offline' | 'unreachable' | 'errored';
const failedRefresh = (refresh: Refresh) => refresh === 'offline' || refresh === 'unreachable' || refresh === 'errored';

/** Whether the device holds a copy of the user's record; a device whose database cannot be read holds none. */
async function hasLocalCopy(userDb: UserDb | null, uid: string): Promise<boolean> {
  try {
    return userDb ? (await userDb.users.get(uid)) !== undefined : false;
  } catch (error) {
    console.warn('Could not read the profile saved on this device', error);
    return false;
  }
}

/** Own profile: shown from the local copy at once, refreshed from the server when online. */
export function ProfilePage() {
  usePageTitle('Profile');
  const auth = useAuth();
  const location = useLocation();
  if (auth.status !== 'signedIn') return <Navigate to="/login" replace state={{ from: location, reason: 'Sign in to see your profile.' }} />;
  return <Profile uid={auth.user.id} sessionEmail={auth.session?.user?.email} />;
}

/** Asks the server for the user's record (kept on the device) on open and on each retry: how that went. */
function useProfileRefresh(uid: string, userDb: UserDb | null, attempt: number): Refresh {
  const [refresh, setRefresh] = useState<Refresh>('loading');
  useEffect(() => {
    let cancelled = false;
    if (!navigator.onLine) {
      setRefresh('offline');
      return;
    }
    setRefresh('loading');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const patience = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('No answer from the server in time')), REFRESH_PATIENCE_MS);
    });
    Promise.race([unwrap(api.users[':uid'].$get({ param: { uid } })), patience])
      // The fresher copy goes on the device, so the profile (and the menu's role) read right offline.
      .then(async (fetched) => {
        if (userDb) await keepOnDevice(userDb, { users: [fetched] });
        if (!cancelled) setRefresh('done');
      })
      .catch((error: unknown) => {
        if (!cancelled) setRefresh(hasCode(error, 'not_found') ? 'missing' : isApiAnswer(error) ? 'errored' : 'unreachable');
      })
      .finally(() => clearTimeout(timer));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [uid, attempt, userDb]);
  return refresh;
}

/** Said once, when the page opens from the confirmation link of an email change. */
let emailChangeToAnnounce = authCallback?.type === 'email_change';

function Profile({ uid, sessionEmail }: { uid: string; sessionEmail: string | undefined }) {
  const user = useCurrentUser();
  const userDb = useUserDb();
  // Whether the device holds a copy at all (useCurrentUser stays undefined until a first sync).
  const localRead = useLiveQuery(() => hasLocalCopy(userDb, uid), [userDb, uid]);
  const [attempt, setAttempt] = useState(0);
  const refresh = useProfileRefresh(uid, userDb, attempt);

  // The auth server confirmed a new address (the link was opened here or on another device): the record follows.
  const [emailMoved] = useState(() => {
    const announce = emailChangeToAnnounce;
    emailChangeToAnnounce = false;
    return announce;
  });
  const recordEmail = user?.email;
  useEffect(() => {
    if (!user || !sessionEmail || refresh !== 'done' || sessionEmail.toLowerCase() === user.email.toLowerCase()) return;
    saveProfile(userDb, user, { displayName: user.displayName, mobile: user.mobile }).catch((error: unknown) =>
      console.warn('Could not bring the new email address to the profile', error),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per address seen, not per edit of the row
  }, [sessionEmail, recordEmail, refresh]);

  const retry = () => setAttempt((n) => n + 1);
  if (user && refresh !== 'missing') {
    // The server could not be asked, or failed: the copy on this device is shown, and said to be one.
    const stale = failedRefresh(refresh) ? <RefreshFailed refresh={refresh} onRetry={retry} /> : null;
    const moved = emailMoved ? (
      <div role="status" className="alert alert-success mb-6">
        <span>Your email address has been changed to {sessionEmail ?? user.email}. Sign in with it from now on.</span>
      </div>
    ) : null;
    return (
      <ProfileView
        user={user}
        userDb={userDb}
        notice={
          <>
            {moved}
            {stale}
          </>
        }
      />
    );
  }
  if (failedRefresh(refresh) && localRead === false) {
    return <ErrorState title={PROFILE_FAILED.title} message={PROFILE_FAILED.message} onRetry={retry} />;
  }
  if (refresh === 'missing') {
    return (
      <div className="flex min-h-[40vh] items-center justify-center p-8">
        <p className="text-lg text-base-content/80">No user data found</p>
      </div>
    );
  }
  return <LoadingState text="Loading profile..." />;
}

/** Above the device's copy when the refresh failed: offline it is said to be a copy; online, the failed load is named as the spec names it. */
function RefreshFailed({ refresh, onRetry }: { refresh: Refresh; onRetry: () => void }) {
  return (
    <div role="status" className="alert alert-warning mb-6 flex flex-wrap justify-between gap-2">
      <div>
        {refresh !== 'offline' && (
          <p>
            <strong>{PROFILE_FAILED.title}.</strong> {PROFILE_FAILED.message}
          </p>
        )}
        <p>{refresh === 'errored' ? ERRORED_NOTICE : STALE_NOTICE}</p>
      </div>
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}

function ProfileView({ user, userDb, notice }: { user: User; userDb: UserDb | null; notice: ReactNode }) {
  const greeting = greetingFor();
  const name = user.displayName || 'there';

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      {notice}
      <header className="mb-8">
        <p className="text-lg font-medium text-primary">{greeting},</p>
        <h1 className="text-3xl font-bold sm:text-4xl">{name}</h1>
        <p className="mt-1 text-base-content/80">Here is your account at a glance.</p>
      </header>

      <div className="grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="profile-card-title" className="card self-start border border-base-300 bg-base-100 shadow-md">
          <div className="card-body items-center justify-start text-center">
            <div className="avatar avatar-placeholder">
              <div className="w-24 rounded-full bg-primary text-primary-content">
                <span className="text-4xl" aria-hidden="true">
                  {initialOf(user.displayName || user.email)}
                </span>
              </div>
            </div>
            <h2 id="profile-card-title" className="card-title mt-2 text-xl">
              {user.displayName || 'Unnamed user'}
            </h2>
            <p className="break-all text-base-content/80">{user.email}</p>
            <span className={`${roleBadgeClass(user.userRole)} mt-2 font-semibold`}>{roleLabel(user.userRole)}</span>
          </div>
        </section>

        <div className="flex flex-col gap-6 lg:col-span-2">
          <section aria-labelledby="personal-info-title" className="card border border-base-300 bg-base-100 shadow-md">
            <div className="card-body">
              <h2 id="personal-info-title" className="card-title">
                Personal Information
              </h2>
              <dl className="grid gap-4 sm:grid-cols-2">
                <Detail term="Full Name" value={user.displayName || 'Not provided'} />
                <Detail term="Email Address" value={user.email} />
                <Detail term="Mobile Number" value={user.mobile || 'Not provided'} />
              </dl>
            </div>
          </section>

          <section aria-labelledby="account-details-title" className="card border border-base-300 bg-base-100 shadow-md">
            <div className="card-body">
              <h2 id="account-details-title" className="card-title">
                Account Details
              </h2>
              <dl className="grid gap-4 sm:grid-cols-2">
                <Detail term="User ID" value={user.uid} mono />
                <Detail term="Member Since" value={formatDateLong(user.createdAt)} />
                <Detail term="Role" value={roleLabel(user.userRole)} />
              </dl>
            </div>
          </section>

          <EditProfileCard key={user.uid} user={user} userDb={userDb} />
          <CurrencyCard />
          <ChangePasswordCard />
          <ChangeEmailCard currentEmail={user.email} />
          <OtherDevicesCard />
          <NotificationsCard staff={user.userRole === 'admin' || user.userRole === 'moderator'} />
          <VaultCard />
        </div>
      </div>
    </div>
  );
}

function Detail({ term, value, mono = false }: { term: string; value: string; mono?: boolean }) {
  return (
    <div className="rounded-box bg-base-200 p-3">
      <dt className="text-sm text-base-content/80">{term}</dt>
      <dd className={`mt-1 break-all font-medium ${mono ? 'font-mono text-sm' : ''}`}>{value}</dd>
    </div>
  );
}
