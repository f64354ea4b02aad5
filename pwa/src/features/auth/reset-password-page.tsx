import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../components/page-title.ts';
import { newPasswordProblem, NewPasswordFields } from '../../components/new-password-fields.tsx';
import { accountErrorMessage, setNewPassword } from '../../lib/account-changes.ts';
import { useAuth } from '../../lib/auth.tsx';
import { authCallback } from '../../lib/supabase.ts';
import { AuthCard, FormError } from './auth-card.tsx';

function AskAgain() {
  return (
    <Link to="/forgot-password" className="btn btn-primary w-full">
      Send a New Link
    </Link>
  );
}

/**
 * Where the recovery link lands: supabase-js has taken the session from the URL (PASSWORD_RECOVERY), and
 * the user chooses the new password here.
 */
export function ResetPasswordPage() {
  usePageTitle('Reset Password');
  const auth = useAuth();
  const [fields, setFields] = useState({ password: '', confirmation: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  if (authCallback?.error) {
    return (
      <AuthCard title="Link Expired" subtitle="This password reset link can no longer be used.">
        <p role="alert" className="alert alert-error alert-soft">
          This reset link is invalid or has expired: each link works once, for one hour. Ask for a new one.
        </p>
        <AskAgain />
      </AuthCard>
    );
  }

  if (authCallback?.type !== 'recovery' || auth.status !== 'signedIn') {
    return (
      <AuthCard title="Reset Password" subtitle="Open the link in the email we sent you to choose a new password.">
        <p className="text-center text-base-content/80">No email? Ask for a reset link with the address of your account.</p>
        <AskAgain />
      </AuthCard>
    );
  }

  if (done) {
    return (
      <AuthCard title="Password Changed" subtitle="Your new password is ready to use.">
        <p role="status" className="alert alert-success alert-soft">
          Your password has been changed. You are signed in on this device, and every other device was signed out.
        </p>
        <Link to="/my-orders" className="btn btn-primary w-full">
          Go to My Orders
        </Link>
      </AuthCard>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = newPasswordProblem(fields);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await setNewPassword(fields.password);
      setDone(true);
    } catch (cause) {
      setError(accountErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Choose a New Password" subtitle={`For ${auth.user.email}.`}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <FormError message={error} />
        <NewPasswordFields idPrefix="reset-password" value={fields} onChange={setFields} />
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy ? 'Saving...' : 'Save New Password'}
        </button>
      </form>
    </AuthCard>
  );
}
