import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { hasDirectionControls, MOBILE_RULE, mobileText } from '../../../../edge-api/src/contract/fields.ts';
import { PASSWORD_MIN_CHARS, userLimits } from '../../../../edge-api/src/contract/users.ts';
import { usePageTitle } from '../../components/page-title.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { requestSync } from '../../db/sync-engine.ts';
import { signUp, useAuth } from '../../lib/auth.tsx';
import { returnPath, returnReason, signInHref } from '../../lib/return-path.ts';
import { hasWipeNotice, WIPED_REASON } from '../../lib/wipe-notice.ts';
import { AuthCard, FormError, TextField } from './auth-card.tsx';

/** Spec section 5: every field is required, and the password has at least 6 characters. */
export function validateRegistration(fields: { displayName: string; email: string; mobile: string; password: string }): string | null {
  if (!fields.displayName.trim() || !fields.email.trim() || !fields.mobile.trim() || !fields.password) return 'Please fill in all fields';
  if (fields.password.length < PASSWORD_MIN_CHARS) return `Password should be at least ${PASSWORD_MIN_CHARS} characters`;
  // The record the server keeps refuses them (contract/fields.ts nameText): said before the account is made.
  if (hasDirectionControls(fields.displayName)) return 'Your name must not hold direction control characters';
  if (!mobileText(userLimits.mobile).safeParse(fields.mobile).success) return `Your mobile number ${MOBILE_RULE}`;
  return null;
}

/** The registration form's state and its submit: the account, then the user record, then back where the person came from. */
function useRegistration(target: string) {
  const navigate = useNavigate();
  const [fields, setFields] = useState({ displayName: '', email: '', mobile: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const invalid = validateRegistration(fields);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      const { needsConfirmation } = await signUp({
        displayName: fields.displayName.trim(),
        email: fields.email.trim(),
        mobile: fields.mobile.trim(),
        password: fields.password,
      });
      if (needsConfirmation) {
        setNotice(`Check your email: we sent a message to ${fields.email.trim()}. Open the link in it to confirm your account and sign in.`);
        setBusy(false);
        return;
      }
      // The user record now exists: fetch it (and the role) without waiting for the next sync tick.
      requestSync().catch(() => undefined);
      navigate(target, { replace: true });
    } catch (cause) {
      const message = cause instanceof Error && cause.message ? cause.message : 'Failed to save user to database';
      setError(`Registration failed: ${message}`);
      setBusy(false);
    }
  };
  return { fields, set, error, notice, busy, onSubmit };
}

export function RegisterPage() {
  usePageTitle('Create Account');
  const auth = useAuth();
  const location = useLocation();
  const target = returnPath(location.state, location.search);
  const { fields, set, error, notice, busy, onSubmit } = useRegistration(target);

  // Sent here by a screen that lost its user to a vault wipe: the person has an account; sign-in says why.
  if (hasWipeNotice()) return <Navigate to="/login" replace state={{ reason: WIPED_REASON }} />;
  // Already signed in (and not in the middle of registering): nothing to do here.
  if (auth.status === 'signedIn' && !auth.sessionEnded && !busy) return <Navigate to={target} replace />;

  return (
    <AuthCard title="Create Account" subtitle="Join us to order services and track your deliveries." reason={returnReason(location.state)}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <FormError message={error} />
        {notice && (
          <div role="status" className="alert alert-info alert-soft">
            <span>{notice}</span>
          </div>
        )}
        <TextField
          id="register-name"
          label="Full Name"
          name="displayName"
          autoComplete="name"
          required
          value={fields.displayName}
          onChange={set('displayName')}
        />
        <TextField
          id="register-email"
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={fields.email}
          onChange={set('email')}
        />
        <TextField
          id="register-mobile"
          label="Mobile Number"
          name="mobile"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          maxLength={userLimits.mobile}
          required
          value={fields.mobile}
          onChange={set('mobile')}
        />
        <PasswordInput
          id="register-password"
          label="Password"
          name="password"
          hint="Minimum 6 characters"
          autoComplete="new-password"
          required
          value={fields.password}
          onChange={set('password')}
        />
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy ? 'Creating Account...' : 'Create Account'}
        </button>
      </form>
      <p className="text-center text-sm">
        Already have an account?{' '}
        <Link to={signInHref('/login', target)} state={location.state} className="link link-primary font-medium">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
