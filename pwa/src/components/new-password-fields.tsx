import { PasswordInput } from './password-input.tsx';
import { PASSWORD_MIN_CHARS } from '../../../edge-api/src/contract/users.ts';

export interface NewPassword {
  password: string;
  confirmation: string;
}

/** Same rules as registration (spec section 5), and the two entries must match; null when both are fine. */
export function newPasswordProblem({ password, confirmation }: NewPassword): string | null {
  if (!password || !confirmation) return 'Please fill in all fields';
  if ([...password].length < PASSWORD_MIN_CHARS) return 'Password should be at least 6 characters';
  if (password !== confirmation) return 'The two passwords do not match.';
  return null;
}

/** The new password and its confirmation, as the reset link's page and the profile ask for them. */
export function NewPasswordFields({ idPrefix, value, onChange }: { idPrefix: string; value: NewPassword; onChange: (value: NewPassword) => void }) {
  return (
    <>
      <PasswordInput
        id={idPrefix}
        label="New Password"
        name="new-password"
        autoComplete="new-password"
        hint="Minimum 6 characters"
        required
        value={value.password}
        onChange={(event) => onChange({ ...value, password: event.target.value })}
      />
      <PasswordInput
        id={`${idPrefix}-confirmation`}
        label="Confirm New Password"
        name="confirm-password"
        autoComplete="new-password"
        required
        value={value.confirmation}
        onChange={(event) => onChange({ ...value, confirmation: event.target.value })}
      />
    </>
  );
}
