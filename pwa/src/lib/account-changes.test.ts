import { describe, expect, it } from 'vitest';
import { accountErrorMessage } from './account-changes.ts';

describe('accountErrorMessage', () => {
  it('tells someone whose reset link has run out to ask for a new one', () => {
    expect(accountErrorMessage({ code: 'reauthentication_needed', status: 401 })).toBe('This password reset link has expired. Ask for a new one.');
  });

  it('names the current password when the server needs it, and waits out a limit', () => {
    expect(accountErrorMessage({ code: 'current_password_required', status: 400 })).toBe('Enter your current password.');
    expect(accountErrorMessage({ code: 'over_request_rate_limit', status: 429 })).toBe('Too many attempts. Please wait a minute and try again.');
  });
});
