import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { profileBody } from '../../../../edge-api/src/contract/user-requests.ts';
import { userLimits, type User } from '../../../../edge-api/src/contract/users.ts';
import { newPasswordProblem, NewPasswordFields } from '../../components/new-password-fields.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import type { UserDb } from '../../db/local-db.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { accountErrorMessage, changeEmail, changePassword, signOutOtherDevices } from '../../lib/account-changes.ts';
import { checkWith, problemsFromAnswer, type FieldProblems } from '../../lib/form-problems.ts';
import { keepOnlyThisDevicePush } from '../../lib/web-push.ts';

type Outcome = { kind: 'done' | 'error'; text: string } | null;

/** Saves the user's own name and mobile on the server, then on the device (the screens read it there). */
export async function saveProfile(userDb: UserDb | null, user: User, fields: { displayName: string; mobile: string }): Promise<User> {
  const saved = await unwrap(api.users[':uid'].$put({ param: { uid: user.uid }, json: { ...fields, version: user.version } }));
  if (userDb) await keepOnDevice(userDb, { users: [saved] });
  return saved;
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card border border-base-300 bg-base-100 shadow-md">
      <div className="card-body">
        <h2 id={id} className="card-title">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

function Field({ id, label, problem, ...input }: { id: string; label: string; problem?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  const problemId = `${id}-problem`;
  return (
    <div>
      <label className="label mb-1 block text-sm font-medium text-base-content" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`input w-full ${problem ? 'input-error' : ''}`}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        {...input}
      />
      {problem && (
        <p id={problemId} className="mt-1 text-sm text-error">
          {problem}
        </p>
      )}
    </div>
  );
}

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return outcome.kind === 'done' ? (
    <div role="status" className="alert alert-success alert-soft">
      <span>{outcome.text}</span>
    </div>
  ) : (
    <div role="alert" className="alert alert-error alert-soft">
      <span>{outcome.text}</span>
    </div>
  );
}

function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="btn btn-primary self-start" disabled={busy}>
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {busy ? busyLabel : label}
    </button>
  );
}

const OFFLINE = 'You are offline. Connect to the internet and try again.';

export function EditProfileCard({ user, userDb }: { user: User; userDb: UserDb | null }) {
  const [fields, setFields] = useState({ displayName: user.displayName, mobile: user.mobile });
  const [problems, setProblems] = useState<FieldProblems>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkWith(profileBody, fields);
    setProblems(found);
    setOutcome(null);
    if (Object.keys(found).length > 0) return;
    if (!navigator.onLine) return setOutcome({ kind: 'error', text: OFFLINE });
    setBusy(true);
    try {
      const saved = await saveProfile(userDb, user, { displayName: fields.displayName.trim(), mobile: fields.mobile.trim() });
      setFields({ displayName: saved.displayName, mobile: saved.mobile });
      setOutcome({ kind: 'done', text: 'Your profile has been saved.' });
    } catch (cause) {
      setProblems(problemsFromAnswer(cause));
      const text = hasCode(cause, 'conflict')
        ? 'Your profile was changed on another device. Reload the page to see it, then try again.'
        : hasCode(cause, 'network')
          ? OFFLINE
          : 'Your profile could not be saved. Please try again.';
      setOutcome({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="edit-profile-title" title="Edit Profile">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="profile-name"
            label="Full Name"
            name="displayName"
            autoComplete="name"
            maxLength={userLimits.displayName}
            required
            problem={problems.displayName}
            value={fields.displayName}
            onChange={(event) => setFields((f) => ({ ...f, displayName: event.target.value }))}
          />
          <Field
            id="profile-mobile"
            label="Mobile Number"
            name="mobile"
            type="tel"
            autoComplete="tel"
            maxLength={userLimits.mobile}
            required
            problem={problems.mobile}
            value={fields.mobile}
            onChange={(event) => setFields((f) => ({ ...f, mobile: event.target.value }))}
          />
        </div>
        <OutcomeLine outcome={outcome} />
        <SubmitButton busy={busy} label="Save Changes" busyLabel="Saving..." />
      </form>
    </Card>
  );
}

export function ChangePasswordCard() {
  const [fields, setFields] = useState({ current: '', password: '', confirmation: '' });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = fields.current ? newPasswordProblem(fields) : 'Please fill in all fields';
    if (invalid) return setOutcome({ kind: 'error', text: invalid });
    setOutcome(null);
    setBusy(true);
    try {
      await changePassword(fields.current, fields.password);
      setFields({ current: '', password: '', confirmation: '' });
      setOutcome({ kind: 'done', text: 'Your password has been changed. Your other devices were signed out.' });
    } catch (cause) {
      setOutcome({ kind: 'error', text: accountErrorMessage(cause) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="change-password-title" title="Change Password">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <PasswordInput
          id="current-password"
          label="Current Password"
          name="current-password"
          autoComplete="current-password"
          required
          value={fields.current}
          onChange={(event) => setFields((f) => ({ ...f, current: event.target.value }))}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <NewPasswordFields idPrefix="new-password" value={fields} onChange={(next) => setFields((f) => ({ ...f, ...next }))} />
        </div>
        <OutcomeLine outcome={outcome} />
        <SubmitButton busy={busy} label="Change Password" busyLabel="Changing..." />
      </form>
    </Card>
  );
}

export function ChangeEmailCard({ currentEmail }: { currentEmail: string }) {
  const [email, setEmail] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) return setOutcome({ kind: 'error', text: 'Enter the new email address.' });
    if (address.toLowerCase() === currentEmail.toLowerCase()) return setOutcome({ kind: 'error', text: 'This is already your email address.' });
    setOutcome(null);
    setBusy(true);
    try {
      await changeEmail(address);
      setEmail('');
      setOutcome({
        kind: 'done',
        text: `We sent a confirmation link to ${address}. Your email changes when you open it; until then, sign in with ${currentEmail}.`,
      });
    } catch (cause) {
      setOutcome({ kind: 'error', text: accountErrorMessage(cause) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="change-email-title" title="Change Email">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <Field
          id="new-email"
          label="New Email Address"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <OutcomeLine outcome={outcome} />
        <SubmitButton busy={busy} label="Send Confirmation Link" busyLabel="Sending..." />
      </form>
    </Card>
  );
}

export function OtherDevicesCard() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    setBusy(true);
    try {
      await signOutOtherDevices();
      // The devices signed out stop getting notifications too (decision 067).
      await keepOnlyThisDevicePush();
      setOutcome({ kind: 'done', text: 'Every other device has been signed out. This one stays signed in.' });
    } catch (cause) {
      setOutcome({ kind: 'error', text: accountErrorMessage(cause) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="other-devices-title" title="Other Devices">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <p className="text-base-content/80">
          Still signed in on a phone or computer you no longer use, or one you lost? Sign out everywhere else; this device stays signed in.
        </p>
        <OutcomeLine outcome={outcome} />
        <SubmitButton busy={busy} label="Sign Out Other Devices" busyLabel="Signing Out..." />
      </form>
    </Card>
  );
}
