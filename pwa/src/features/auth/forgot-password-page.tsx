import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../components/page-title.ts';
import { accountErrorMessage, requestPasswordReset } from '../../lib/account-changes.ts';
import { AuthCard, FormError, TextField } from './auth-card.tsx';

/** "Forgot password?": mails a link to choose a new password (supabase-js resetPasswordForEmail). */
export function ForgotPasswordPage() {
  usePageTitle('Forgot Password');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      setError('Please enter your email address');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await requestPasswordReset(address);
      setSentTo(address);
    } catch (cause) {
      setError(accountErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <AuthCard title="Check Your Email" subtitle="A link to choose a new password is on its way.">
        <div role="status" className="alert alert-success alert-soft">
          <span>
            If an account uses <strong className="break-all">{sentTo}</strong>, we have sent it a link to reset your password. The link works for one hour.
            Nothing there? Check the spam folder, or ask again in a minute.
          </span>
        </div>
        <Link to="/login" className="btn btn-primary w-full">
          Back to Sign In
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot Password?" subtitle="Enter the email address of your account and we'll send you a link to choose a new password.">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <FormError message={error} />
        <TextField
          id="forgot-email"
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy ? 'Sending...' : 'Send Reset Link'}
        </button>
      </form>
      <p className="text-center text-sm">
        Remembered it?{' '}
        <Link to="/login" className="link link-primary font-medium">
          Back to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
