import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../components/page-title.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { signIn, signInErrorMessage, useAuth } from '../../lib/auth.tsx';
import { returnPath, returnReason, signInHref } from '../../lib/return-path.ts';
import { clearWipeNotice, hasWipeNotice, WIPED_REASON } from '../../lib/wipe-notice.ts';
import { AuthCard, FormError, TextField } from './auth-card.tsx';

/** Spec section 5: both fields are required. */
function validateLogin(fields: { email: string; password: string }): string | null {
  return !fields.email.trim() || !fields.password ? 'Please fill in all fields' : null;
}

export function LoginPage() {
  usePageTitle('Sign In');
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [fields, setFields] = useState({ email: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const target = returnPath(location.state, location.search);
  // A vault wipe's notice is said once, here (registration and the PIN dialog send the person here with it).
  const [wiped] = useState(hasWipeNotice);
  useEffect(() => {
    if (wiped) clearWipeNotice();
  }, [wiped]);

  if (auth.status === 'signedIn' && !auth.sessionEnded && !busy) return <Navigate to={target} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateLogin(fields);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await signIn(fields.email.trim(), fields.password);
      navigate(target, { replace: true });
    } catch (cause) {
      setError(signInErrorMessage(cause));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Welcome Back" subtitle="Sign in to see your orders and deliveries." reason={returnReason(location.state) ?? (wiped ? WIPED_REASON : null)}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
        <FormError message={error} />
        <TextField
          id="login-email"
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={fields.email}
          onChange={(event) => setFields((f) => ({ ...f, email: event.target.value }))}
        />
        <PasswordInput
          id="login-password"
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={fields.password}
          onChange={(event) => setFields((f) => ({ ...f, password: event.target.value }))}
        />
        <Link to="/forgot-password" className="link link-primary -mt-2 inline-flex min-h-11 items-center self-end text-sm">
          Forgot password?
        </Link>
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy ? 'Signing In...' : 'Sign In'}
        </button>
      </form>
      <p className="text-center text-sm">
        Don't have an account?{' '}
        <Link to={signInHref('/register', target)} state={location.state} className="link link-primary font-medium">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
