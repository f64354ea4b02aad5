import { describe, expect, it } from 'vitest';
import { selectDuplicateWarning } from './duplicate-warning.ts';

describe('duplicate credentials warning', () => {
  it('shows nothing before a check or when nothing matches', () => {
    for (const check of [null, undefined, { exactMatch: false, emailExists: false, passwordExists: false }]) {
      expect(selectDuplicateWarning(check)).toMatchObject({ kind: 'none', title: null, approveLabel: 'Approve & Deliver', needsConfirmation: false });
    }
  });

  it('warns of an exact pair, renames the button and asks for confirmation', () => {
    expect(selectDuplicateWarning({ exactMatch: true, emailExists: true, passwordExists: true })).toEqual({
      kind: 'exact',
      title: '⚠️ These exact credentials already exist in another order!',
      lines: ['Email and password combination is identical to an existing order.', 'This will create duplicate credentials!'],
      emailInline: null,
      passwordInline: null,
      approveLabel: 'Override & Deliver',
      needsConfirmation: true,
    });
  });

  it('warns when email and password are each used, in different orders', () => {
    expect(selectDuplicateWarning({ exactMatch: false, emailExists: true, passwordExists: true })).toMatchObject({
      kind: 'both',
      title: '⚠️ Both email and password exist in different orders',
      emailInline: 'This email is already used in another order',
      passwordInline: 'This password is already used in another order',
      approveLabel: 'Approve & Deliver',
      needsConfirmation: false,
    });
  });

  it('warns of a used email only', () => {
    expect(selectDuplicateWarning({ exactMatch: false, emailExists: true, passwordExists: false })).toMatchObject({
      kind: 'email',
      title: '⚠️ This email already exists in another order',
      lines: ['Consider using a different email address.'],
      emailInline: 'This email is already used in another order',
      passwordInline: null,
      needsConfirmation: false,
    });
  });

  it('warns of a used password only', () => {
    expect(selectDuplicateWarning({ exactMatch: false, emailExists: false, passwordExists: true })).toMatchObject({
      kind: 'password',
      title: '⚠️ This password already exists in another order',
      lines: ['Consider using a different password.'],
      emailInline: null,
      passwordInline: 'This password is already used in another order',
      needsConfirmation: false,
    });
  });
});
