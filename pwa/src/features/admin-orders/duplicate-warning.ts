import type { CredentialsCheck } from '../../../../edge-api/src/contract/orders.ts';

/** What the credentials modal shows for a duplicate check's answer (spec section 5, texts exact). */
export interface DuplicateWarning {
  kind: 'none' | 'exact' | 'both' | 'email' | 'password';
  /** The banner's heading, or null when there is no banner. */
  title: string | null;
  lines: string[];
  emailInline: string | null;
  passwordInline: string | null;
  approveLabel: 'Approve & Deliver' | 'Override & Deliver';
  /** Exact duplicates are delivered only after a confirmation dialog. */
  needsConfirmation: boolean;
}

export const EMAIL_INLINE = 'This email is already used in another order';
export const PASSWORD_INLINE = 'This password is already used in another order';

const none: DuplicateWarning = {
  kind: 'none',
  title: null,
  lines: [],
  emailInline: null,
  passwordInline: null,
  approveLabel: 'Approve & Deliver',
  needsConfirmation: false,
};

export function selectDuplicateWarning(check: CredentialsCheck | null | undefined): DuplicateWarning {
  if (!check) return none;
  if (check.exactMatch) {
    return {
      ...none,
      kind: 'exact',
      title: '⚠️ These exact credentials already exist in another order!',
      lines: ['Email and password combination is identical to an existing order.', 'This will create duplicate credentials!'],
      approveLabel: 'Override & Deliver',
      needsConfirmation: true,
    };
  }
  if (check.emailExists && check.passwordExists) {
    return {
      ...none,
      kind: 'both',
      title: '⚠️ Both email and password exist in different orders',
      emailInline: EMAIL_INLINE,
      passwordInline: PASSWORD_INLINE,
    };
  }
  if (check.emailExists) {
    return {
      ...none,
      kind: 'email',
      title: '⚠️ This email already exists in another order',
      lines: ['Consider using a different email address.'],
      emailInline: EMAIL_INLINE,
    };
  }
  if (check.passwordExists) {
    return {
      ...none,
      kind: 'password',
      title: '⚠️ This password already exists in another order',
      lines: ['Consider using a different password.'],
      passwordInline: PASSWORD_INLINE,
    };
  }
  return none;
}
