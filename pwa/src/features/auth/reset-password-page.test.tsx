import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthContext } from '../../lib/auth.tsx';
import { ForgotPasswordPage } from './forgot-password-page.tsx';
import { LoginPage } from './login-page.tsx';
import { newPasswordProblem } from '../../components/new-password-fields.tsx';
import { ResetPasswordPage } from './reset-password-page.tsx';

afterEach(cleanup);

describe('Forgot password', () => {
  it('is offered on the login screen', () => {
    render(
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('asks for the address before sending anything', () => {
    render(
      <MemoryRouter>
        <ForgotPasswordPage />
      </MemoryRouter>,
    );
    expect(screen.getByLabelText('Email Address').getAttribute('type')).toBe('email');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your email address');
  });
});

describe('Reset password', () => {
  it('opened without a link, says where the link is and offers a new one', () => {
    render(
      <AuthContext value={{ status: 'signedOut' }}>
        <MemoryRouter>
          <ResetPasswordPage />
        </MemoryRouter>
      </AuthContext>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeTruthy();
    expect(screen.getByText('Open the link in the email we sent you to choose a new password.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send a New Link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('checks the new password as registration does, and that both entries match', () => {
    expect(newPasswordProblem({ password: '', confirmation: '' })).toBe('Please fill in all fields');
    expect(newPasswordProblem({ password: 'abc12', confirmation: 'abc12' })).toBe('Password should be at least 6 characters');
    expect(newPasswordProblem({ password: 'abcdef', confirmation: 'abcdeg' })).toBe('The two passwords do not match.');
    expect(newPasswordProblem({ password: 'abcdef', confirmation: 'abcdef' })).toBeNull();
  });
});
